/**
 * `dumpsys window windows` for a virtual device: one block per window, in the Android 13 format real devices
 * print (shared/fixtures/device-output), topmost first. A snapshot that recorded the window manager's list
 * (meta.json `windowManager`) is served exactly as recorded; otherwise each top-level window of the dump is a
 * window whose type follows from what it is: the input method's package, SystemUI's bars and shade by their
 * place on the screen, the foreground app's activity, any other app's window; a wallpaper lies beneath.
 */
import {createHash} from 'node:crypto'

import {fullActivity} from './activity-names.js'
import {isKeyboardRoot, type ScreenWindow} from './screen-dump.js'
import type {LoadedScreen, RecordedWindow} from './snapshot-screen.js'

/**
 * What the window list is made of: the screen shown, whether a BACK closed its keyboard, and the app in front.
 * The virtual device is one; taking only this keeps the list below the device model, which reads it.
 */
export interface WindowedScreen {
  readonly screen: LoadedScreen
  readonly keyboardDismissed: boolean
  readonly foreground: {package?: string; activity?: string}
}

/** A window of the device's list, with the dump's top-level window that draws it (`root`), when one does. */
export interface DeviceWindow extends RecordedWindow {
  root?: number
}

/** A short stable hex id from a seed (the object ids `dumpsys window` prints). */
export function oid(seed: string): string {
  return createHash('sha1').update(seed).digest('hex').slice(0, 7)
}

const BASE_LAYERS: Record<string, number> = {
  NAVIGATION_BAR: 231000,
  STATUS_BAR: 171000,
  NOTIFICATION_SHADE: 171000,
  INPUT_METHOD: 141000,
  BASE_APPLICATION: 21000,
  APPLICATION: 21000,
  WALLPAPER: 11000,
}

function describeRoot(root: ScreenWindow, device: WindowedScreen): {type: string; title: string} {
  const {height} = device.screen
  const [, top, , bottom] = root.bounds
  if (isKeyboardRoot(root)) return {type: 'INPUT_METHOD', title: 'InputMethod'}
  if (root.package === 'com.android.systemui') {
    if (top <= 0 && bottom < height / 4) return {type: 'STATUS_BAR', title: 'StatusBar'}
    if (bottom >= height && top > (height * 3) / 4) return {type: 'NAVIGATION_BAR', title: 'NavigationBar0'}
    return {type: 'NOTIFICATION_SHADE', title: 'NotificationShade'}
  }
  const {package: pkg, activity} = device.foreground
  if (root.package === pkg)
    return {type: 'BASE_APPLICATION', title: `${pkg}/${fullActivity(pkg, activity ?? '.MainActivity')}`}
  return {type: 'APPLICATION', title: root.package}
}

/**
 * The device's windows, topmost first (what `dumpsys window windows` lists). A keyboard a BACK closed stays listed,
 * not shown, as on a device.
 */
export function deviceWindows(device: WindowedScreen): DeviceWindow[] {
  const hidden = (type: string) => device.keyboardDismissed && type === 'INPUT_METHOD'
  const recorded = device.screen.windowManager
  if (recorded) {
    const roots = recordedRoots(device.screen.dump.windows, recorded.windows)
    return recorded.windows.map((w, i) => {
      const root = roots.get(i)
      return {...w, ...(hidden(w.type) ? {visible: false} : {}), ...(root === undefined ? {} : {root})}
    })
  }
  const windows: DeviceWindow[] = device.screen.dump.windows.map((root, z) => {
    const {type, title} = describeRoot(root, device)
    return {
      title,
      package: root.package,
      type,
      z,
      layer: BASE_LAYERS[type] ?? 21000,
      displayId: root.displayId,
      visible: !hidden(type),
      frame: root.bounds,
      root: root.index,
    }
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

/**
 * Which recorded window each top-level window of the dump draws (recorded index → dump window index): the first
 * shown window of the same display and package whose frame is the root's bounds, else one whose frame holds them,
 * else the first of that package; the keyboard's root goes to the INPUT_METHOD window.
 */
function recordedRoots(roots: ScreenWindow[], windows: RecordedWindow[]): Map<number, number> {
  const taken = new Map<number, number>()
  const same = (a?: number[], b?: number[]) => a !== undefined && b !== undefined && a.every((v, i) => v === b[i])
  const holds = (f: number[] | undefined, b: number[]) =>
    f !== undefined && f[0]! <= b[0]! && f[1]! <= b[1]! && f[2]! >= b[2]! && f[3]! >= b[3]!
  for (const root of roots) {
    const keyboard = isKeyboardRoot(root)
    const free = windows
      .map((w, i) => ({w, i}))
      .filter(
        ({w, i}) =>
          !taken.has(i) &&
          w.visible &&
          w.displayId === root.displayId &&
          (keyboard ? w.type === 'INPUT_METHOD' : w.package === root.package)
      )
    const pick =
      free.find(({w}) => same(w.frame, root.bounds)) ?? free.find(({w}) => holds(w.frame, root.bounds)) ?? free[0]
    if (pick) taken.set(pick.i, root.index)
  }
  return taken
}

/** The focused window's title: the recorded focus, else the foreground app's window when it is shown. */
export function focusedTitle(device: WindowedScreen): string | undefined {
  const recorded = device.screen.windowManager
  if (recorded) return recorded.focus
  return deviceWindows(device).find((w) => w.type === 'BASE_APPLICATION')?.title
}

/**
 * A window's flags line as `WindowManager.LayoutParams.toString` names them (AOSP: in bit order, so NOT_TOUCHABLE,
 * 0x10, comes before LAYOUT_IN_SCREEN, 0x100): a window that takes no touch says NOT_TOUCHABLE, as a blue-light
 * filter or a toast does in ../shared/fixtures/device-output/dumpsys-window-windows.
 */
const flags = (w: DeviceWindow) =>
  `fl=${w.touchable === false ? 'NOT_TOUCHABLE ' : ''}LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR`

/**
 * The Android 9 text of the window list (API 28 and older), as the capture
 * ../shared/fixtures/device-output/dumpsys-window/emulator-sdk_gphone_x86-android9.txt prints it: `stackId=` on the
 * display line, the layer line with `mAnimLayer=0+=0 mLastLayer=0`, the token on a line of its own, `mFrame=` and
 * the multi-line frames. `dumpsys window windows` prints every line on Android 9 whether or not `-a` is given.
 */
export function windowListText9(device: WindowedScreen): string[] {
  return deviceWindows(device).flatMap((w, i) => {
    const frame = w.frame ?? [0, 0, 0, 0]
    const box = `[${frame[0]},${frame[1]}][${frame[2]},${frame[3]}]`
    return [
      `  Window #${i} Window{${oid(`w${w.title}${i}`)} u0 ${w.title}}:`,
      `    mDisplayId=${w.displayId} stackId=0 mSession=Session{${oid(`s${w.package}`)} 1999:u0a10029} mClient=android.os.BinderProxy@${oid(`c${i}`)}`,
      `    mOwnerUid=10029 mShowToOwnerOnly=false package=${w.package ?? 'android'} appop=NONE`,
      `    mAttrs={(0,0)(fillxfill) sim={adjust=pan} ty=${w.type} fmt=TRANSLUCENT`,
      `      ${flags(w)}}`,
      `    Requested w=${frame[2] - frame[0]} h=${frame[3] - frame[1]} mLayoutSeq=166`,
      `    mBaseLayer=${w.layer} mSubLayer=0 mAnimLayer=0+=0 mLastLayer=0`,
      `    mToken=WindowToken{${oid(`t${i}`)} android.os.BinderProxy@${oid(`b${i}`)}}`,
      `    mViewVisibility=${w.visible ? '0x0' : '0x8'} mHaveFrame=true mObscured=false`,
      `    mHasSurface=${w.visible} isReadyForDisplay()=${w.visible} mWindowRemovalAllowed=false`,
      `    mFrame=${box} last=${box}`,
      `    Frames: containing=${box} parent=${box}`,
      `        display=${box} overscan=${box}`,
      `        content=${box} visible=${box}`,
      '        decor=[0,0][0,0]',
      `    isOnScreen=${w.visible}`,
      `    isVisible=${w.visible}`,
    ]
  })
}

/**
 * The Android 13 text of the window list. `dumpAll` (`dumpsys window windows`, and the whole dump with `-a`) adds
 * the lines AOSP's `WindowState.dump` prints only then: the layer and token, the view visibility and the frames.
 */
export function windowListText(device: WindowedScreen, dumpAll = true): string[] {
  return deviceWindows(device).flatMap((w, i) => {
    const frame = w.frame ?? [0, 0, 0, 0]
    const box = `[${frame[0]},${frame[1]}][${frame[2]},${frame[3]}]`
    return [
      `  Window #${i} Window{${oid(`w${w.title}${i}`)} u0 ${w.title}}:`,
      `    mDisplayId=${w.displayId} rootTaskId=1 mSession=Session{${oid(`s${w.package}`)} 1234:u0a10080} mClient=android.os.BinderProxy@${oid(`c${i}`)}`,
      `    mOwnerUid=10080 showForAllUsers=false package=${w.package ?? 'android'} appop=NONE`,
      `    mAttrs={(0,0)(fillxfill) sim={adjust=pan} ty=${w.type} fmt=TRANSLUCENT`,
      `      ${flags(w)}}`,
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
