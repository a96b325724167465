import {expect} from 'chai'
import net from 'node:net'
import type {AddressInfo} from 'node:net'

import {exitCodeFor} from '@arc-cli/core'

import {runArc} from '@arc-cli/test-support/run-arc'

/** Programs on the adb port that are not an adb server: arc must say so, never answer "no devices" with exit 0. */
describe('hostile: a broken adb server', function () {
  this.timeout(60_000)

  for (const [what, answer] of [
    ['OKAY then garbage', 'OKAYgarbage!garbage!\x00\x01'],
    ['OKAY then a length that is not hex', 'OKAY00zz'],
  ] as const) {
    it(`${what}: arc devices exits DEVICE_UNAVAILABLE saying it is not an adb server`, async () => {
      const server = net.createServer((socket) => socket.once('data', () => socket.end(answer)))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      try {
        const port = (server.address() as AddressInfo).port
        for (const args of [['devices'], ['devices', '--json']]) {
          const run = await runArc(args, {env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`}})
          expect(run.code, run.stderr).to.equal(exitCodeFor('DEVICE_UNAVAILABLE'))
          expect(run.stderr + run.stdout)
            .to.include('that is not an adb server')
            .and.not.include('INTERNAL')
        }
      } finally {
        server.close()
      }
    })
  }
})
