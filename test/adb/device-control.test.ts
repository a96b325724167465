import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

describe('device info, rotation, wake, unlock and shell through the ADB driver', () => {
  const h = useEmulator({devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
  const device = () => h.emu.device('emu-1')

  async function run(name: string, input: Record<string, unknown> = {}, json = false) {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {json})
    try {
      const result = await tool(name).handler(ctx, tool(name).input.parse(input))
      return {...result, argv: h.argvSince(from)}
    } finally {
      await driver.close()
    }
  }

  it('device info reads getprop, wm size/density, dumpsys battery and the focused app from dumpsys window displays', async () => {
    device().battery = {level: 42, scale: 100, status: 3, ac: false, usb: false}
    const r = await run('device_info')
    expect(r.argv).to.have.deep.members([
      ['getprop'],
      ['wm', 'size'],
      ['wm', 'density'],
      ['dumpsys', 'battery'],
      ['dumpsys', 'window', 'displays'],
    ])
    expect(r.data).to.deep.equal({
      serial: 'emu-1',
      model: 'arc emulated device',
      manufacturer: 'arc',
      brand: 'arc',
      android_version: '14',
      sdk: 34,
      abi: 'x86_64',
      screen: {width: 1080, height: 2400, density: 420},
      battery: {level: 42, status: 'discharging', plugged: []},
      foreground: {package: 'dev.arc.demo.groceries', activity: '.ListActivity'},
    })
    expect(r.text).to.equal(
      [
        'serial       emu-1',
        'model        arc emulated device',
        'manufacturer arc',
        'android      14 (SDK 34)',
        'abi          x86_64',
        'screen       1080x2400 420dpi',
        'battery      42% discharging',
        'foreground   dev.arc.demo.groceries/.ListActivity',
      ].join('\n')
    )
    // The app an `am start -n` brought to the front is what the next read names.
    const driver = await h.driver()
    try {
      await driver.openApp('com.android.settings', {activity: '.Settings'})
      expect((await driver.deviceInfo()).foreground).to.deep.equal({
        package: 'com.android.settings',
        activity: '.Settings',
      })
    } finally {
      await driver.close()
    }
  })

  describe('device info names the foreground app from real window-manager captures', () => {
    before(function () {
      if (!deviceOutputAvailable) this.skip()
    })

    it('Android 10+: the focus lines of dumpsys window displays, one read', async () => {
      device().addFault({
        command: 'dumpsys window displays',
        kind: 'garbage',
        output: readDeviceOutput('dumpsys-window-displays', 'mtk-tb8168-tablet-android13.txt'),
      })
      const r = await run('device_info')
      expect(r.argv.filter((a) => a[0] === 'dumpsys' && a[1] !== 'battery')).to.deep.equal([
        ['dumpsys', 'window', 'displays'],
      ])
      expect(r.data).to.have.deep.property('foreground', {package: 'com.mediatek.camera', activity: '.CameraLauncher'})
      expect(r.text).to.match(/\nforeground   com\.mediatek\.camera\/\.CameraLauncher$/)
    })

    it('Android 9: no focus in the displays section, so the end of dumpsys window windows', async () => {
      device().addFault({
        command: 'dumpsys window displays',
        kind: 'garbage',
        output: readDeviceOutput('dumpsys-window-displays', 'emulator-sdk_gphone_x86-android9.txt'),
      })
      device().addFault({
        command: 'dumpsys window windows',
        kind: 'garbage',
        output: readDeviceOutput('dumpsys-window-windows', 'emulator-sdk_gphone_x86-android9.txt'),
      })
      const r = await run('device_info')
      expect(r.argv.filter((a) => a[0] === 'dumpsys' && a[1] !== 'battery')).to.deep.equal([
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'window', 'windows'],
      ])
      expect(r.data).to.have.deep.property('foreground', {
        package: 'com.jeanboy.app.training',
        activity: '.ui.activity.MainActivity',
      })
    })

    it('no word from the window manager: dumpsys activity activities, as a capture asks; nothing known: no foreground', async () => {
      device().addFault({
        command: 'dumpsys window displays',
        kind: 'garbage',
        output: readDeviceOutput('dumpsys-window-displays', 'emulator-sdk_gphone_x86-android9.txt'),
      })
      device().addFault({
        command: 'dumpsys window windows',
        kind: 'garbage',
        output: 'WINDOW MANAGER WINDOWS (dumpsys window windows)\n',
      })
      device().addFault({
        command: 'dumpsys activity',
        kind: 'garbage',
        output: readDeviceOutput('dumpsys-activity', 'pixel-sailfish-android10.txt'),
      })
      const r = await run('device_info')
      expect(r.argv.filter((a) => a[0] === 'dumpsys' && a[1] !== 'battery')).to.deep.equal([
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'window', 'windows'],
        ['dumpsys', 'activity', 'activities'],
      ])
      expect(r.data).to.have.deep.property('foreground', {package: 'com.android.launcher3', activity: '.Launcher'})
      device().addFault({command: 'dumpsys window displays', kind: 'garbage', output: 'mFocusedApp=null\n'})
      const none = await run('device_info')
      expect(none.data).to.not.have.property('foreground')
      expect(none.text).to.not.include('foreground')
    })
  })

  it('rotation reads the display and the settings; setting it writes accelerometer_rotation then user_rotation', async () => {
    const get = await run('rotation')
    expect(get.argv).to.have.deep.members([
      ['dumpsys', 'window', 'displays'],
      ['settings', 'get', 'system', 'accelerometer_rotation'],
      ['settings', 'get', 'system', 'user_rotation'],
    ])
    expect(get.text).to.equal('Rotation: 0° (auto-rotate off)')
    const set = await run('rotation', {set: '270'})
    expect(set.argv).to.deep.equal([
      ['settings', 'put', 'system', 'accelerometer_rotation', '0'],
      ['settings', 'put', 'system', 'user_rotation', '3'],
    ])
    expect(set.data).to.deep.equal({auto_rotate: false, user_rotation: 270})
    expect((await run('rotation')).data).to.deep.equal({rotation: 0, auto_rotate: false, user_rotation: 270})
    const auto = await run('rotation', {set: 'auto'})
    expect(auto.argv).to.deep.equal([['settings', 'put', 'system', 'accelerometer_rotation', '1']])
    expect((await run('rotation')).text).to.equal('Rotation: 0° (auto-rotate on)')
  })

  it('rotation and the screen size on Android 7-9, whose displays section shows no rotation: read from the windows section', async () => {
    // The shape of those releases: the displays section has the size line only (`cur=` turned to landscape here);
    // the rotation closes `dumpsys window windows`.
    const displays = [
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      '  Display: mDisplayId=0',
      '    init=1080x1920 480dpi cur=1920x1080 app=1920x1080 rng=1080x1008-1920x1848',
      '    deferred=false layoutNeeded=false',
      '',
    ].join('\n')
    const windows = ['WINDOW MANAGER WINDOWS (dumpsys window windows)', '  mRotation=1 mAltOrientation=false', ''].join(
      '\n'
    )
    const landscape = () => {
      device().addFault({command: 'dumpsys window displays', kind: 'garbage', output: displays})
      device().addFault({command: 'dumpsys window windows', kind: 'garbage', output: windows})
    }
    landscape()
    const get = await run('rotation')
    expect(get.argv).to.deep.include(['dumpsys', 'window', 'windows'])
    expect(get.data).to.deep.include({rotation: 90})
    landscape()
    const driver = await h.driver()
    try {
      expect(await driver.screenSize()).to.deep.include({width: 1920, height: 1080})
    } finally {
      await driver.close()
    }
  })

  it('rotation refuses other values before anything is sent', () => {
    expect(tool('rotation').input.safeParse({set: '45'}).success).to.equal(false)
  })

  it('wake sends KEYCODE_WAKEUP only when the screen is off', async () => {
    device().awake = true
    const on = await run('wake')
    expect(on.argv).to.have.deep.members([
      ['dumpsys', 'power'],
      ['dumpsys', 'window', 'policy'],
    ])
    expect(on.text).to.equal('Screen already on')
    device().sleep()
    const off = await run('wake')
    expect(off.argv).to.deep.include(['input', 'keyevent', 'KEYCODE_WAKEUP'])
    expect(off.data).to.deep.equal({awake: true, was_awake: false})
    expect(device().awake).to.equal(true)
  })

  it('wake ends a screensaver: dumpsys power says Dreaming, so KEYCODE_WAKEUP goes out and the device is awake', async () => {
    device().dreaming = true
    try {
      const r = await run('wake')
      expect(r.argv).to.deep.include(['input', 'keyevent', 'KEYCODE_WAKEUP'])
      expect(r.data).to.deep.equal({awake: true, was_awake: false})
      expect(device().dreaming).to.equal(false)
    } finally {
      device().dreaming = false
    }
  })

  it('unlock wakes the screen and dismisses a swipe lock', async () => {
    device().lock = 'swipe'
    device().sleep()
    const r = await run('unlock')
    expect(r.argv).to.deep.include(['input', 'keyevent', 'KEYCODE_WAKEUP'])
    expect(r.argv).to.deep.include(['wm', 'dismiss-keyguard'])
    expect(r.text).to.equal('Device unlocked')
    expect(r.data).to.deep.equal({unlocked: true, was_locked: true, was_awake: false})
    expect(device().keyguardShowing).to.equal(false)
    const again = await run('unlock')
    expect(again.text).to.equal('Device was not locked')
    expect(again.argv).not.to.deep.include(['wm', 'dismiss-keyguard'])
  })

  it('unlock fails with UNSUPPORTED when a secure lock remains', async function () {
    this.timeout(15_000)
    device().lock = 'secure'
    device().sleep()
    try {
      await run('unlock')
      expect.fail('unlock should fail')
    } catch (error) {
      expect((error as {code: string}).code).to.equal('UNSUPPORTED')
      expect((error as Error).message).to.equal(
        'the lock screen of emu-1 needs a PIN, pattern or password: arc cannot unlock it'
      )
    }
    expect(device().awake).to.equal(true)
    device().lock = 'none'
    device().keyguardShowing = false
  })

  it('shell keeps stdout, stderr and the exit status apart (shell v2) and quotes every word', async () => {
    const ok = await run('shell', {command: ['getprop', 'ro.product.model']})
    expect(ok.argv).to.deep.equal([['getprop', 'ro.product.model']])
    expect(ok.data).to.deep.equal({stdout: 'arc emulated device\n', stderr: '', exit_code: 0})
    expect(ok.cli?.exitCode).to.equal(0)
    const bad = await run('shell', {command: ['ls', '/nope']})
    expect(bad.data).to.deep.equal({stdout: '', stderr: 'ls: /nope: No such file or directory\n', exit_code: 1})
    expect(bad.cli?.exitCode).to.equal(1)
    expect(bad.text).to.equal('[stderr]\nls: /nope: No such file or directory\n[exit status 1]')
    const nasty = await run('shell', {command: ['pidof', ...NASTY_STRINGS]})
    expect(nasty.argv).to.deep.equal([['pidof', ...NASTY_STRINGS]])
  })

  it('shell under --json returns the data only (no raw bytes)', async () => {
    const r = await run('shell', {command: ['whoami']}, true)
    expect(r.cli?.stdout).to.equal(undefined)
    expect(r.data).to.deep.equal({stdout: 'shell\n', stderr: '', exit_code: 0})
  })
})
