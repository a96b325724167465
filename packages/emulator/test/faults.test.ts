import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, eventually, readAll, shell, shellV2, type AdbClient} from './support.js'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('emulator faults', () => {
  let emu: Emulator
  let client: AdbClient
  beforeEach(async () => {
    emu = await emulate({
      devices: [{serial: 'emu-1', snapshot: DEMO_DIR}],
      scenario: {
        devices: {
          'emu-1': {
            faults: [
              {command: 'dumpsys window', kind: 'garbage', output: '\u0000\u00ff not a dump'},
              {command: 'uiautomator dump', kind: 'disconnect', output: '<?xml version=', times: 1},
              {command: 'getprop ro.build.version.sdk', kind: 'error', message: 'getprop: boom\n', exitCode: 3},
            ],
          },
          locked: {snapshot: DEMO_DIR, state: 'unauthorized'},
        },
      },
    })
    client = clientFor(emu)
  })
  afterEach(() => emu.close())

  it('prints garbage instead of the answer when scripted', async () => {
    expect(await shell(client, 'emu-1', 'dumpsys window')).to.equal('\u0000\u00ff not a dump')
    expect(await shell(client, 'emu-1', 'dumpsys window')).to.match(/mCurrentFocus=/)
  })

  it('fails a command with a scripted error and exit status', async () => {
    const r = await shellV2(client, 'emu-1', 'getprop ro.build.version.sdk')
    expect([r.stderr.toString(), r.exitCode]).to.deep.equal(['getprop: boom\n', 3])
  })

  it('drops the device mid-command: partial output, then EOF, and the device leaves the list', async () => {
    const out = await shell(client, 'emu-1', 'uiautomator dump /dev/tty')
    expect(out).to.equal('<?xml version=')
    expect((await client.listDevices()).map((d: {id: string}) => d.id)).to.deep.equal(['locked'])
    const err = await client
      .getDevice('emu-1')
      .shell('echo hi')
      .then(
        () => undefined,
        (e: Error) => e
      )
    expect(err?.message).to.match(/device 'emu-1' not found/)
    expect(await eventually(() => emu.runningShells().length === 0)).to.equal(true)
    emu.device('emu-1').reconnect()
    expect(await shell(client, 'emu-1', 'echo back')).to.equal('back\n')
  })

  it('a v2 client sees no exit packet when the device drops', async () => {
    emu.device('emu-1').addFault({command: 'wm', kind: 'disconnect'})
    const r = await shellV2(client, 'emu-1', 'wm size')
    expect(r.exitCode).to.equal(undefined)
  })

  it('hangs a command until the client gives up, then leaves nothing running', async () => {
    emu.device('emu-1').hangNext('screencap')
    const stream = await client.getDevice('emu-1').shell('screencap -p')
    const reading = readAll(stream).then(
      () => 'ended',
      () => 'errored'
    )
    // The client's own time limit: the command has not answered within 300 ms, so it closes the connection.
    const winner = await Promise.race([reading, new Promise((r) => setTimeout(() => r('timeout'), 300))])
    expect(winner).to.equal('timeout')
    const pids = emu.runningShells()
    expect(pids).to.have.length(1)
    stream.destroy()
    expect(await eventually(() => emu.runningShells().length === 0)).to.equal(true)
    expect(await eventually(() => pids.every((pid) => !alive(pid)))).to.equal(true)
    expect(await shell(client, 'emu-1', 'echo still-fine')).to.equal('still-fine\n')
  })

  it('refuses an unauthorized device with the real message, but lists it', async () => {
    expect(await client.listDevices()).to.deep.include({id: 'locked', type: 'unauthorized'})
    const err = await client
      .getDevice('locked')
      .shell('echo hi')
      .then(
        () => undefined,
        (e: Error) => e
      )
    expect(err?.message).to.match(/device unauthorized\.\nThis adb server's \$ADB_VENDOR_KEYS is not set/)
    emu.device('locked').setState('offline')
    const offline = await client
      .getDevice('locked')
      .shell('echo hi')
      .then(
        () => undefined,
        (e: Error) => e
      )
    expect(offline?.message).to.match(/device offline/)
  })

  it('close() kills hung shells', async () => {
    emu.device('emu-1').hangNext()
    const stream = await client.getDevice('emu-1').shell('sleep 0; input tap 1 1')
    stream.on('error', () => {})
    expect(await eventually(() => emu.commands.some((c) => c.argv[0] === 'sleep'))).to.equal(true)
    const pids = emu.runningShells()
    expect(pids).to.have.length(1)
    await emu.close()
    expect(pids.every((pid) => !alive(pid))).to.equal(true)
  })
})
