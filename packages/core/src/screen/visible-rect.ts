/**
 * The part of an element the screen shows: the geometry the element tools share with the annotate plugin (a tap
 * aims at it, `arc screenshot --element` crops to it). Rectangles are [left, top, right, bottom] in device pixels.
 */
import type {ScreenElement, ScreenModel} from './screen-model.js'
import type {UiNode} from './ui-node.js'

export type Rect = [number, number, number, number]

export function intersect(a: Rect, b: Rect): Rect {
  return [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])]
}

export const areaOf = (r: Rect) => Math.max(0, r[2] - r[0]) * Math.max(0, r[3] - r[1])

/**
 * The part of an element that can be seen and touched: its bounds clipped to the screen, to its window and to every
 * ancestor (views clip their children); undefined when nothing of it is visible. An ancestor with empty bounds
 * (some dumps write [0,0][0,0] for wrappers) is ignored.
 */
export function visibleRect(e: ScreenElement, model: ScreenModel): Rect | undefined {
  let rect = intersect(e.bounds, [0, 0, model.screen.width, model.screen.height])
  for (let p: UiNode | undefined = e.node.parent; p; p = p.parent) {
    if (areaOf(p.bounds) === 0) continue
    rect = intersect(rect, p.bounds)
  }
  return areaOf(rect) > 0 ? rect : undefined
}
