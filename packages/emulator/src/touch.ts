/**
 * Where a touch goes. Android's input dispatcher hands a touch to the topmost touchable window whose touchable
 * region holds the point (AOSP frameworks/native/services/inputflinger/dispatcher/InputDispatcher.cpp,
 * `findTouchedWindowAtLocked`, which walks the windows front to back); the views of the windows beneath never see
 * it. So a tap on the keyboard's area is the keyboard's, even where an edit field of the app lies under it.
 *
 * The device stacks the dump's windows by what it knows of them: the layers of a `<displays>` dump's `<window>`s,
 * else the recorded window list's order (meta.json `windowManager`, topmost first), else its own window list's
 * layers (window-list.ts: keyboard above the bars' shade above the app). A window's touchable region is its
 * top-level view's bounds (an input method window's frame is the whole screen, but it makes only its keys touchable
 * through its insets, AOSP `InputMethodService.onComputeInsets`).
 *
 * A recorded window list may hold windows the dump lacks (a plain dump holds only the active window) and windows
 * that take no touch. A window with FLAG_NOT_TOUCHABLE is passed over, its root's views never see a touch (AOSP
 * InputDispatcher.cpp `windowAcceptsTouchAt`: a NOT_TOUCHABLE window is skipped); a shown, touchable window without
 * a root in the dump (a picture-in-picture video above the app) takes a touch in its frame, and the dump's windows
 * beneath it see nothing.
 */
import {contains, isKeyboardRoot} from './screen-dump.js'
import {deviceWindows, type WindowedScreen} from './window-list.js'

/** The dump's windows on display 0 that can take a touch now, topmost first (indexes into `screen.dump.windows`). */
export function stackedWindows(device: WindowedScreen): number[] {
  const {dump} = device.screen
  const closed = (i: number) => device.keyboardDismissed && isKeyboardRoot(dump.windows[i]!)
  const shown = dump.windows.filter((w) => w.displayId === 0 && !closed(w.index))
  if (dump.listedWindows) {
    return shown
      .sort((a, b) => (b.listed?.layer ?? 0) - (a.listed?.layer ?? 0) || a.index - b.index)
      .map((w) => w.index)
  }
  const listed = deviceWindows(device)
  const rank = new Map<number, {layer: number; z: number; visible: boolean}>()
  for (const w of listed)
    if (w.root !== undefined)
      rank.set(w.root, {layer: device.screen.windowManager ? -w.z : w.layer, z: w.z, visible: w.visible})
  const untouchable = new Set(listed.filter((w) => w.touchable === false && w.root !== undefined).map((w) => w.root))
  // A root the recorded list lacks keeps its place below the listed ones, in dump order.
  return shown
    .filter((w) => rank.get(w.index)?.visible !== false && !untouchable.has(w.index))
    .sort((a, b) => {
      const ra = rank.get(a.index)
      const rb = rank.get(b.index)
      if (ra && rb) return rb.layer - ra.layer || ra.z - rb.z
      if (ra || rb) return ra ? -1 : 1
      return a.index - b.index
    })
    .map((w) => w.index)
}

/**
 * The dump window that takes a touch at (x, y), or undefined when none of them covers the point, or a window of the
 * recorded list that the dump lacks takes it above them.
 */
export function windowUnder(device: WindowedScreen, x: number, y: number): number | undefined {
  const {windows} = device.screen.dump
  const hit = stackedWindows(device).find((i) => contains(windows[i]!.bounds, x, y))
  if (device.screen.dump.listedWindows || !device.screen.windowManager) return hit
  const listed = deviceWindows(device)
  // A root the recorded list lacks lies below every listed window.
  const z = listed.find((w) => w.root === hit)?.z ?? Infinity
  const rootless = listed.find(
    (w) =>
      w.root === undefined &&
      w.z < z &&
      w.visible &&
      w.displayId === 0 &&
      w.touchable !== false &&
      w.frame !== undefined &&
      contains(w.frame, x, y)
  )
  return rootless ? undefined : hit
}
