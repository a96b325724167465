/**
 * Where an element tool touches an element: the one path click, long-click and the typing tools' focus tap take,
 * so they pick their point, and refuse, the same way. The point is the centre of the part of the element a tap
 * reaches: its visible part (clipped to the screen, its window and every ancestor) and, for an app's element, less
 * the keyboard, the bars and any other window drawn over the app (the largest piece they leave). Where no part is on
 * screen, or all of it is behind them (a tap there would press a key, or a popup's item, and report success), it is
 * refused with INVALID_INPUT before anything is sent.
 */
import {
  areaOf,
  InvalidInputError,
  intersect,
  coversOver,
  touchCentre,
  type Point,
  type Rect,
  type ScreenElement,
  type ScreenModel,
  type UiNode,
} from '@arc-cli/core'

import {coveredBy, namedCovers} from './covered-area.js'
import {visibleRect} from './element-support.js'

const shown = (r: readonly number[]) => `[${r[0]},${r[1]}][${r[2]},${r[3]}]`

/**
 * The ancestor whose bounds leave nothing of an element that overlaps the screen: views clip their children, so a
 * row a list scrolled away is outside it; web content (a WebView's nodes) may be drawn outside its parents, as a
 * popup menu anchored to a button is. Undefined when the element is simply off the screen.
 */
function clippingAncestor(element: ScreenElement, model: ScreenModel): UiNode | undefined {
  let rect: Rect = intersect(element.bounds, [0, 0, model.screen.width, model.screen.height])
  if (areaOf(rect) === 0) return undefined
  for (let p: UiNode | undefined = element.node.parent; p; p = p.parent) {
    if (areaOf(p.bounds) === 0) continue
    rect = intersect(rect, p.bounds)
    if (areaOf(rect) === 0) return p
  }
  return undefined
}

export interface Touchable {
  id: string
  element: ScreenElement
  model: ScreenModel
}

/** `again`: what the user does after clearing the way, in the refusal's hint (`click again`, `type again`). */
export function touchPoint({id, element, model}: Touchable, again: string): Point {
  if (!visibleRect(element, model)) {
    const ancestor = clippingAncestor(element, model)
    if (ancestor) {
      // Not sent: whether the screen shows it there is for the one who sees the screenshot to say.
      const [l, t, r, b] = intersect(element.bounds, [0, 0, model.screen.width, model.screen.height])
      const cls = ancestor.className.split('.').pop() || 'a view'
      throw new InvalidInputError(
        `element ${id} has no part inside its parents: its bounds ${shown(element.bounds)} lie outside those of an ancestor, ${cls} ${shown(ancestor.bounds)}`,
        {
          actions: [
            `If the screenshot shows it there (web content may be drawn outside its parents), tap it by position: arc tap ${Math.floor((l + r) / 2)} ${Math.floor((t + b) / 2)}`,
            `Else bring it into view: arc scroll-to ${id}`,
          ],
          details: {element_id: id, bounds: element.bounds, ancestor_bounds: ancestor.bounds},
        }
      )
    }
    throw new InvalidInputError(`element ${id} is off screen: no part of it can be touched`, {
      actions: [`Bring it into view first: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  // The same point compact screen-state prints as the element's `@x,y`.
  const point = touchCentre(element, model)
  if (!point) {
    // Named, so the one reading the refusal knows what to close: a tap would go to it, never to the element.
    const over = coversOver(element, model)
    const what =
      namedCovers(over) ??
      'the keyboard, a system bar or another window drawn over its own (a popup, dropdown or panel)'
    throw new InvalidInputError(
      `element ${id} is behind ${what}: a tap there would land on ${over.length === 1 ? 'it' : 'them'}, not on the element`,
      {
        actions: [
          `Hide the keyboard first (arc keyboard hide), or close or move the window over it (arc press back; a picture-in-picture window can be dragged aside or dismissed), then ${again}.`,
          `Or bring it into the free part of the screen: arc scroll-to ${id}`,
        ],
        details: {
          element_id: id,
          covered_by: coveredBy(over),
        },
      }
    )
  }
  return point
}
