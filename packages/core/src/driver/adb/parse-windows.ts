/**
 * The window manager's own list of windows, from `dumpsys window windows` (and the focus lines of
 * `dumpsys window displays` on Android 10+). The format drifts across releases (adb.md §3.6, the captures in
 * shared/fixtures/device-output): only the window header and key=value pairs are read, each with every form
 * seen from Android 7.1 to 15.
 */
import type {DeviceWindow, WindowManagerState} from '../device-driver.js'

/**
 * WindowManager.LayoutParams type numbers, as Android 7.1 and 8.1 print them (`ty=2019`); 9+ print the names.
 */
const TYPE_NAMES: Record<number, string> = {
  1: 'BASE_APPLICATION',
  2: 'APPLICATION',
  3: 'APPLICATION_STARTING',
  4: 'DRAWN_APPLICATION',
  1000: 'APPLICATION_PANEL',
  1001: 'APPLICATION_MEDIA',
  1002: 'APPLICATION_SUB_PANEL',
  1003: 'APPLICATION_ATTACHED_DIALOG',
  1004: 'APPLICATION_MEDIA_OVERLAY',
  1005: 'APPLICATION_ABOVE_SUB_PANEL',
  2000: 'STATUS_BAR',
  2001: 'SEARCH_BAR',
  2002: 'PHONE',
  2003: 'SYSTEM_ALERT',
  2004: 'KEYGUARD',
  2005: 'TOAST',
  2006: 'SYSTEM_OVERLAY',
  2007: 'PRIORITY_PHONE',
  2008: 'SYSTEM_DIALOG',
  2009: 'KEYGUARD_DIALOG',
  2010: 'SYSTEM_ERROR',
  2011: 'INPUT_METHOD',
  2012: 'INPUT_METHOD_DIALOG',
  2013: 'WALLPAPER',
  2014: 'STATUS_BAR_PANEL',
  2015: 'SECURE_SYSTEM_OVERLAY',
  2016: 'DRAG',
  2017: 'STATUS_BAR_SUB_PANEL',
  2018: 'POINTER',
  2019: 'NAVIGATION_BAR',
  2020: 'VOLUME_OVERLAY',
  2021: 'BOOT_PROGRESS',
  2022: 'INPUT_CONSUMER',
  2024: 'NAVIGATION_BAR_PANEL',
  2026: 'DISPLAY_OVERLAY',
  2027: 'MAGNIFICATION_OVERLAY',
  2029: 'KEYGUARD_SCRIM',
  2030: 'PRIVATE_PRESENTATION',
  2031: 'VOICE_INTERACTION',
  2032: 'ACCESSIBILITY_OVERLAY',
  2033: 'VOICE_INTERACTION_STARTING',
  2034: 'DOCK_DIVIDER',
  2035: 'QS_DIALOG',
  2036: 'SCREENSHOT',
  2037: 'PRESENTATION',
  2038: 'APPLICATION_OVERLAY',
  2039: 'ACCESSIBILITY_MAGNIFICATION_OVERLAY',
  2040: 'NOTIFICATION_SHADE',
  2041: 'STATUS_BAR_ADDITIONAL',
}

/** `ty=2019` → NAVIGATION_BAR; `ty=NAVIGATION_BAR` stays; an unknown number becomes `TYPE_<n>`. */
export function windowTypeName(value: string): string {
  if (!/^\d+$/.test(value)) return value
  return TYPE_NAMES[Number(value)] ?? `TYPE_${value}`
}

/** `Window #3 Window{7caf15c u0 com.foo/com.foo.Main}:`; vivo 14+: `Window{com.android.systemui:6d67f78 u0 StatusBar type=2000 }:` */
const HEADER = /^\s*Window #\d+ Window\{(.*)\}:\s*$/
const INNER = /^\S+ u\d+ (.*?)(?:\s+type=\d+)?\s*$/
const BOUNDS = String.raw`\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]`
const FRAME = new RegExp(String.raw`(?:\bmFrame=|\sframe=)${BOUNDS}`)

/** The title inside `Window{…}` (`com.foo/com.foo.Main`, `StatusBar`, `PopupWindow:1a2b3c`), or undefined. */
export function windowTitle(inner: string): string | undefined {
  const m = INNER.exec(inner.trim())
  return m ? (m[1] as string) : undefined
}

function field(block: string, pattern: RegExp): string | undefined {
  const m = pattern.exec(block)
  return m ? (m[1] as string) : undefined
}

/**
 * Visibility: `isVisible=` where the release prints it (8.1+); before that a window is shown when it has a
 * surface, its view is VISIBLE (0x0), policy does not hide it and its surface is not marked hidden.
 */
function isShown(block: string): boolean {
  const explicit = field(block, /\bisVisible=(true|false)/)
  if (explicit !== undefined) return explicit === 'true'
  return (
    /\bmHasSurface=true/.test(block) &&
    /\bmViewVisibility=0x0\b/.test(block) &&
    !/\bmPolicyVisibility=false/.test(block) &&
    !/Surface: shown=false/.test(block)
  )
}

/** FLAG_NOT_TOUCHABLE's bit, as Android 7.1 and 8.1 print the flags (`fl=#10318`); 9+ print the names. */
const FLAG_NOT_TOUCHABLE = 0x10
const REGION = /\btouchable region=SkRegion\(((?:\(-?\d+,-?\d+,-?\d+,-?\d+\))*)\)/
const REGION_RECT = /\((-?\d+),(-?\d+),(-?\d+),(-?\d+)\)/g

/**
 * Whether the window takes touches, and where when it narrowed that itself. The flags (`fl=`, the first one: the
 * window's own attributes; later ones are its per-rotation variants) are printed on every release, as names from 9
 * on (`fl=NOT_FOCUSABLE NOT_TOUCHABLE …`) and as a hex number before (`fl=#1000518`). `touchable region=` is
 * printed only where the window gave touchable insets (AOSP WindowState.dump, from getTouchableRegion: screen
 * pixels), and an empty one (`SkRegion()`) takes nothing: the taskbar and the corner overlays of Android 14/15.
 */
function touchability(block: string): Pick<DeviceWindow, 'touchable' | 'touchableRegion'> {
  const flags = /\bfl=(#[0-9a-fA-F]+|[A-Z_ ]*)/.exec(block)?.[1]
  const notTouchable =
    flags === undefined
      ? undefined
      : flags.startsWith('#')
        ? (Number.parseInt(flags.slice(1), 16) & FLAG_NOT_TOUCHABLE) !== 0
        : /\bNOT_TOUCHABLE\b/.test(flags)
  const region = REGION.exec(block)
  const rects = region
    ? [...(region[1] as string).matchAll(REGION_RECT)].map(
        (m) => [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number]
      )
    : undefined
  if (notTouchable === true || rects?.length === 0) return {touchable: false}
  return {
    ...(notTouchable === undefined && rects === undefined ? {} : {touchable: true}),
    ...(rects ? {touchableRegion: rects} : {}),
  }
}

function parseBlock(header: string, block: string, z: number): DeviceWindow | undefined {
  const title = windowTitle(header)
  if (title === undefined) return undefined
  const type = field(block, /\bty=(\w+)/)
  const frame = FRAME.exec(block)
  const window: DeviceWindow = {
    title,
    type: type === undefined ? 'UNKNOWN' : windowTypeName(type),
    z,
    layer: Number(field(block, /\bmBaseLayer=(\d+)/) ?? 0),
    displayId: Number(field(block, /\bmDisplayId=(\d+)/) ?? 0),
    visible: isShown(block),
  }
  const pkg = field(block, /\bpackage=([\w.]+)/)
  if (pkg) window.package = pkg
  if (frame) window.frame = [Number(frame[1]), Number(frame[2]), Number(frame[3]), Number(frame[4])]
  return {...window, ...touchability(block)}
}

/**
 * Every window block of `dumpsys window windows`, in the order listed: topmost first on every release (7.1
 * numbers them from the top down, `Window #9` first; 9+ from `Window #0`). `z` is that position.
 */
export function parseWindowList(output: string): DeviceWindow[] {
  const lines = output.replace(/^\uFEFF/, '').split(/\r?\n/)
  const windows: DeviceWindow[] = []
  let i = 0
  while (i < lines.length) {
    const m = HEADER.exec(lines[i] as string)
    if (!m) {
      i++
      continue
    }
    const body: string[] = []
    i++
    // The block is every more-indented line up to the next header or a section line (indent of 2 or less).
    while (i < lines.length && !HEADER.test(lines[i] as string) && !/^\s{0,2}\S/.test(lines[i] as string)) {
      body.push(lines[i] as string)
      i++
    }
    const window = parseBlock(m[1] as string, body.join('\n'), windows.length)
    if (window) windows.push(window)
  }
  return windows
}

/**
 * The focused window's title: `mCurrentFocus=Window{62aba15 u0 com.foo/com.foo.Main}`, closing the windows
 * section up to 9 and in each display's block of `dumpsys window displays` from 10. With several displays the
 * one named by `mTopFocusedDisplayId` wins; `mCurrentFocus=null` (a transition) gives undefined.
 */
export function parseFocusedWindow(output: string): string | undefined {
  const text = output.replace(/\r\n/g, '\n')
  const focuses: Array<{display: number; title: string}> = []
  let display = 0
  for (const line of text.split('\n')) {
    const d = /^\s*Display: mDisplayId=(\d+)/.exec(line)
    if (d) display = Number(d[1])
    const f = /^\s*mCurrentFocus=Window\{(.*)\}\s*$/.exec(line)
    if (f) {
      const title = windowTitle(f[1] as string)
      if (title !== undefined) focuses.push({display, title})
    }
  }
  const top = /mTopFocusedDisplayId=(\d+)/.exec(text)
  const wanted = top ? Number(top[1]) : 0
  return (focuses.find((f) => f.display === wanted) ?? focuses[0])?.title
}

/** Both parsed together: the windows list and the focus (from either output). */
export function parseWindowManager(windowsOutput: string, displaysOutput = ''): WindowManagerState {
  const state: WindowManagerState = {windows: parseWindowList(windowsOutput)}
  const focus = parseFocusedWindow(displaysOutput) ?? parseFocusedWindow(windowsOutput)
  if (focus !== undefined) state.focus = focus
  return state
}
