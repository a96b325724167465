import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR, isSnapshotPath, unreachableSerial} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {connectAdbDriver, lockKey, queueState} from '@arc-cli/core/testing'
import {runArc} from '@arc-cli/test-support/run-arc'

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
    for (const name of ['./a', 'a/b', 'C:\\snaps\\a', 'dump.xml', 'DUMP.XML'])
      expect(isSnapshotPath(name), name).to.equal(true)
    for (const name of ['a', 'emulator-5554', '192.168.1.7:5555', 'R58M12ABCDE', 'package.json'])
      expect(isSnapshotPath(name), name).to.equal(false)
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
      const run = await runArc(['screen-state', '-d', 'login'], {
        cwd,
        env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`},
      })
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
    const run = await runArc(['devices', '--wait', '--timeout-ms', '300'], {
      env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`},
    })
    expect(run.code).to.equal(11)
    expect(run.stderr).to.match(/TIMEOUT.*no device was ready within 300 ms/)
  })

  it('refuses --serial or --timeout-ms without --wait, which would list every device at once and drop them unsaid', async () => {
    for (const flags of [
      ['--serial', 'wanted'],
      ['--timeout-ms', '5000'],
    ]) {
      const run = await runArc(['devices', ...flags, '--json'], {env: {ADB_SERVER_SOCKET: 'tcp:127.0.0.1:9'}})
      expect(run.code, run.stdout).to.equal(2)
      const {error} = JSON.parse(run.stdout) as {error: {code: string; message: string}}
      expect(error.code).to.equal('INVALID_INPUT')
      expect(error.message).to.match(new RegExp(`^${flags[0]}: applies only to a wait for a device \\(--wait`))
    }
  })

  it('waits for the named serial, not just any device', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'other', snapshot: DEMO_DIR}]})
    try {
      const run = await runArc(['devices', '--wait', '--serial', 'wanted', '--timeout-ms', '400'], {
        env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`},
      })
      expect(run.code).to.equal(11)
      expect(run.stderr).to.include('no device wanted was ready within 400 ms (attached: other (device))')
    } finally {
      await emu.close()
    }
  })
})

describe('arc devices --wait without --serial waits for the device commands pick ($ANDROID_SERIAL)', () => {
  it('waits for $ANDROID_SERIAL, as adb wait-for-device does, not for any device', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'other', snapshot: DEMO_DIR}]})
    try {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ANDROID_SERIAL: 'wanted'}
      const run = await runArc(['devices', '--wait', '--timeout-ms', '400'], {env})
      expect(run.code, run.stdout).to.equal(11)
      expect(run.stderr).to.include('no device wanted was ready within 400 ms (attached: other (device))')
      // --serial still wins, as --device wins over $ANDROID_SERIAL.
      const named = await runArc(['devices', '--wait', '--serial', 'other', '--timeout-ms', '5000'], {env})
      expect(named.code, named.stderr).to.equal(0)
    } finally {
      await emu.close()
    }
  })
})

describe('arc devices --wait for a serial it was not given says where the serial came from', () => {
  it('a wait for $ANDROID_SERIAL that runs out names $ANDROID_SERIAL; one for --serial does not', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'other', snapshot: DEMO_DIR}]})
    try {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ANDROID_SERIAL: 'stale'}
      const run = await runArc(['devices', '--wait', '--timeout-ms', '300'], {env})
      expect(run.code, run.stderr).to.equal(11)
      expect(run.stderr).to.include('the serial comes from $ANDROID_SERIAL')
      const named = await runArc(['devices', '--wait', '--serial', 'stale', '--timeout-ms', '300'], {env})
      expect(named.code, named.stderr).to.equal(11)
      expect(named.stderr).to.not.include('ANDROID_SERIAL')
    } finally {
      await emu.close()
    }
  })
})

describe('arc devices --wait for a device that stays unauthorized', () => {
  it('runs out with what to do about it, as --device on that device says', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'locked', snapshot: DEMO_DIR, state: 'unauthorized'}]})
    try {
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
      const run = await runArc(['devices', '--wait', '--serial', 'locked', '--timeout-ms', '300'], {env})
      expect(run.code, run.stderr).to.equal(11)
      expect(run.stderr).to.include('locked is unauthorized')
      expect(run.stderr).to.include('"Allow USB debugging?" prompt')
    } finally {
      await emu.close()
    }
  })
})

describe('arc devices --wait --serial names a device as --device does (the same resolution)', () => {
  const socket = (emu: Emulator) => ({ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`})
  const getStates = (emu: Emulator) => emu.requests.filter((r) => r.raw.endsWith(':get-state')).length

  it('waits for a network device named by its host without the port, and then --device with that name drives it', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [
        {serial: '192.168.1.5:5555', snapshot: DEMO_DIR, state: 'offline'},
        {serial: 'emulator-5554', snapshot: DEMO_DIR},
      ],
    })
    try {
      const waiting = runArc(['devices', '--wait', '--serial', '192.168.1.5', '--timeout-ms', '20000'], {
        env: socket(emu),
      })
      // The device comes up only once the wait has asked the server about the name (and seen it offline).
      for (let i = 0; i < 400 && getStates(emu) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(getStates(emu), 'the wait asked the server what 192.168.1.5 names').to.be.greaterThan(0)
      emu.device('192.168.1.5:5555').setState('device')
      const run = await waiting
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stdout).to.match(/^192\.168\.1\.5:5555\tdevice\t/m)
      const from = emu.commands.length
      const tap = await runArc(['tap', '1', '1', '--device', '192.168.1.5'], {env: socket(emu)})
      expect(tap.code, tap.stderr).to.equal(0)
      expect([...new Set(emu.commands.slice(from).map((c) => c.serial))]).to.deep.equal(['192.168.1.5:5555'])
    } finally {
      await emu.close()
    }
  })

  it('takes tcp:HOST:PORT too, and while the device it names is not ready says so when the time is up', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [{serial: '192.168.1.5:5555', snapshot: DEMO_DIR, state: 'unauthorized'}],
    })
    try {
      const late = await runArc(['devices', '--wait', '--serial', '192.168.1.5', '--timeout-ms', '300'], {
        env: socket(emu),
      })
      expect(late.code).to.equal(11)
      expect(late.stderr).to.include('no device 192.168.1.5 was ready within 300 ms (192.168.1.5 is unauthorized)')
      emu.device('192.168.1.5:5555').setState('device')
      const ready = await runArc(['devices', '--wait', '--serial', 'tcp:192.168.1.5:5555', '--timeout-ms', '20000'], {
        env: socket(emu),
      })
      expect(ready.code, ready.stderr).to.equal(0)
    } finally {
      await emu.close()
    }
  })

  it('a name several devices match fails at once with the error --device gives, not at the timeout', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [
        {serial: '192.168.1.5:5555', snapshot: DEMO_DIR},
        {serial: '192.168.1.5:5556', snapshot: DEMO_DIR},
      ],
    })
    try {
      const wait = await runArc(['devices', '--wait', '--serial', '192.168.1.5', '--timeout-ms', '60000'], {
        env: socket(emu),
      })
      const tap = await runArc(['tap', '1', '1', '--device', '192.168.1.5'], {env: socket(emu)})
      expect(wait.code, wait.stderr).to.equal(5)
      expect(wait.stderr).to.match(/DEVICE_AMBIGUOUS.*several devices match 192\.168\.1\.5 /)
      expect(tap.code).to.equal(5)
      const firstLine = (text: string) => text.split('\n')[0]
      expect(firstLine(wait.stderr)).to.equal(firstLine(tap.stderr))
    } finally {
      await emu.close()
    }
  })

  it('an exact serial costs the listing alone, and nothing is asked about a name while nothing is attached', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'emulator-5554', snapshot: DEMO_DIR}]})
    try {
      const exact = await runArc(['devices', '--wait', '--serial', 'emulator-5554'], {env: socket(emu)})
      expect(exact.code, exact.stderr).to.equal(0)
      emu.device('emulator-5554').disconnect()
      const none = await runArc(['devices', '--wait', '--serial', '192.168.1.5', '--timeout-ms', '300'], {
        env: socket(emu),
      })
      expect(none.code).to.equal(11)
      expect(none.stderr).to.include('(no device is attached)')
      expect(emu.requests.filter((r) => r.raw.startsWith('host:devices')).length).to.be.greaterThan(1)
      expect(getStates(emu)).to.equal(0)
    } finally {
      await emu.close()
    }
  })

  it('refuses a name --device reads as a snapshot: there is no adb device to wait for', async () => {
    for (const name of ['demo', './login']) {
      const run = await runArc(['devices', '--wait', '--serial', name, '--timeout-ms', '60000'])
      expect(run.code, run.stderr).to.equal(2)
      expect(run.stderr).to.include(`--serial ${name}:`)
      expect(run.stderr).to.include('nothing to wait for')
    }
  })
})

describe('a serial arc did not get on its command line is named with where it came from', () => {
  it('ANDROID_SERIAL or the config naming a device that is not there says so; --device does not', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'arc-names-'))
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
    try {
      const byEnv = await runArc(['tap', '1', '1'], {cwd, env: {...env, ANDROID_SERIAL: 'gone-phone'}})
      expect(byEnv.code, byEnv.stderr).to.equal(4)
      expect(byEnv.stderr).to.include('device gone-phone is not attached')
      expect(byEnv.stderr).to.include('ANDROID_SERIAL')
      await writeFile(path.join(cwd, '.arcrc.json'), JSON.stringify({device: 'gone-phone'}))
      const byConfig = await runArc(['tap', '1', '1'], {cwd, env})
      expect(byConfig.code, byConfig.stderr).to.equal(4)
      expect(byConfig.stderr).to.include('`device` in the config')
      const byFlag = await runArc(['tap', '1', '1', '--device', 'gone-phone'], {cwd, env})
      expect(byFlag.code, byFlag.stderr).to.equal(4)
      expect(byFlag.stderr).to.not.include('ANDROID_SERIAL=')
      expect(byFlag.stderr).to.not.include('in the config')
    } finally {
      await emu.close()
    }
  })
})

describe('ANDROID_SERIAL takes what --device takes', () => {
  it('a network device by its host without the port, or with tcp:, and a name two devices match is DEVICE_AMBIGUOUS alike', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [
        {serial: '192.168.1.5:5555', snapshot: DEMO_DIR},
        {serial: '10.0.0.7:5555', snapshot: DEMO_DIR},
        {serial: '10.0.0.7:5556', snapshot: DEMO_DIR},
      ],
    })
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
    try {
      for (const name of ['192.168.1.5', 'tcp:192.168.1.5:5555']) {
        const from = emu.commands.length
        const run = await runArc(['tap', '1', '1'], {env: {...env, ANDROID_SERIAL: name}})
        expect(run.code, `${name}: ${run.stderr}`).to.equal(0)
        expect([...new Set(emu.commands.slice(from).map((c) => c.serial))], name).to.deep.equal(['192.168.1.5:5555'])
      }
      const byEnv = await runArc(['tap', '1', '1'], {env: {...env, ANDROID_SERIAL: '10.0.0.7'}})
      const byFlag = await runArc(['tap', '1', '1', '--device', '10.0.0.7'], {env})
      expect(byEnv.code, byEnv.stderr).to.equal(5)
      expect(byEnv.stderr).to.equal(byFlag.stderr)
    } finally {
      await emu.close()
    }
  })
})

/**
 * One device named two ways (`192.168.1.5:5555` as `adb devices` lists it, `192.168.1.5` as adb also takes it) is one
 * device: its lock (one user at a time, across arc processes) and what arc remembers of it were keyed by the name as
 * typed, so a click resolved under one name could be cut into by a BACK sent under the other, and an id read under
 * one name was refused under the other as another device's.
 */
describe('a device named two ways is one device: one lock, one record of its ids', () => {
  it('an id read with --device HOST:PORT acts with --device HOST, and the two names take one lock', async () => {
    const emu = await startEmulator({port: 0, devices: [{serial: '192.168.1.5:5555', snapshot: DEMO_DIR}]})
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-two-names-'))
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: dir}
    try {
      const found = await runArc(['find', 'text', 'ADD', '--exact-match', '--json', '-d', '192.168.1.5:5555'], {env})
      expect(found.code, found.stderr).to.equal(0)
      const id = (JSON.parse(found.stdout) as {elements: Array<{id: string}>}).elements[0]?.id as string
      const clicked = await runArc(['click', id, '-d', '192.168.1.5'], {env})
      expect(clicked.code, clicked.stderr).to.equal(0)
      expect(clicked.stdout).to.include(`Click performed on element '${id}'`)
      const [listed, short] = await Promise.all([
        connectAdbDriver({serial: '192.168.1.5:5555', host: '127.0.0.1', port: emu.port, env: {}}),
        connectAdbDriver({serial: '192.168.1.5', host: '127.0.0.1', port: emu.port, env: {}}),
      ])
      try {
        let release = () => undefined as void
        let started = () => undefined as void
        const holding = new Promise<void>((resolve) => (started = resolve))
        const held = listed.exclusive(() => {
          started()
          return new Promise<void>((resolve) => (release = resolve))
        })
        const key = lockKey('127.0.0.1', emu.port, '192.168.1.5:5555')
        // The other name queues behind the holder (no timing: the queue is joined as the call is made).
        const waiting = short.exclusive(async () => 'ran')
        expect(queueState(key)).to.deep.equal({busy: true, waiting: 1})
        await holding
        release()
        await held
        expect(await waiting).to.equal('ran')
      } finally {
        await Promise.all([listed.close(), short.close()])
      }
    } finally {
      await emu.close()
      await rm(dir, {recursive: true, force: true})
    }
  })
})
