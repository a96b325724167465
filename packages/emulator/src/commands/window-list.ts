/**
 * `dumpsys window windows` for a virtual device: one block per window, in the Android 13 format real devices
 * print (shared/fixtures/device-output), topmost first. A snapshot that recorded the window manager's list
 * (meta.json `windowManager`) is served exactly as recorded; otherwise each top-level window of the dump is a
 * window whose type follows from what it is: the input method's package, SystemUI's bars and shade by their
 * place on the screen, the foreground app's activity, any other app's window; a wallpaper lies beneath.
 */
import {createHash} from 'node:crypto'

import type {DeviceWindow, UiNode} from '@arc-cli/core'

import {fullActivity, type VirtualDevice} from '../virtual-device.js'

/** A short stable hex id from a seed (the object ids `dumpsys window` prints). */
export function oid(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 7)
}

const IME = /inputmethod|keyboard|\.ime\b/i
/** A top-level window of the dump that is an input method's: the keyboard. */
export const isKeyboardRoot = (root: UiNode): boolean => IME.test(root.package)
const BASE_LAYERS: Record<string, number> = {
  NAVIGATION_BAR: 231000,
  STATUS_BAR: 171000,
  NOTIFICATION_SHADE: 171000,
  INPUT_METHOD: 141000,
  BASE_APPLICATION: 21000,
  APPLICATION: 21000,
  WALLPAPER: 11000,
}

function describeRoot(root: UiNode, device: VirtualDevice): {type: string; title: string} {
  const {height} = device.screen
  const [, top, , bottom] = root.bounds
  if (isKeyboardRoot(root)) return {type: 'INPUT_METHOD', title: 'InputMethod'}
  if (root.package === 'com.android.systemui') {
    if (top <= 0 && bottom < height / 4) return {type: 'STATUS_BAR', title: 'StatusBar'}
    if (bottom >= height && top > (height * 3) / 4) return {type: 'NAVIGATION_BAR', title: 'NavigationBar0'}
    return {type: 'NOTIFICATION_SHADE', title: 'NotificationShade'}
  }
  const {package: pkg, activity} = device.foreground
  if (root.package === pkg) return {type: 'BASE_APPLICATION', title: `${pkg}/${fullActivity(pkg, activity ?? '.MainActivity')}`}
  return {type: 'APPLICATION', title: root.package}
}

/**
 * The device's windows, topmost first (what `dumpsys window windows` lists). A keyboard a BACK closed stays listed,
 * not shown, as on a device.
 */
export function deviceWindows(device: VirtualDevice): DeviceWindow[] {
  const hidden = (type: string) => device.keyboardDismissed && type === 'INPUT_METHOD'
  const recorded = device.screen.windowManager
  if (recorded) return recorded.windows.map((w) => (hidden(w.type) ? {...w, visible: false} : w))
  const windows: DeviceWindow[] = device.screen.hierarchy.windows.map((root, z) => {
    const {type, title} = describeRoot(root, device)
    return {title, package: root.package, type, z, layer: BASE_LAYERS[type] ?? 21000, displayId: root.displayId ?? 0, visible: !hidden(type), frame: root.bounds}
  })
  const {width, height} = device.screen
  windows.push({
    title: 'com.android.systemui.wallpapers.ImageWallpaper',
    package: 'com.android.systemui',
    type: 'WALLPAPER',
    z: windows.length,
    layer: BASE_LAYERS.WALLPAPER as number,
    displayId: 0,
    visible: true,
    frame: [0, 0, width, height],
  })
  return windows
}

/** The focused window's title: the recorded focus, else the foreground app's window when it is shown. */
export function focusedTitle(device: VirtualDevice): string | undefined {
  const recorded = device.screen.windowManager
  if (recorded) return recorded.focus
  return deviceWindows(device).find((w) => w.type === 'BASE_APPLICATION')?.title
}

/**
 * The Android 13 text of the window list. `dumpAll` (`dumpsys window windows`, and the whole dump with `-a`) adds
 * the lines AOSP's `WindowState.dump` prints only then: the layer and token, the view visibility and the frames.
 */
export function windowListText(device: VirtualDevice, dumpAll = true): string[] {
  return deviceWindows(device).flatMap((w, i) => {
    const frame = w.frame ?? [0, 0, 0, 0]
    const box = `[${frame[0]},${frame[1]}][${frame[2]},${frame[3]}]`
    return [
      `  Window #${i} Window{${oid(`w${w.title}${i}`)} u0 ${w.title}}:`,
      `    mDisplayId=${w.displayId} rootTaskId=1 mSession=Session{${oid(`s${w.package}`)} 1234:u0a10080} mClient=android.os.BinderProxy@${oid(`c${i}`)}`,
      `    mOwnerUid=10080 showForAllUsers=false package=${w.package ?? 'android'} appop=NONE`,
      `    mAttrs={(0,0)(fillxfill) sim={adjust=pan} ty=${w.type} fmt=TRANSLUCENT`,
      '      fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR}',
      ...(dumpAll
        ? [
            `    mBaseLayer=${w.layer} mSubLayer=0    mToken=WindowToken{${oid(`t${i}`)} type=${w.type} android.os.BinderProxy@${oid(`b${i}`)}}`,
            `    mViewVisibility=${w.visible ? '0x0' : '0x8'} mHaveFrame=true mObscured=false`,
          ]
        : []),
      `    mHasSurface=${w.visible} isReadyForDisplay()=${w.visible} mWindowRemovalAllowed=false`,
      ...(dumpAll ? [`    Frames: parent=${box} display=${box} frame=${box} last=${box} insetsChanged=false`] : []),
      `    isOnScreen=${w.visible}`,
      `    isVisible=${w.visible}`,
    ]
  })
}
