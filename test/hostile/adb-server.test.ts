import {expect} from 'chai'
import net from 'node:net'
import type {AddressInfo} from 'node:net'

import {readFile, writeFile} from 'node:fs/promises'

import {exitCodeFor, TimeoutError} from '@arc-cli/core'
import {connectAdbDriver} from '@arc-cli/core/testing'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
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

/**
 * A link to a real adb server (`arc emulate`) that passes the first `fastBytes` of each connection, each way, at
 * full speed and then one byte every `delayMs`: a transfer that starts well and then trickles.
 */
async function tricklingLink(port: number, fastBytes: number, delayMs: number): Promise<{port: number; close(): void}> {
  const sockets = new Set<net.Socket>()
  const throttle = (from: net.Socket, to: net.Socket) => {
    let passed = 0
    const queue: Buffer[] = []
    let timer: NodeJS.Timeout | undefined
    const drip = () => {
      const head = queue[0]
      if (head === undefined || to.destroyed) return void (timer = undefined)
      to.write(head.subarray(0, 1))
      if (head.length > 1) queue[0] = head.subarray(1)
      else queue.shift()
      timer = setTimeout(drip, delayMs)
    }
    from.on('data', (chunk: Buffer) => {
      const fast = chunk.subarray(0, Math.max(0, fastBytes - passed))
      passed += fast.length
      if (fast.length > 0 && queue.length === 0) to.write(fast)
      else if (fast.length > 0) queue.push(fast)
      if (fast.length < chunk.length) queue.push(chunk.subarray(fast.length))
      // Only as much waits here as a slow link's buffers hold: the sender feels it as a slow link.
      if (queue.reduce((n, b) => n + b.length, 0) > 64 * 1024) from.pause()
      if (queue.length > 0 && timer === undefined) timer = setTimeout(drip, delayMs)
    })
    from.on('close', () => {
      clearTimeout(timer)
      to.destroy()
    })
  }
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => {})
    }
    throttle(client, upstream)
    throttle(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('hostile: an adb link that trickles bytes', function () {
  const h = useEmulator()
  const BIG = 32 * 1024 * 1024
  let link: {port: number; close(): void}

  before(async () => {
    await writeFile(h.emu.device('emu-1').files.hostPath('/data/local/tmp/big.bin'), Buffer.alloc(BIG, 7))
    link = await tricklingLink(h.emu.port, 64 * 1024, 20)
  })
  after(() => link?.close())

  // Before the floor, a pull of 32 MiB at a byte per 20 ms was allowed its size at 1 MiB/s (32 s on top of the
  // limit), while it would take 7 days: the call must end as soon as it falls below the floor instead.
  it('a pull whose bytes trickle ends with TIMEOUT naming the floor, long before its size would allow', async function () {
    this.timeout(15_000)
    const driver = await connectAdbDriver({
      serial: 'emu-1',
      host: '127.0.0.1',
      port: link.port,
      timeoutMs: 500,
      env: {},
    })
    try {
      const error = await driver.readFile('/data/local/tmp/big.bin', undefined, {expectedBytes: BIG}).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).to.be.instanceOf(TimeoutError)
      expect((error as Error).message).to.match(
        /^pull \/data\/local\/tmp\/big\.bin on emu-1 moved \d+ bytes in \d+ ms: slower than 1 MiB\/s/
      )
    } finally {
      await driver.close()
    }
  })

  it('a push whose bytes trickle ends the same way, and leaves the old file', async function () {
    this.timeout(15_000)
    const driver = await connectAdbDriver({
      serial: 'emu-1',
      host: '127.0.0.1',
      port: link.port,
      timeoutMs: 500,
      env: {},
    })
    try {
      const error = await driver.writeFile('/data/local/tmp/big.bin', Buffer.alloc(BIG, 9)).then(
        () => undefined,
        (e: unknown) => e
      )
      expect(error).to.be.instanceOf(TimeoutError)
      expect((error as Error).message).to.match(/^push \S+ on emu-1 moved \d+ bytes in \d+ ms: slower than 1 MiB\/s/)
    } finally {
      await driver.close()
    }
    const kept = await readFile(h.emu.device('emu-1').files.hostPath('/data/local/tmp/big.bin'))
    expect(kept.equals(Buffer.alloc(BIG, 7))).to.equal(true)
  })
})
