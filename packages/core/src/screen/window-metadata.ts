/**
 * True window metadata: the dump's top-level windows matched to what the window manager reported at the
 * same moment (`ScreenCapture.windowManager`), so type, stacking order, title and focus come from the device
 * rather than from guesses about package names.
 */
import type {DeviceWindow, WindowManagerState} from '../driver/device-driver.js'
import type {DumpWindow, UiNode} from './ui-node.js'

/** The spec's window types (AccessibilityWindowInfo's). */
export type WindowType =
  'APPLICATION' | 'INPUT_METHOD' | 'SYSTEM' | 'ACCESSIBILITY_OVERLAY' | 'SPLIT_SCREEN_DIVIDER' | 'MAGNIFICATION_OVERLAY'

const ACCESSIBILITY_TYPES = new Set<string>([
  'APPLICATION',
  'INPUT_METHOD',
  'SYSTEM',
  'ACCESSIBILITY_OVERLAY',
  'SPLIT_SCREEN_DIVIDER',
  'MAGNIFICATION_OVERLAY',
])

/**
 * The type a `--windows` dump wrote (`AccessibilityWindowInfo.typeToString`: `TYPE_APPLICATION`…) as the spec's
 * type; a type outside the spec's list (`TYPE_WINDOW_CONTROL`, Android 13) or none is SYSTEM, the window's own
 * name staying in `deviceType`.
 */
export function dumpWindowType(written: string): WindowType {
  const name = written.replace(/^TYPE_/, '')
  return ACCESSIBILITY_TYPES.has(name) ? (name as WindowType) : 'SYSTEM'
}

/** Window-manager types Android's accessibility layer reports as APPLICATION windows besides the app range. */
const APP_LIKE = new Set(['PHONE', 'PRIORITY_PHONE', 'TOAST', 'APPLICATION_OVERLAY', 'SYSTEM_ALERT'])

/**
 * A window-manager type as an accessibility window type, the way Android classifies them: the application
 * range and app-owned overlays are APPLICATION, input-method windows INPUT_METHOD, the docked divider
 * SPLIT_SCREEN_DIVIDER, the two overlays by name, and everything else (bars, shade, keyguard) SYSTEM.
 */
export function accessibilityType(wmType: string): WindowType {
  if (wmType === 'INPUT_METHOD' || wmType === 'INPUT_METHOD_DIALOG') return 'INPUT_METHOD'
  if (wmType === 'ACCESSIBILITY_OVERLAY') return 'ACCESSIBILITY_OVERLAY'
  if (wmType === 'DOCK_DIVIDER') return 'SPLIT_SCREEN_DIVIDER'
  if (wmType === 'MAGNIFICATION_OVERLAY' || wmType === 'ACCESSIBILITY_MAGNIFICATION_OVERLAY')
    return 'MAGNIFICATION_OVERLAY'
  if (/APPLICATION/.test(wmType) && wmType !== 'APPLICATION_OVERLAY') return 'APPLICATION'
  if (APP_LIKE.has(wmType)) return 'APPLICATION'
  return 'SYSTEM'
}

type Box = [number, number, number, number]

function sameBox(a: Box, b: Box): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3]
}

function containsCentre(frame: Box, box: Box): boolean {
  const x = (box[0] + box[2]) / 2
  const y = (box[1] + box[3]) / 2
  return x >= frame[0] && x <= frame[2] && y >= frame[1] && y <= frame[3]
}

function score(window: DeviceWindow, root: UiNode): number {
  let s = window.visible ? 4 : 0
  if (window.frame && sameBox(window.frame, root.bounds)) s += 2
  else if (window.frame && containsCentre(window.frame, root.bounds)) s += 1
  return s
}

/**
 * For each dump root, the window-manager window it is: same package and display, the visible one whose frame
 * equals (else contains the centre of) the root's bounds, topmost on a tie; each window used once.
 * Undefined where nothing matches (the root is then described by the guess).
 */
export function matchWindows(roots: UiNode[], wm: WindowManagerState): Array<DeviceWindow | undefined> {
  const used = new Set<DeviceWindow>()
  return roots.map((root) => {
    let best: DeviceWindow | undefined
    let bestScore = -1
    for (const window of wm.windows) {
      if (used.has(window) || window.package !== root.package) continue
      if (window.displayId !== (root.displayId ?? 0)) continue
      const s = score(window, root)
      if (s > bestScore) {
        best = window
        bestScore = s
      }
    }
    if (best) used.add(best)
    return best
  })
}

/** Window types uiautomator's window list includes whenever they are shown. */
function expectedInDump(window: DeviceWindow): boolean {
  const type = accessibilityType(window.type)
  if (type !== 'SYSTEM') return type !== 'MAGNIFICATION_OVERLAY' && window.type !== 'APPLICATION_STARTING'
  return ['STATUS_BAR', 'NAVIGATION_BAR', 'NOTIFICATION_SHADE', 'KEYGUARD', 'SYSTEM_DIALOG', 'SYSTEM_ERROR'].includes(
    window.type
  )
}

function onScreen(window: DeviceWindow, screen: {width: number; height: number}): boolean {
  if (!window.frame) return true
  const [l, t, r, b] = window.frame
  return Math.min(r, screen.width) - Math.max(l, 0) > 0 && Math.min(b, screen.height) - Math.max(t, 0) > 0
}

/**
 * Windows the device showed that the dump lacks: visible, on the screen, of a type uiautomator dumps (apps,
 * input methods, bars, shade, keyguard, system dialogs), and matched to no root. Empty means the dump is whole,
 * even when it has a single window (a full-screen app).
 */
export function missingWindows(
  roots: UiNode[],
  wm: WindowManagerState,
  screen: {width: number; height: number}
): DeviceWindow[] {
  const matched = new Set(matchWindows(roots, wm).filter((w): w is DeviceWindow => w !== undefined))
  return wm.windows.filter(
    (w) => w.visible && w.displayId === 0 && expectedInDump(w) && onScreen(w, screen) && !matched.has(w)
  )
}

/**
 * Windows of the main display that a `--windows` dump listed without a tree: the device showed them but gave
 * their content to no one. The accessibility layer lists only the windows a user can interact with, so the app
 * behind a modal dialog is not missing: it is not listed.
 */
export function treelessWindows(listed: DumpWindow[]): DumpWindow[] {
  return listed.filter((w) => w.root === undefined && w.displayId === 0)
}
