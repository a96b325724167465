/**
 * What covers an app (the on-screen keyboard, the system bars) and what it leaves free: where a scroll may swipe
 * (the screen, or a scrollable element's visible part, less what covers it), so a swipe never starts on a key or
 * the navigation bar; and the part of an app's element a tap can reach (reachableRect), for the same reason. In the
 * core, since every point arc offers for a tap comes from here: the element tools' touch point (src/tools) and
 * compact screen-state's `@x,y` (plugin screen-state) are one point.
 */
import type {DeviceWindow, WindowManagerState} from '../driver/device-driver.js'
import type {ScreenElement, ScreenModel, ScreenWindow} from './screen-model.js'
import {areaOf, intersect, visibleRect, type Rect} from './visible-rect.js'
import {matchWindows} from './window-metadata.js'

/** Window-manager types that cover an app: the keyboard and the system bars. */
const COVERING = new Set([
  'INPUT_METHOD',
  'INPUT_METHOD_DIALOG',
  'STATUS_BAR',
  'NAVIGATION_BAR',
  'NAVIGATION_BAR_PANEL',
])
/** A window-manager frame of the keyboard larger than this share of the screen is not where its keys are (below). */
const MAX_IME_FRAME_SHARE = 0.6
/**
 * A bar window larger than this share of the screen is not a bar: up to Android 11 the pulled-down notification
 * shade and the lock screen are drawn in the status bar's window, which then fills the screen. That is what the
 * screen shows, so a plain scroll scrolls it; an app's element under it is still covered.
 */
const MAX_BAR_SHARE = 0.6
/**
 * SystemUI's rounded-corner and cutout overlays (`ScreenDecorOverlay`, `ScreenDecorOverlayBottom`…, typed
 * NAVIGATION_BAR_PANEL) only draw the corners and let touches through: they cover nothing.
 */
const DECORATION = /^ScreenDecor/

/** What the free area is for: a whole-screen scroll (an expanded bar is the content) or an app's element. */
export type CoverPurpose = 'screen' | 'app'

type Size = {width: number; height: number}

/**
 * A dump window that covers the app: the keyboard, a bar by the window manager's word, or (a recorded dump
 * without it) a system window along one edge of the screen thinner than a quarter of it.
 */
function covers(window: ScreenWindow, screen: Size, purpose: CoverPurpose): boolean {
  if (window.type === 'INPUT_METHOD') return true
  if (window.title !== undefined && DECORATION.test(window.title)) return false
  if (purpose === 'screen' && tooLarge(window.root.bounds, screen, MAX_BAR_SHARE)) return false
  if (window.deviceType !== undefined) return COVERING.has(window.deviceType)
  if (window.type !== 'SYSTEM') return false
  const [l, t, r, b] = window.root.bounds
  const alongTopOrBottom = (t <= 0 || b >= screen.height) && b - t < screen.height / 4
  const alongSide = (l <= 0 || r >= screen.width) && r - l < screen.width / 4
  return alongTopOrBottom || alongSide
}

const isKeyboard = (w: DeviceWindow) => w.type.startsWith('INPUT_METHOD')
/** A frame that is most of the screen (older releases give the input method one and draw the keys at its bottom). */
const tooLarge = (frame: Rect, screen: Size, share = MAX_IME_FRAME_SHARE) =>
  areaOf(frame) > share * screen.width * screen.height
/**
 * The window manager's shown keyboard and bars on the default display, less the corner overlays and, for a
 * whole-screen scroll, a bar that fills most of the screen (an expanded shade: the content itself).
 */
const coveringWindows = (wm: WindowManagerState | undefined, screen: Size, purpose: CoverPurpose) =>
  (wm?.windows ?? []).filter(
    (w) =>
      w.visible &&
      w.displayId === 0 &&
      COVERING.has(w.type) &&
      !DECORATION.test(w.title) &&
      !(purpose === 'screen' && !isKeyboard(w) && w.frame !== undefined && tooLarge(w.frame, screen, MAX_BAR_SHARE))
  )

/**
 * The dump's windows stacked above `window` on its display (a higher layer), but the corner overlays. A touch where
 * one of them is goes to it, never to `window`: the input dispatcher hands a touch to the topmost touchable window
 * that holds the point (AOSP InputDispatcher.cpp `findTouchedWindowAtLocked`), and the windows a dump lists are the
 * touchable ones (AOSP AccessibilityController.java `windowMattersToAccessibility` skips FLAG_NOT_TOUCHABLE
 * windows). So a suggestions dropdown, a popup menu, a bubble or an edge panel over an app covers what it lies on.
 */
function windowsAbove(model: ScreenModel, window: ScreenWindow): ScreenWindow[] {
  return model.windows.filter(
    (w) =>
      w !== window &&
      w.display === window.display &&
      w.layer > window.layer &&
      !(w.title !== undefined && DECORATION.test(w.title))
  )
}

/**
 * Whether `above` (a window stacked over `window`) takes every touch on `window`, not only those on its own bounds:
 * an app's window holding the input focus (a dialog, a spinner's or overflow menu's popup) is touch-modal. AOSP
 * InputDispatcher.cpp `windowAcceptsTouchAt` gives a touch to a window that is focusable and lacks
 * FLAG_NOT_TOUCH_MODAL wherever its touchable region lies, and WindowState.getTouchableRegion makes a modal window's
 * region its task's bounds: a tap beside the dialog reaches the dialog (AlertDialog cancels on it), never the app
 * under it. Only where the device said which window has the focus (a non-focusable popup, an autocomplete dropdown,
 * leaves the focus on the app and covers its own bounds alone), and only over the same app's window: another task's
 * bounds (a picture-in-picture video's, a permission dialog's activity) are not known here, so such a window covers
 * its own bounds, as before.
 */
function takesAllTouches(model: ScreenModel, above: ScreenWindow, window: ScreenWindow): boolean {
  return (
    model.focusKnown === true &&
    above.focused &&
    above.type === 'APPLICATION' &&
    window.type === 'APPLICATION' &&
    above.pkg !== '' &&
    above.pkg === window.pkg
  )
}

/**
 * Where `w` takes the touches meant for `window` beneath it: all of `window` when `w` is stacked above it and
 * touch-modal (takesAllTouches), else `w`'s own bounds.
 */
function takenArea(model: ScreenModel, w: ScreenWindow, window: ScreenWindow, above: ScreenWindow[]): Rect {
  const modal = above.includes(w) && takesAllTouches(model, w, window)
  return [...(modal ? window : w).root.bounds] as Rect
}

/** A window's frame or touchable region, as rectangles: where it takes a touch. */
const touchRects = (w: DeviceWindow): Rect[] =>
  w.touchableRegion && w.touchableRegion.length > 0
    ? w.touchableRegion.map((r) => [...r] as Rect)
    : w.frame
      ? [[...w.frame] as Rect]
      : []

/**
 * A window the window manager shows that takes touches over part of display 0: visible, framed, not FLAG_NOT_TOUCHABLE
 * nor an empty touchable region (a blue-light filter, a toast pass touches through: AOSP InputDispatcher.cpp
 * `windowAcceptsTouchAt` skips a NOT_TOUCHABLE window and one whose touchable region lacks the point), no corner
 * overlay, no keyboard or bar (those are counted apart), nor a window over most of the screen: that is what the screen
 * shows (the lock screen, a pulled-down shade, a starting app), which the dump is of.
 */
function takesTouches(w: DeviceWindow, screen: Size): boolean {
  return (
    w.visible &&
    w.displayId === 0 &&
    w.touchable !== false &&
    w.frame !== undefined &&
    areaOf(w.frame) > 0 &&
    w.type !== 'WALLPAPER' &&
    !COVERING.has(w.type) &&
    !DECORATION.test(w.title) &&
    !tooLarge(w.frame, screen, MAX_BAR_SHARE)
  )
}

/**
 * The windows the window manager stacks above `window` (the dump window of an element or list) that the dump does
 * not list, where they take touches: on a device whose dump holds only the active window (uiautomator without
 * `--windows`, the helper off), a picture-in-picture video, a bubble or another app's floating window above the app.
 * Empty without a window list, or where `window` is none of its windows (nothing to stack them against).
 */
function unlistedAbove(model: ScreenModel, window: ScreenWindow): DeviceWindow[] {
  const wm = model.windowManager
  if (!wm || window.display !== 0) return []
  const matched = matchWindows(
    model.windows.map((w) => w.root),
    wm
  )
  const own = matched[model.windows.indexOf(window)]
  if (!own) return []
  const listed = new Set(matched)
  return wm.windows.filter((w) => w.z < own.z && !listed.has(w) && takesTouches(w, model.screen))
}

/**
 * What a plain scroll must not start on: the windows the window manager stacks above the focused one (the window the
 * user works in) that take touches, a picture-in-picture video or a bubble over the app. Empty without a focus.
 */
export function windowsOverFocus(wm: WindowManagerState | undefined, screen: Size): DeviceWindow[] {
  const focused = wm?.focus === undefined ? undefined : wm.windows.find((w) => w.title === wm.focus)
  if (!wm || !focused || focused.displayId !== 0) return []
  return wm.windows.filter((w) => w.z < focused.z && takesTouches(w, screen))
}

/** A window-manager window as a refusal names it: its title, package, type and where it takes touches. */
export function windowCover(w: DeviceWindow): Cover {
  const rects = touchRects(w)
  const rect: Rect = [
    Math.min(...rects.map((r) => r[0])),
    Math.min(...rects.map((r) => r[1])),
    Math.max(...rects.map((r) => r[2])),
    Math.max(...rects.map((r) => r[3])),
  ]
  return {name: w.title, ...(w.package ? {pkg: w.package} : {}), type: w.type, rect}
}

/** Where the windows take touches, each rectangle of each. */
export const windowRects = (windows: DeviceWindow[]): Rect[] => windows.flatMap(touchRects)

/**
 * What covers the app: the keyboard and bars of the dump (their roots' bounds: what they draw), and the frames of
 * the bars the window manager lists as visible (the same rectangles again where the dump has them, and the ones it
 * lacks). A keyboard frame is used only when the dump has no keyboard and the frame is not most of the screen:
 * older releases give the input method a near full-screen frame of which the keys take the bottom part. With
 * `under` (the window of the element to touch or swipe in), every other window the dump stacks above that one
 * covers it too.
 */
export function coveringRects(model: ScreenModel, purpose: CoverPurpose = 'app', under?: ScreenWindow): Rect[] {
  const {screen} = model
  const above = under === undefined ? [] : windowsAbove(model, under)
  const rects: Rect[] = model.windows
    .filter((w) => covers(w, screen, purpose) || above.includes(w))
    .map((w) => (under === undefined ? ([...w.root.bounds] as Rect) : takenArea(model, w, under, above)))
  const dumpHasKeyboard = model.windows.some((w) => w.type === 'INPUT_METHOD')
  for (const w of coveringWindows(model.windowManager, screen, purpose)) {
    if (!w.frame) continue
    if (isKeyboard(w) && (dumpHasKeyboard || tooLarge(w.frame, screen))) continue
    rects.push([...w.frame] as Rect)
  }
  if (under) rects.push(...windowRects(unlistedAbove(model, under)))
  return rects
}

/**
 * What covers the app by the window manager's word alone (no dump): the frames of the shown keyboard and bars.
 * Undefined when that cannot be told without the dump: no window list, a shown keyboard or bar without a frame,
 * or a shown keyboard whose frame is most of the screen (where its keys are is then in the dump only).
 */
export function windowManagerRects(
  wm: WindowManagerState | undefined,
  screen: Size,
  purpose: CoverPurpose = 'screen'
): Rect[] | undefined {
  if (!wm || wm.windows.length === 0) return undefined
  const rects: Rect[] = []
  for (const w of coveringWindows(wm, screen, purpose)) {
    if (!w.frame || (isKeyboard(w) && tooLarge(w.frame, screen))) return undefined
    rects.push([...w.frame] as Rect)
  }
  return rects
}

/**
 * `base` less every rectangle in `covered`: where one overlaps, the largest of the four parts of `base` beside it
 * (above, below, left, right) is kept: a keyboard along the bottom leaves what is above it.
 */
export function freeArea(base: Rect, covered: Rect[]): Rect {
  let area = base
  for (const c of covered) {
    const o = intersect(area, c)
    if (areaOf(o) === 0) continue
    const parts: Rect[] = [
      [area[0], area[1], area[2], o[1]],
      [area[0], o[3], area[2], area[3]],
      [area[0], area[1], o[0], area[3]],
      [o[2], area[1], area[2], area[3]],
    ]
    area = parts.reduce((best, p) => (areaOf(p) > areaOf(best) ? p : best))
  }
  return area
}

/**
 * The part of an element a touch can reach: its visible part less the keyboard and bars drawn over the app and
 * every other window stacked above the element's own (a popup, a dropdown, a bubble: the largest piece they leave),
 * so a tap on a row behind the keys never lands on a key, nor one behind a dropdown on a suggestion. Elements of the
 * keyboard or a bar themselves are taken as they are. Undefined when nothing of it can be touched.
 */
export function reachableRect(element: ScreenElement, model: ScreenModel): Rect | undefined {
  const seen = visibleRect(element, model)
  if (!seen || element.window.type !== 'APPLICATION') return seen
  const free = freeArea(seen, coveringRects(model, 'app', element.window))
  return areaOf(free) > 0 ? free : undefined
}

/** What lies over part of an element and would take a tap there, as a refusal names it. */
export interface Cover {
  /** `the keyboard`, `the status bar`, or the window's title (`com.foo/com.foo.Main`, an app's label), else package. */
  name: string
  /** The window's package, when known. */
  pkg?: string
  /** The window's type: the window manager's where known (BASE_APPLICATION, INPUT_METHOD…), else the dump's. */
  type: string
  rect: Rect
}

const BAR_NAMES: Record<string, string> = {
  INPUT_METHOD: 'the keyboard',
  INPUT_METHOD_DIALOG: 'the keyboard',
  STATUS_BAR: 'the status bar',
  NAVIGATION_BAR: 'the navigation bar',
  NAVIGATION_BAR_PANEL: 'a navigation bar panel',
}

/**
 * What covers an app's element, each thing once, by name, where it overlaps the element's visible part: the windows
 * reachableRect takes away (the keyboard, the bars, every window stacked above the element's own). Empty for an
 * element of the keyboard or a bar, or one nothing covers.
 */
export function coversOver(element: ScreenElement, model: ScreenModel): Cover[] {
  const seen = visibleRect(element, model)
  if (!seen || element.window.type !== 'APPLICATION') return []
  return coversOverRect(seen, element.window, model)
}

/**
 * What covers `rect` of `window` (a list's visible part a scroll would swipe in, an element's for a tap), each thing
 * once, by name: the keyboard, the bars, and every window the dump stacks above `window`, where they overlap it.
 */
export function coversOverRect(rect: Rect, window: ScreenWindow, model: ScreenModel): Cover[] {
  const {screen} = model
  const over = (r: Rect) => areaOf(intersect(r, rect)) > 0
  const found: Cover[] = []
  const above = windowsAbove(model, window)
  for (const w of model.windows) {
    if (w === window || (!covers(w, screen, 'app') && !above.includes(w))) continue
    const bounds = [...w.root.bounds] as Rect
    // A touch-modal window above takes the touch wherever on `window` it falls; it is named by its own bounds.
    if (!over(takenArea(model, w, window, above))) continue
    const type = w.deviceType ?? w.type
    const bar = BAR_NAMES[type] ?? (w.type === 'INPUT_METHOD' ? 'the keyboard' : undefined)
    const name = bar ?? w.title ?? (above.includes(w) ? w.pkg : 'a system bar')
    found.push({name, ...(w.pkg ? {pkg: w.pkg} : {}), type, rect: bounds})
  }
  for (const w of unlistedAbove(model, window)) {
    const cover = windowCover(w)
    if (windowRects([w]).some(over)) found.push(cover)
  }
  for (const w of coveringWindows(model.windowManager, screen, 'app')) {
    if (!w.frame || !over(w.frame) || found.some((f) => f.type === w.type)) continue
    found.push({
      name: BAR_NAMES[w.type] ?? w.title,
      ...(w.package ? {pkg: w.package} : {}),
      type: w.type,
      rect: w.frame,
    })
  }
  return found
}

/**
 * Where a tap on an element lands on it: the centre of its reachable part (whole pixels, rounded down, so a 1 px wide
 * part gives its one column: a rectangle's right and bottom edges are outside it, as Android's Rect.contains has
 * them). Undefined when no part of it can be touched, and for an element of another display: `input tap` and arc's
 * helper put pointer events on the default display (AOSP InputShellCommand: a pointer source without `-d` goes to
 * DEFAULT_DISPLAY), where that window's coordinates name some other element.
 */
export function touchCentre(element: ScreenElement, model: ScreenModel): {x: number; y: number} | undefined {
  if (element.window.display !== 0) return undefined
  const r = reachableRect(element, model)
  return r && {x: Math.floor((r[0] + r[2]) / 2), y: Math.floor((r[1] + r[3]) / 2)}
}
