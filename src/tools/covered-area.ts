/**
 * Where a scroll swipes: the free area (what the keyboard and bars leave, core's covered-area.ts) and the swipe
 * inside it, so a swipe never starts on a key or the navigation bar.
 */
import type {Rect} from '@arc-cli/core'

export {coveringRects, freeArea, reachableRect, windowManagerRects, type CoverPurpose} from '@arc-cli/core'

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
