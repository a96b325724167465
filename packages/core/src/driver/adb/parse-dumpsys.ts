/**
 * Rotation and the foreground app from `dumpsys window displays` (Android 10+), `dumpsys window windows`
 * (older) and `dumpsys activity activities` (the last resort). Their formats drift between releases, so each
 * fact has several patterns, tried in order (adb.md §3.4-3.5).
 */
import type {Foreground, ScreenInfo} from '../device-driver.js'
import {displayBlock} from './parse-display.js'

type Rotation = ScreenInfo['rotation']

const ROTATIONS: Array<[RegExp, (m: RegExpExecArray) => number]> = [
  [/mCurrentRotation=(?:ROTATION_)?(\d+)/, (m) => Number(m[1])],
  [/\bmRotation=(?:ROTATION_)?(\d+)/, (m) => Number(m[1])],
  [/SurfaceOrientation:\s*(\d)/, (m) => Number(m[1])],
  [/DisplayViewport\{[^}]*?orientation=(\d)/, (m) => Number(m[1])],
]

/** The display rotation (0-3), or undefined when the output has none. `ROTATION_90` means 1. */
export function parseRotation(output: string): Rotation | undefined {
  for (const [pattern, read] of ROTATIONS) {
    const m = pattern.exec(output)
    if (!m) continue
    let value = read(m)
    if (value >= 90) value /= 90
    if (value === 0 || value === 1 || value === 2 || value === 3) return value
  }
  return undefined
}

/** `com.foo/.Main` → `.Main`; `com.foo/com.foo.Main` → `.Main`; `com.foo/com.bar.Main` stays fully qualified. */
export function shortActivity(pkg: string, activity: string): string {
  if (activity.startsWith('.')) return activity
  return activity.startsWith(`${pkg}.`) ? activity.slice(pkg.length) : activity
}

const COMPONENT = String.raw`([A-Za-z][\w.]*)\/([\w.$]+)`
const FOREGROUND: RegExp[] = [
  // Android 10+: mFocusedApp=ActivityRecord{c0ad5d7 u0 com.android.settings/.Settings t12}
  // older: mFocusedApp=AppWindowToken{… token=Token{… ActivityRecord{… u0 pkg/.Act t12}}}
  new RegExp(String.raw`mFocusedApp=.*?ActivityRecord\{[^}]*?\s${COMPONENT}[\s}]`),
  // dumpsys activity: topResumedActivity=, mResumedActivity:, ResumedActivity:, mFocusedActivity:
  new RegExp(
    String.raw`(?:topResumedActivity=|mResumedActivity[:=]\s*|ResumedActivity:\s*|mFocusedActivity:\s*)ActivityRecord\{[^}]*?\s${COMPONENT}[\s}]`
  ),
  // the focused window, when it is an activity's: mCurrentFocus=Window{4f1c2a5 u0 com.foo/com.foo.Main}
  new RegExp(String.raw`mCurrentFocus=Window\{[^}]*?\s${COMPONENT}\}`),
]

/**
 * Where the window manager names the focused app of the display arc reads (display 0): from Android 10 the
 * displays section prints `mCurrentFocus=`/`mFocusedApp=` in each display's block, and lists the displays in its
 * own order (display 0 last on some multi-display devices, after a car cluster's, an emulator's extra screens or a
 * virtual display), so only display 0's block counts; up to 9 the lines close the windows section, once.
 */
export function focusSection(displays: string, windows: string): string {
  if (!/mFocusedApp|mCurrentFocus/.test(displays)) return windows
  return displayBlock(displays, 0) ?? displays
}

/** The foreground package and activity, or `{}` when no pattern matches (a transition, a locked screen). */
export function parseForeground(output: string): Foreground {
  for (const pattern of FOREGROUND) {
    const m = pattern.exec(output)
    if (m) return {package: m[1], activity: shortActivity(m[1] as string, m[2] as string)}
  }
  return {}
}
