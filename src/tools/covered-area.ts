/**
 * Where a scroll swipes: the free area (what the keyboard, the bars and any other window stacked above the list's
 * own leave, core's covered-area.ts) and the swipe inside it, so a swipe never starts on a key, the navigation bar
 * or a popup, picture-in-picture video or bubble above the list: a phone gives the whole gesture to the window under
 * its first point (AOSP InputDispatcher.cpp `findTouchedWindowAtLocked` picks it on ACTION_DOWN, and the moves
 * follow it there), so a swipe starting on that window would move or scroll it, never the list.
 */
import type {Cover, Rect} from '@arc-cli/core'

export {
  coveringRects,
  coversOverRect,
  freeArea,
  reachableRect,
  windowCover,
  windowManagerRects,
  windowRects,
  windowsOverFocus,
  type Cover,
  type CoverPurpose,
} from '@arc-cli/core'

const shown = (r: readonly number[]) => `[${r[0]},${r[1]}][${r[2]},${r[3]}]`

/**
 * What covers a target, as a refusal names it: `the keyboard [0,1500][1080,2400]`, `"PopupWindow:1a2b" (com.foo)
 * [0,330][1080,1300]`; undefined when nothing is known to cover it.
 */
export function namedCovers(over: Cover[]): string | undefined {
  if (over.length === 0) return undefined
  return over
    .map((c) => {
      const bar = c.name.startsWith('the ')
      const pkg = c.pkg && c.pkg !== c.name && !bar ? ` (${c.pkg})` : ''
      return `${bar ? c.name : JSON.stringify(c.name)}${pkg} ${shown(c.rect)}`
    })
    .join(', ')
}

/**
 * Who leaves a list no room to swipe in, for a refusal, with its verb: the covers by name (`the keyboard
 * [0,1500][1080,2400] leaves`), else the keyboard and bars in general.
 */
export const whatCovers = (over: Cover[]) =>
  `${namedCovers(over) ?? 'the keyboard and system bars'} ${over.length === 1 ? 'leaves' : 'leave'}`

/** How to clear the way for a scroll: hide the keyboard, or close or move a window that lies over the list. */
export function clearAction(over: Cover[]): string {
  const windows = over.some((c) => !c.name.startsWith('the ') && !c.type.startsWith('INPUT_METHOD'))
  return windows
    ? 'Close or move the window over the list (arc press back; a picture-in-picture window can be dragged aside or dismissed), or hide the keyboard (arc keyboard hide), then scroll again.'
    : KEYBOARD_ACTION
}

/** `details.covered_by` of a refusal: each thing over the target, with its bounds. */
export const coveredBy = (over: Cover[]) =>
  over.map((c) => ({name: c.name, ...(c.pkg ? {package: c.pkg} : {}), type: c.type, bounds: c.rect}))

/** An area thinner than this along the swipe leaves no room for one. */
export const MIN_EXTENT_PX = 20
export const KEYBOARD_ACTION = 'Hide the keyboard first (arc keyboard hide), then scroll again.'

export type Direction = 'up' | 'down' | 'left' | 'right'

/** The swipe keeps this share of the area's extent clear at each end. */
const EDGE_SHARE = 0.05

/**
 * The swipe a scroll makes inside `area`, centred in it, over `distance` pixels (at most 90% of the area's extent
 * along the swipe). Scrolling down reveals what is below, so the finger moves up (and scrolling right moves it
 * left), the way a person scrolls a list.
 */
export function swipeInside(area: Rect, direction: Direction, distance: number) {
  const [l, t, r, b] = area
  const vertical = direction === 'up' || direction === 'down'
  const extent = vertical ? b - t : r - l
  const half = Math.floor(Math.min(distance, extent * (1 - 2 * EDGE_SHARE)) / 2)
  const cx = Math.floor((l + r) / 2)
  const cy = Math.floor((t + b) / 2)
  const sign = direction === 'down' || direction === 'right' ? 1 : -1
  return vertical
    ? {from: {x: cx, y: cy + sign * half}, to: {x: cx, y: cy - sign * half}}
    : {from: {x: cx + sign * half, y: cy}, to: {x: cx - sign * half, y: cy}}
}
