import {mkdir, mkdtemp} from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR, isSnapshotPath, unreachableSerial} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {runArc} from '../support/run-arc.js'

/** A port nothing listens on right now (the kernel's pick, released at once). */
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('device names: a serial and a snapshot path never collide', () => {
  it('reads only path-looking names as snapshots', () => {
    for (const name of ['./a', 'a/b', 'C:\\snaps\\a', 'dump.xml', 'DUMP.XML']) expect(isSnapshotPath(name), name).to.equal(true)
    for (const name of ['a', 'emulator-5554', '192.168.1.7:5555', 'R58M12ABCDE', 'package.json']) expect(isSnapshotPath(name), name).to.equal(false)
  })

  it('names the serials arc emulate must refuse', () => {
    expect(unreachableSerial('demo')).to.match(/bundled demo snapshot/)
    expect(unreachableSerial('a/b')).to.match(/snapshot path/)
    expect(unreachableSerial('x.xml')).to.match(/snapshot path/)
    expect(unreachableSerial('arc-virtual')).to.equal(undefined)
  })

  it('a bare name that is a folder here is still a serial, and the error names both', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'arc-names-'))
    await mkdir(path.join(cwd, 'login'))
    const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    try {
      const run = await runArc(['screen-state', '-d', 'login'], {cwd, env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}})
      expect(run.code).to.equal(4)
      expect(run.stderr).to.include('device login is not attached')
      expect(run.stderr).to.include('a file or folder of that name is here')
      expect(run.stderr).to.include(`--device .${path.sep}login`)
    } finally {
      await emu.close()
    }
  })

  it('arc emulate refuses a serial --device could not reach', async () => {
    for (const serial of ['demo', 'a/b']) {
      const run = await runArc(['emulate', '--port', '0', '--serial', `${serial}=demo`])
      expect(run.code, run.stderr).to.equal(2)
      expect(run.stderr).to.include('could not be reached by --device')
    }
  })
})

describe('arc devices --wait', () => {
  it('waits for a server that starts later, then lists the ready device', async () => {
    const port = await freePort()
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`}
    const waiting = runArc(['devices', '--wait', '--timeout-ms', '20000'], {env})
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const emu = await startEmulator({port, devices: [{serial: 'late', snapshot: DEMO_DIR}]})
    try {
      const run = await waiting
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stdout).to.match(/^late\tdevice\t/)
    } finally {
      await emu.close()
    }
  })

  it('times out with exit 11 and says what it last saw', async () => {
    const port = await freePort()
    const run = await runArc(['devices', '--wait', '--timeout-ms', '300'], {env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`}})
    expect(run.code).to.equal(11)
    expect(run.stderr).to.match(/TIMEOUT.*no device was ready within 300 ms/)
  })

  it('waits for the named serial, not just any device', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'other', snapshot: DEMO_DIR}]})
    try {
      const run = await runArc(['devices', '--wait', '--serial', 'wanted', '--timeout-ms', '400'], {env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}})
      expect(run.code).to.equal(11)
      expect(run.stderr).to.include('no device wanted was ready within 400 ms (attached: other (device))')
    } finally {
      await emu.close()
    }
  })
})
