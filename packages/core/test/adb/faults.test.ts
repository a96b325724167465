import {existsSync} from 'node:fs'
import {mkdtemp, writeFile, chmod, access} from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {AdbServer} from '../../src/driver/adb/adb-client.js'
import {connectAdbDriver, namedDeviceState} from '../../src/driver/adb/connect.js'
import {runArc} from '@arc-cli/test-support/run-arc'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('expected an error'),
    (e: unknown) => e as Error & {code: string; actions: string[]}
  )

/** Waits (bounded) until `check` holds; for effects that complete just after a call returns. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25))
  expect(check(), what).to.equal(true)
}

describe('a USB device the Linux host may not open (adb state `no permissions (…); see [URL]`)', () => {
  const h = useEmulator({
    devices: [
      {serial: 'R58M12ABCDE', snapshot: DEMO_DIR, state: 'no permissions'},
      {serial: 'emu-1', snapshot: DEMO_DIR},
    ],
  })

  it('arc devices shows the whole state, not its first word', async () => {
    const {listAdbDevices} = await import('../../src/driver/adb/connect.js')
    const devices = await listAdbDevices({host: '127.0.0.1', port: h.emu.port, env: {}})
    expect(devices.map((d) => d.state)).to.deep.equal([
      'no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]',
      'device',
    ])
    expect(devices[0]?.transportId).to.match(/^\d+$/)
    expect(devices[1]?.model).to.be.a('string')
  })

  it('choosing it says to fix USB permissions, not to boot into Android', async () => {
    const error = await failure(h.driver('R58M12ABCDE'))
    expect(error.code).to.equal('DEVICE_UNAVAILABLE')
    expect(error.message).to.match(
      /^device R58M12ABCDE cannot be opened: this user has no permission for the USB device/
    )
    expect(error.actions.join(' '))
      .to.match(/udev rule/)
      .and.not.match(/boot it into Android/)
  })

  it('the server refusing a service on it maps to the same error', async () => {
    const server = new AdbServer({host: '127.0.0.1', port: h.emu.port, hostSource: 'test', portSource: 'test'}, 2000)
    const error = await failure(server.shell('R58M12ABCDE', 'echo hi'))
    expect(error.code).to.equal('DEVICE_UNAVAILABLE')
    expect(error.actions.join(' ')).to.match(/udev rule/)
  })
})

describe('--device names a device the way `adb -s` does (atransport::MatchesTarget)', () => {
  const h = useEmulator({
    devices: [
      {serial: '192.168.1.5:5555', snapshot: DEMO_DIR},
      {serial: '[fe80::1%wlan0]:5555', snapshot: DEMO_DIR},
      {serial: 'emulator-5554', snapshot: DEMO_DIR},
    ],
  })

  it('a network device by its host without the port, or with tcp:; every later request names it by its listed serial', async () => {
    for (const target of ['192.168.1.5', 'tcp:192.168.1.5:5555', '[fe80::1%wlan0]']) {
      const listed = target.startsWith('[') ? '[fe80::1%wlan0]:5555' : '192.168.1.5:5555'
      const driver = await h.driver(target)
      // One device named two ways is one device to arc's lock and cache (connect.ts listedSerial).
      expect(driver.serial, target).to.equal(listed)
      const from = h.emu.commands.length
      await driver.tap({x: 1, y: 1})
      const serials = new Set(h.emu.commands.slice(from).map((c) => c.serial))
      expect([...serials], target).to.deep.equal([listed])
    }
  })

  it('the wrong port, or a name the server matches twice, is refused as adb refuses it', async () => {
    expect((await failure(h.driver('192.168.1.5:5556'))).code).to.equal('DEVICE_NOT_FOUND')
    // An empty or blank name (`-d "$SERIAL"` with SERIAL unset) is shown quoted: "device  is not attached" said nothing.
    for (const name of ['', ' ', 'a\tb']) {
      const blank = await failure(h.driver(name))
      expect(blank.code).to.equal('DEVICE_NOT_FOUND')
      expect(blank.message).to.equal(
        `device ${JSON.stringify(name)} is not attached to the adb server at 127.0.0.1:${h.emu.port}`
      )
    }
    // adb's server cuts `host-serial:foo:bar:get-state` after `foo` and finds no service `bar:get-state`.
    const colon = await failure(h.driver('foo:bar'))
    expect(colon.code).to.equal('DEVICE_NOT_FOUND')
    expect(colon.message).to.equal(`device foo:bar is not attached to the adb server at 127.0.0.1:${h.emu.port}`)
    const twice = await failure(h.driver('model:arc_emulated_device'))
    expect(twice.code).to.equal('DEVICE_AMBIGUOUS')
    expect(twice.message).to.match(/^several devices match model:arc_emulated_device/)
  })
  it('one resolution of a name (--device and `devices --wait --serial`): a listed serial costs no request, a shared one is ambiguous', async () => {
    const server = h.server()
    const from = h.emu.requests.length
    expect(await namedDeviceState(server, [{serial: 'emulator-5554', state: 'offline'}], 'emulator-5554')).to.equal(
      'offline'
    )
    expect(await namedDeviceState(server, [], '192.168.1.5')).to.equal(undefined)
    const twins = [
      {serial: '0123456789ABCDEF', state: 'device'},
      {serial: '0123456789ABCDEF', state: 'device'},
    ]
    const shared = await failure(namedDeviceState(server, twins, '0123456789ABCDEF'))
    expect(shared.code).to.equal('DEVICE_AMBIGUOUS')
    expect(shared.message).to.equal('2 devices share the serial 0123456789ABCDEF, so it names none of them')
    expect(h.emu.requests.length, 'nothing asked of the server').to.equal(from)
    const listed = await server.listDevices()
    expect(await namedDeviceState(server, listed, '192.168.1.5')).to.equal('device')
    expect(await namedDeviceState(server, listed, 'foo:bar')).to.equal(undefined)
    expect(h.emu.requests.slice(from).map((r) => r.raw)).to.deep.equal([
      'host:devices',
      'host-serial:192.168.1.5:get-state',
      'host-serial:foo:bar:get-state',
    ])
  })
})

describe('device selection and errors (adbkit against arc emulate)', () => {
  const h = useEmulator({
    devices: [
      {serial: 'emu-1', snapshot: DEMO_DIR},
      {serial: 'emu-2', snapshot: DEMO_DIR},
      {serial: 'locked', snapshot: DEMO_DIR, state: 'unauthorized'},
      {serial: 'gone', snapshot: DEMO_DIR, state: 'offline'},
    ],
  })

  it('refuses to guess between several ready devices and lists their serials', async () => {
    const error = await failure(h.driver())
    expect(error.code).to.equal('DEVICE_AMBIGUOUS')
    expect(error.message).to.contain('emu-1, emu-2')
  })

  it('drives the device named by serial', async () => {
    expect((await h.driver('emu-2')).serial).to.equal('emu-2')
  })

  it('names a missing serial and what is attached', async () => {
    const error = await failure(h.driver('nope'))
    expect(error.code).to.equal('DEVICE_NOT_FOUND')
    expect(error.actions.join(' ')).to.contain('emu-1 (device)')
  })

  it('reports unauthorized and offline devices with what to do', async () => {
    const locked = await failure(h.driver('locked'))
    expect(locked.code).to.equal('DEVICE_UNAVAILABLE')
    expect(locked.message).to.equal('device locked is unauthorized')
    expect(locked.actions.join(' ')).to.match(/Allow USB debugging/)
    const offline = await failure(h.driver('gone'))
    expect(offline.code).to.equal('DEVICE_UNAVAILABLE')
    expect(offline.message).to.contain('offline')
  })

  it('maps the server refusing a device that turned unauthorized after selection', async () => {
    const driver = await h.driver('emu-2')
    h.emu.device('emu-2').setState('unauthorized')
    try {
      expect((await failure(driver.tap({x: 1, y: 1}))).code).to.equal('DEVICE_UNAVAILABLE')
    } finally {
      h.emu.device('emu-2').setState('device')
    }
  })

  it('lists every device with its state for `devices`', async () => {
    const {listAdbDevices} = await import('../../src/driver/adb/connect.js')
    const devices = await listAdbDevices({host: '127.0.0.1', port: h.emu.port, env: {}})
    expect(devices.map((d) => `${d.serial} ${d.state}`)).to.deep.equal([
      'emu-1 device',
      'emu-2 device',
      'locked unauthorized',
      'gone offline',
    ])
    expect(devices[0]?.model).to.be.a('string')
  })
})

describe('faults (adbkit against arc emulate)', () => {
  const h = useEmulator()

  it('a device that disappears mid-dump gives DEVICE_UNAVAILABLE, not a half screen', async () => {
    const driver = await h.driver('emu-1')
    const device = h.emu.device('emu-1')
    device.addFault({
      command: 'uiautomator dump',
      kind: 'disconnect',
      output: '<?xml version=\'1.0\' ?><hierarchy rotation="0"><node ',
    })
    try {
      const error = await failure(driver.captureScreen())
      expect(error.code).to.equal('DEVICE_UNAVAILABLE')
      expect(error.message).to.match(/disconnected/)
    } finally {
      device.reconnect()
    }
  })

  it('a device that disappears during a tap gives DEVICE_UNAVAILABLE', async () => {
    const driver = await h.driver('emu-1')
    const device = h.emu.device('emu-1')
    device.addFault({command: 'input tap', kind: 'disconnect'})
    try {
      expect((await failure(driver.tap({x: 1, y: 2}))).code).to.equal('DEVICE_UNAVAILABLE')
    } finally {
      device.reconnect()
    }
  })

  it('a hung command times out, and its connection and device shell are gone afterwards', async () => {
    const driver = await h.driver('emu-1', 300)
    h.emu.device('emu-1').hangNext('input')
    // On a loaded machine the 300 ms may run out before `input` even reaches the device: the hang must not stay
    // armed for the next test's `input`.
    const error = await failure(driver.tap({x: 3, y: 4})).finally(() => h.emu.device('emu-1').clearFaults())
    expect(error.code).to.equal('TIMEOUT')
    expect(error.message).to.match(/timed out after 300 ms/)
    await eventually(() => h.emu.runningShells().length === 0, 'no device shell left running')
    expect((await h.driver('emu-1')).serial).to.equal('emu-1')
  })

  it('a push whose host file cannot be read fails as an error, not an uncaught stream error that ends arc', async () => {
    // An installation without its helper dex (a partial copy, a package made without it) pushed it from here: the
    // read stream's ENOENT had no listener and killed the process with a Node.js stack trace.
    const server = new AdbServer({host: '127.0.0.1', port: h.emu.port, hostSource: 'test', portSource: 'test'}, 5000)
    const missing = path.join(os.tmpdir(), `arc-no-such-file-${process.pid}.dex`)
    const error = await failure(server.push('emu-1', missing, '/data/local/tmp/arc-push-test.dex', 100))
    expect(error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(error.message).to.contain(missing)
    expect(existsSync(h.emu.device('emu-1').files.hostPath('/data/local/tmp/arc-push-test.dex'))).to.equal(false)
  })

  it('garbage from wm size (asked when the displays dump shows no size) or screencap is DEVICE_COMMAND_FAILED', async () => {
    const driver = await h.driver('emu-1')
    // Garbage instead of the whole window dump sends arc to the two separate reads; garbage from displays too leaves no size.
    h.emu.device('emu-1').addFault({command: 'dumpsys window -a', kind: 'garbage', output: '\u0000\u00ff not a dump'})
    h.emu
      .device('emu-1')
      .addFault({command: 'dumpsys window displays', kind: 'garbage', output: '\u0000\u00ff not a dump'})
    h.emu.device('emu-1').addFault({command: 'wm size', kind: 'garbage', output: '\u0001\u0002 not a size'})
    expect((await failure(driver.captureScreen())).code).to.equal('DEVICE_COMMAND_FAILED')
    h.emu.device('emu-1').addFault({command: 'screencap', kind: 'garbage'})
    expect((await failure(driver.screenshot())).code).to.equal('DEVICE_COMMAND_FAILED')
  })

  it('garbage instead of a dump is INVALID_DUMP', async () => {
    const driver = await h.driver('emu-1')
    h.emu.device('emu-1').addFault({command: 'uiautomator dump', kind: 'garbage', output: 'hello\n'})
    expect((await failure(driver.captureScreen())).code).to.equal('INVALID_DUMP')
  })

  it('a failing input command (non-zero exit) is DEVICE_COMMAND_FAILED with its message', async () => {
    const driver = await h.driver('emu-1')
    h.emu.device('emu-1').addFault({
      command: 'input',
      kind: 'error',
      message: 'java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n',
    })
    const error = await failure(driver.swipe({x: 1, y: 1}, {x: 2, y: 2}, 100))
    expect(error.code).to.equal('DEVICE_COMMAND_FAILED')
    expect(error.message).to.contain('INJECT_EVENTS')
  })
})

describe('adb server faults', () => {
  it('no server listening: DEVICE_UNAVAILABLE naming the address, and no adb is started', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-noadb-'))
    const marker = path.join(dir, 'adb-was-run')
    await writeFile(path.join(dir, 'adb'), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`)
    await chmod(path.join(dir, 'adb'), 0o755)
    const port = await freePort()
    const run = await runArc(['tap', '1', '2'], {
      env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`, PATH: `${dir}:${process.env.PATH}`},
    })
    expect(run.code).to.equal(6)
    expect(run.stderr).to.contain(`no adb server at 127.0.0.1:${port}`)
    expect(run.stderr).to.contain('adb -P')
    expect(
      await access(marker).then(
        () => true,
        () => false
      ),
      'adb start-server was run'
    ).to.equal(false)
  })

  it('a server that accepts but never answers: TIMEOUT, and arc closes its connection', async () => {
    const closed: boolean[] = []
    const server = net.createServer((socket) => socket.resume().on('close', () => closed.push(true)))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as net.AddressInfo).port
    try {
      const error = await failure(connectAdbDriver({host: '127.0.0.1', port, timeoutMs: 200, env: {}}))
      expect(error.code).to.equal('TIMEOUT')
      await eventually(() => closed.length === 1, 'the connection was closed')
    } finally {
      server.close()
    }
  })

  it('arc devices against a server that never answers: one TIMEOUT, without asking a second time', async () => {
    const sockets: net.Socket[] = []
    const server = net.createServer((socket) => {
      sockets.push(socket)
      socket.resume()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as net.AddressInfo).port
    try {
      const {listAdbDevices} = await import('../../src/driver/adb/connect.js')
      const error = await failure(listAdbDevices({host: '127.0.0.1', port, timeoutMs: 200, env: {}}))
      expect(error.code).to.equal('TIMEOUT')
      expect(sockets).to.have.length(1)
    } finally {
      for (const socket of sockets) socket.destroy()
      server.close()
    }
  })

  it('something that is not an adb server: a clear DEVICE_COMMAND_FAILED', async () => {
    const server = net.createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as net.AddressInfo).port
    try {
      const error = await failure(
        new AdbServer({host: '127.0.0.1', port, hostSource: 'test', portSource: 'test'}, 2000).listDevices()
      )
      expect(error.code).to.equal('DEVICE_COMMAND_FAILED')
      expect(error.message).to.match(/unexpected data/)
    } finally {
      server.close()
    }
  })
})

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as net.AddressInfo).port
  await new Promise((r) => server.close(r))
  return port
}
