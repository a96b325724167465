/**
 * Where an element tool touches an element: the one path click, long-click and the typing tools' focus tap take,
 * so they pick their point, and refuse, the same way. The point is the centre of the part of the element a tap
 * reaches: its visible part (clipped to the screen, its window and every ancestor) and, for an app's element, less
 * the keyboard and the bars drawn over the app (the largest piece they leave). Where no part is on screen, or all
 * of it is behind the keyboard or a bar (a tap there would press a key and report success), it is refused with
 * INVALID_INPUT before anything is sent.
 */
import {InvalidInputError, touchCentre, type Point, type ScreenElement, type ScreenModel} from '@arc-cli/core'

import {visibleRect} from './element-support.js'

export interface Touchable {
  id: string
  element: ScreenElement
  model: ScreenModel
}

/** `again`: what the user does after clearing the way, in the refusal's hint (`click again`, `type again`). */
export function touchPoint({id, element, model}: Touchable, again: string): Point {
  if (!visibleRect(element, model)) {
    throw new InvalidInputError(`element ${id} is off screen: no part of it can be touched`, {
      actions: [`Bring it into view first: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  // The same point compact screen-state prints as the element's `@x,y`.
  const point = touchCentre(element, model)
  if (!point) {
    throw new InvalidInputError(
      `element ${id} is behind the keyboard or a system bar: a tap there would land on them`,
      {
        actions: [
          `Hide the keyboard first (arc keyboard hide), then ${again}.`,
          `Or bring it into the free part of the screen: arc scroll-to ${id}`,
        ],
        details: {element_id: id},
      }
    )
  }
  return point
}
