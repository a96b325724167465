import {
  defineTool,
  InvalidInputError,
  type ToolContext,
  z,
  elementIdOmittable,
  foundBy,
  resolveTarget,
  selectorData,
  actionSelectorInput,
  targetId,
  type Target,
  type TargetInput,
} from '@arc-cli/core'

import {selfOrAncestor} from './element-support.js'
import {touchPoint} from './touch-target.js'

const LONG_CLICK_MS = 1000

/**
 * Resolves the target (an id, stale-safe, or a selector's one match), checks the element can take the touch, and
 * returns it with the point the element tools' one touch path picks (touch-target.ts): the centre of the part of
 * it a tap reaches, visible and not under the keyboard or a bar drawn over the app.
 */
async function target(
  ctx: ToolContext,
  input: TargetInput,
  long: boolean
): Promise<{found: Target; point: {x: number; y: number}}> {
  const found = await resolveTarget(ctx, input)
  const {element, id} = found
  const what = long ? 'long-clickable' : 'clickable'
  const taker = selfOrAncestor(element.node, (n) => (long ? n.longClickable : n.clickable))
  if (!taker) {
    throw new InvalidInputError(
      `element ${id} (${element.className}) is not ${what}, and neither is anything around it`,
      {
        actions: [
          long
            ? 'Use arc long-press X Y on its bounds if it reacts anyway.'
            : 'Use arc tap X Y on its bounds if it reacts anyway.',
        ],
        details: {element_id: id},
      }
    )
  }
  if (!element.node.enabled) {
    throw new InvalidInputError(`element ${id} (${element.className}) is disabled`, {details: {element_id: id}})
  }
  return {found, point: touchPoint(found, long ? 'long-click again' : 'click again')}
}

export const clickElement = defineTool({
  name: 'click_element',
  title: 'Click an element by id or selector',
  description:
    'Taps the centre of the visible part of the element (clipped to the screen and its window). The screen is read again first: an id that no longer names the element it named when shown fails with STALE_ELEMENT instead of tapping something else.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'elements',
  input: z.object({element_id: targetId}),
  cli: {
    id: 'click',
    input: actionSelectorInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_s7ddgy',
      '<%= config.bin %> <%= command.id %> --text ADD --exact-match',
      '<%= config.bin %> <%= command.id %> --res-id dev.arc.demo.groceries:id/add_button',
    ],
  },
  async handler(ctx, input) {
    const {found, point} = await target(ctx, input, false)
    await ctx.driver.tap(point)
    return {
      text: `Click performed on element '${found.id}'${foundBy(found)}`,
      data: {element_id: found.id, ...point, ...selectorData(found)},
    }
  },
})

export const longClickElement = defineTool({
  name: 'long_click_element',
  title: 'Long-click an element by id or selector',
  description: `Presses and holds (${LONG_CLICK_MS} ms) the centre of the visible part of the element. Stale ids fail with STALE_ELEMENT, as for click_element.`,
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'elements',
  input: z.object({element_id: targetId}),
  cli: {
    id: 'long-click',
    input: actionSelectorInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_8qp7xe',
      '<%= config.bin %> <%= command.id %> --text "Oat milk" --exact-match',
    ],
  },
  async handler(ctx, input) {
    const {found, point} = await target(ctx, input, true)
    await ctx.driver.longPress(point, LONG_CLICK_MS)
    return {
      text: `Long-click performed on element '${found.id}'${foundBy(found)}`,
      data: {element_id: found.id, ...point, duration: LONG_CLICK_MS, ...selectorData(found)},
    }
  },
})
