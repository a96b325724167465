import {defineTool, InvalidInputError, resolveElement, type ToolContext, z} from '@arc-cli/core'

import {centre, elementId, selfOrAncestor, visibleRect} from './element-support.js'
import {reachableRect} from './scroll-area.js'

const LONG_CLICK_MS = 1000

/**
 * Resolves the id (stale-safe), checks the element can take the touch, and returns the centre of the part of it a
 * tap reaches: visible, and not under the keyboard or a bar drawn over the app.
 */
async function target(ctx: ToolContext, id: string, long: boolean): Promise<{x: number; y: number}> {
  const {model, element} = await resolveElement(ctx.driver, ctx.state, id)
  const what = long ? 'long-clickable' : 'clickable'
  const taker = selfOrAncestor(element.node, (n) => (long ? n.longClickable : n.clickable))
  if (!taker) {
    throw new InvalidInputError(`element ${id} (${element.className}) is not ${what}, and neither is anything around it`, {
      actions: [long ? 'Use arc long-press X Y on its bounds if it reacts anyway.' : 'Use arc tap X Y on its bounds if it reacts anyway.'],
      details: {element_id: id},
    })
  }
  if (!element.node.enabled) {
    throw new InvalidInputError(`element ${id} (${element.className}) is disabled`, {details: {element_id: id}})
  }
  const rect = visibleRect(element, model)
  if (!rect) {
    throw new InvalidInputError(`element ${id} is off screen: no part of it can be touched`, {
      actions: [`Bring it into view first: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  const reachable = reachableRect(element, model)
  if (!reachable) {
    throw new InvalidInputError(`element ${id} is behind the keyboard or a system bar: a tap there would land on them`, {
      actions: ['Hide the keyboard first (arc press back), then click again.', `Or bring it into the free part of the screen: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  return centre(reachable)
}

export const clickElement = defineTool({
  name: 'click_element',
  cliId: 'click',
  title: 'Click an element by id',
  description:
    'Taps the centre of the visible part of the element (clipped to the screen and its window). The screen is read again first: an id that no longer names the element it named when shown fails with STALE_ELEMENT instead of tapping something else.',
  kind: 'action',
  group: 'elements',
  input: z.object({element_id: elementId}),
  cli: {positional: ['element_id'], examples: ['<%= config.bin %> <%= command.id %> node_a3f2kq']},
  async handler(ctx, {element_id}) {
    const point = await target(ctx, element_id, false)
    await ctx.driver.tap(point)
    return {text: `Click performed on element '${element_id}'`, data: {element_id, ...point}}
  },
})

export const longClickElement = defineTool({
  name: 'long_click_element',
  cliId: 'long-click',
  title: 'Long-click an element by id',
  description: `Presses and holds (${LONG_CLICK_MS} ms) the centre of the visible part of the element. Stale ids fail with STALE_ELEMENT, as for click_element.`,
  kind: 'action',
  group: 'elements',
  input: z.object({element_id: elementId}),
  cli: {positional: ['element_id'], examples: ['<%= config.bin %> <%= command.id %> node_a3f2kq']},
  async handler(ctx, {element_id}) {
    const point = await target(ctx, element_id, true)
    await ctx.driver.longPress(point, LONG_CLICK_MS)
    return {text: `Long-click performed on element '${element_id}'`, data: {element_id, ...point, duration: LONG_CLICK_MS}}
  },
})
