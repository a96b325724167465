import {expect} from 'chai'

import {parseWindowManager, windowTitle, windowTypeName} from '../../src/driver/adb/parse-windows.js'
import {deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'

/** The windows list (and the displays output, where the capture has one) of one device. */
function read(file: string, withDisplays = true) {
  const windows = readDeviceOutput('dumpsys-window-windows', file)
  const displays = withDisplays ? readDeviceOutput('dumpsys-window-displays', file) : ''
  return parseWindowManager(windows, displays)
}

function visible(file: string, withDisplays = true) {
  return read(file, withDisplays)
    .windows.filter((w) => w.visible)
    .map((w) => `${w.z} ${w.type} ${w.package} ${w.title}`)
}

describe('dumpsys window windows: the window manager list, from real captures of Android 7.1 to 15', function () {
  before(function () {
    if (!deviceOutputAvailable) this.skip()
  })

  it('Android 7.1 (emulator): numeric ty= named, Window #9 first is the topmost, focus closing the section', () => {
    const wm = read('emulator-sdk_google_phone_x86-android7.1.1.txt')
    expect(wm.windows).to.have.length(10)
    expect(visible('emulator-sdk_google_phone_x86-android7.1.1.txt')).to.deep.equal([
      '0 NAVIGATION_BAR com.android.systemui NavigationBar',
      '1 STATUS_BAR com.android.systemui StatusBar',
      '6 DRAWN_APPLICATION com.google.android.apps.nexuslauncher com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity',
      '7 BASE_APPLICATION com.google.android.apps.nexuslauncher com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity',
      '9 WALLPAPER com.android.systemui com.android.systemui.ImageWallpaper',
    ])
    // The keyboard window exists but is hidden (mViewVisibility=0x8, no surface).
    expect(wm.windows.find((w) => w.title === 'InputMethod')).to.include({
      type: 'INPUT_METHOD',
      visible: false,
      layer: 121000,
    })
    expect(wm.windows[0]).to.deep.include({layer: 211000, frame: [0, 2416, 1440, 2560], displayId: 0})
    expect(wm.focus).to.equal(
      'com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity'
    )
  })

  it('Android 7.1 (vivo, Meizu vendor ROMs)', () => {
    expect(read('vivo-pd1616-android7.1.2.txt').focus).to.equal('com.bbk.launcher2/com.bbk.launcher2.Launcher')
    expect(visible('vivo-pd1616-android7.1.2.txt')[0]).to.equal(
      '0 STATUS_BAR_PANEL com.vivo.upslide UpSlideTransparentView'
    )
    // Meizu with the shade pulled down: the status bar is the focused, only visible window.
    expect(read('meizu-mx6-flyme-android7.1.1.txt').focus).to.equal('StatusBar')
    expect(visible('meizu-mx6-flyme-android7.1.1.txt')).to.deep.equal(['1 STATUS_BAR com.android.systemui StatusBar'])
  })

  it('Android 8.1: numeric types with isVisible', () => {
    expect(visible('smartron-tphoneE-android8.1.txt')).to.deep.equal([
      '0 SECURE_SYSTEM_OVERLAY android PointerLocation',
      '1 NAVIGATION_BAR com.android.systemui NavigationBar',
      '2 STATUS_BAR com.android.systemui StatusBar',
      '5 BASE_APPLICATION com.google.android.gms com.google.android.gms/com.google.android.gms.auth.uiflows.addaccount.ErrorActivity',
    ])
  })

  it('Android 9: symbolic types, zeroed animation layers, the focus still in the windows section', () => {
    const wm = read('emulator-sdk_gphone_x86-android9.txt')
    expect(wm.windows[0]).to.deep.include({
      title: 'NavigationBar',
      type: 'NAVIGATION_BAR',
      layer: 231000,
      visible: true,
      frame: [0, 1794, 1080, 1920],
    })
    expect(wm.focus).to.equal('com.jeanboy.app.training/com.jeanboy.app.training.ui.activity.MainActivity')
    // MIUI: a dialog-sized APPLICATION window above its activity's base window.
    expect(visible('xiaomi-miui-android9.txt', false).slice(-2)).to.deep.equal([
      '8 APPLICATION com.xiaomi.account com.xiaomi.account/com.xiaomi.account.ui.LoginActivity',
      '9 BASE_APPLICATION com.xiaomi.account com.xiaomi.account/com.xiaomi.account.ui.LoginActivity',
    ])
  })

  it('Android 9 POS with two displays: focus of display 0 although display 1 is listed first', () => {
    const wm = read('mtk-rlk6580-t2s-lite-android9.txt')
    expect(wm.focus).to.equal('com.woyou.launcher/com.android.launcher3.Launcher')
    expect(wm.windows.find((w) => w.type === 'STATUS_BAR')?.frame).to.deep.equal([1897, 0, 1920, 1080])
  })

  it('Android 10: focus moves to dumpsys window displays', () => {
    const windowsOnly = parseWindowManager(readDeviceOutput('dumpsys-window-windows', 'pixel-sailfish-android10.txt'))
    expect(windowsOnly.focus).to.equal(undefined)
    const wm = read('pixel-sailfish-android10.txt')
    expect(wm.focus).to.equal('com.android.launcher3/com.android.launcher3.Launcher')
    expect(visible('pixel-sailfish-android10.txt')).to.deep.equal([
      '0 NAVIGATION_BAR com.android.systemui NavigationBar0',
      '1 STATUS_BAR com.android.systemui StatusBar',
      '4 BASE_APPLICATION com.android.launcher3 com.android.launcher3/com.android.launcher3.Launcher',
      '5 WALLPAPER com.android.systemui com.android.systemui.ImageWallpaper',
    ])
  })

  it('Android 13 tablet: rootTaskId=, the notification shade focused, frames from the Frames: line', () => {
    const wm = read('mtk-tb8168-tablet-android13.txt')
    expect(wm.focus).to.equal('NotificationShade')
    expect(wm.windows.find((w) => w.title === 'NotificationShade')).to.deep.include({
      type: 'NOTIFICATION_SHADE',
      visible: true,
      frame: [0, 0, 480, 800],
    })
  })

  it('Android 14 and 15 emulators (UTF-16LE with CRLF for 14): the taskbar is a NAVIGATION_BAR of the launcher', () => {
    for (const file of ['emulator-pixel-avd-android14-utf16le-crlf.txt', 'emulator-pixel-avd-android15plus.txt']) {
      const v = visible(file, false)
      expect(v).to.include('3 NAVIGATION_BAR com.google.android.apps.nexuslauncher Taskbar')
      expect(v).to.include('5 STATUS_BAR com.android.systemui StatusBar')
      expect(v.at(-2)).to.match(/^8 BASE_APPLICATION com.google.android.apps.nexuslauncher /)
    }
  })

  it('vivo Android 14+: the vendor title form, and the gesture bars as NAVIGATION_BAR_PANEL', () => {
    const v = visible('vivo-android14plus-utf16le-crlf.txt', false)
    expect(v.slice(0, 4)).to.deep.equal([
      '2 NAVIGATION_BAR_PANEL com.vivo.upslide side_dock_gesture_bar',
      '3 NAVIGATION_BAR_PANEL com.vivo.upslide SideSlideGestureBar-Bottom',
      '4 NAVIGATION_BAR_PANEL com.vivo.upslide SideSlideGestureBar-Right',
      '5 NAVIGATION_BAR_PANEL com.vivo.upslide SideSlideGestureBar-Left',
    ])
    expect(v).to.include('12 BASE_APPLICATION com.kryptoloot.app com.kryptoloot.app/com.example.MainActivity')
  })
})

describe('dumpsys window windows: which windows take touches (flags and touchable regions, Android 7.1 to 15)', function () {
  before(function () {
    if (!deviceOutputAvailable) this.skip()
  })
  const touch = (file: string) =>
    read(file, false).windows.map((w) => ({
      title: w.title,
      touchable: w.touchable,
      ...(w.touchableRegion ? {region: w.touchableRegion} : {}),
    }))

  it('Android 7.1 and 8.1 print the flags as a number: bit 0x10 is NOT_TOUCHABLE', () => {
    const t = touch('emulator-sdk_google_phone_x86-android7.1.1.txt')
    // fl=#10318 (wallpaper), fl=#1000118 (assist panel): the bit set; fl=#81910100 (the launcher): not.
    expect(t.find((w) => w.title === 'com.android.systemui.ImageWallpaper')).to.deep.equal({
      title: 'com.android.systemui.ImageWallpaper',
      touchable: false,
    })
    expect(t.find((w) => w.title === 'AssistPreviewPanel')!.touchable).to.equal(false)
    expect(t.find((w) => w.title === 'NavigationBar')!.touchable).to.equal(true)
    // The keyboard's keys: its frame reaches from the status bar down, its touchable region is the keys.
    expect(t.find((w) => w.title === 'InputMethod')).to.deep.equal({
      title: 'InputMethod',
      touchable: true,
      region: [[0, 1404, 1440, 2560]],
    })
    expect(touch('smartron-tphoneE-android8.1.txt')[0]).to.deep.equal({title: 'PointerLocation', touchable: false})
  })

  it('Android 9 to 15 print the names; an empty touchable region takes nothing (the taskbar, corner overlays)', () => {
    const miui = touch('xiaomi-miui-android9.txt')
    expect(miui.slice(0, 2).map((w) => w.touchable)).to.deep.equal([false, false])
    expect(miui.find((w) => w.title === 'NavigationBar')!.touchable).to.equal(true)
    const a15 = touch('emulator-pixel-avd-android15plus.txt')
    // No NOT_TOUCHABLE in its flags, but `touchable region=SkRegion()`.
    expect(a15.find((w) => w.title === 'ScreenDecorOverlayBottom')!.touchable).to.equal(false)
    expect(a15.find((w) => w.title === 'Taskbar')!.touchable).to.equal(false)
    // The collapsed shade's window is the whole screen; it takes touches only along the status bar.
    expect(a15.find((w) => w.title === 'NotificationShade')).to.deep.equal({
      title: 'NotificationShade',
      touchable: true,
      region: [
        [0, 0, 1080, 142],
        [485, 142, 595, 174],
      ],
    })
    // vivo's edge gesture bars take touches (NAVIGATION_BAR_PANEL, touchable); its display panel does not.
    const vivo = touch('vivo-android14plus-utf16le-crlf.txt')
    expect(vivo.find((w) => w.title === 'SideSlideGestureBar-Right')!.touchable).to.equal(true)
    expect(vivo.find((w) => w.title === 'SideSlideDisplayPanel')!.touchable).to.equal(false)
  })
})

describe('window title and type helpers', () => {
  it('reads titles of every form and names numeric types', () => {
    expect(windowTitle('7fbe747 u0 NavigationBar')).to.equal('NavigationBar')
    expect(windowTitle('com.android.systemui:6d67f78 u0 StatusBar type=2000 ')).to.equal('StatusBar')
    expect(windowTitle('5e6 u0 PopupWindow:1a2b3c')).to.equal('PopupWindow:1a2b3c')
    expect(windowTitle('garbage')).to.equal(undefined)
    expect(windowTypeName('2011')).to.equal('INPUT_METHOD')
    expect(windowTypeName('9999')).to.equal('TYPE_9999')
    expect(windowTypeName('STATUS_BAR')).to.equal('STATUS_BAR')
  })
})
