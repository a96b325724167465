import {
  buildScreenModel,
  DeviceCommandError,
  defineTool,
  InvalidInputError,
  isAmbiguousId,
  StaleElementError,
  type ScreenElement,
  type ScreenModel,
  type UiNode,
  z,
  elementIdOmittable,
  foundBy,
  resolveTarget,
  selectorData,
  actionSelectorInput,
  targetId,
} from '@arc-cli/core'

import {shareOf, type Rect} from './element-support.js'
import {DEFAULT_MAX_SCROLLS, MAX_MAX_SCROLLS, SEARCH_DIRECTIONS, searchList} from './list-search.js'
import {
  clearAction,
  coveredBy,
  coveringRects,
  coversOverRect,
  freeArea,
  MIN_EXTENT_PX,
  reachableRect,
  whatCovers,
} from './covered-area.js'

export const MAX_SCROLLS = 5
/** Visible when at least this share of the element is on screen inside its containers, clear of the keyboard and bars. */
const VISIBLE_SHARE = 0.6

/** The share of the element that can be seen and touched: on screen, and clear of the keyboard and bars over the app. */
const reachableShare = (element: ScreenElement, model: ScreenModel) => shareOf(element, reachableRect(element, model))

/**
 * The container to scroll: the nearest ancestor flagged scrollable; real dumps often leave `scrollable` unset
 * (Compose, RecyclerViews in some builds), so else the nearest ancestor that clips the element (the element
 * reaches past its bounds) and has several children.
 */
function scrollContainer(element: ScreenElement, model: ScreenModel): UiNode | undefined {
  for (let p = element.node.parent; p; p = p.parent) if (p.scrollable) return p
  const [l, t, r, b] = element.bounds
  for (let p = element.node.parent; p?.parent; p = p.parent) {
    const [pl, pt, pr, pb] = p.bounds
    const clips = t < pt || b > pb || l < pl || r > pr
    const onScreen = pr > 0 && pb > 0 && pl < model.screen.width && pt < model.screen.height
    if (clips && onScreen && p.children.length >= 2) return p
  }
  return undefined
}

/**
 * Where to swipe in the container: its part on the screen less the keyboard, the bars and every window stacked
 * above the element's own (from the screen just read), so no swipe starts on a key, the navigation bar or a popup
 * or picture-in-picture video over the list (that window would take the gesture); refused when they leave no room.
 */
function swipeArea(element: ScreenElement, container: UiNode, model: ScreenModel): Rect {
  const onScreen: Rect = [
    Math.max(0, container.bounds[0]),
    Math.max(0, container.bounds[1]),
    Math.min(model.screen.width, container.bounds[2]),
    Math.min(model.screen.height, container.bounds[3]),
  ]
  const area = freeArea(onScreen, coveringRects(model, 'app', element.window))
  const free = Math.max(0, Math.min(area[2] - area[0], area[3] - area[1]))
  if (free < MIN_EXTENT_PX) {
    const over = coversOverRect(onScreen, element.window, model)
    throw new DeviceCommandError(
      `no room to scroll toward element ${element.id}: ${whatCovers(over)} ${free} px of its scrollable container free`,
      {
        actions: [clearAction(over)],
        details: {
          element_id: element.id,
          area,
          reason: 'NO_ROOM_TO_SCROLL',
          ...(over.length > 0 ? {covered_by: coveredBy(over)} : {}),
        },
      }
    )
  }
  return area
}

/** A swipe inside the free area that moves the container's content toward the element, over 60% of its extent. */
function swipeToward(element: ScreenElement, [cl, ct, cr, cb]: Rect) {
  const [l, t, r, b] = element.bounds
  const cx = Math.floor((cl + cr) / 2)
  const cy = Math.floor((ct + cb) / 2)
  const dy = Math.floor((cb - ct) * 0.3)
  const dx = Math.floor((cr - cl) * 0.3)
  if (b > cb) return {from: {x: cx, y: cy + dy}, to: {x: cx, y: cy - dy}}
  if (t < ct) return {from: {x: cx, y: cy - dy}, to: {x: cx, y: cy + dy}}
  if (r > cr) return {from: {x: cx + dx, y: cy}, to: {x: cx - dx, y: cy}}
  if (l < cl) return {from: {x: cx - dx, y: cy}, to: {x: cx + dx, y: cy}}
  return {from: {x: cx, y: cy + dy}, to: {x: cx, y: cy - dy}}
}

export const scrollToElement = defineTool({
  name: 'scroll_to_element',
  title: 'Scroll until an element is visible (by id or selector)',
  description: `Scrolls the element's nearest scrollable ancestor toward it (at most ${MAX_SCROLLS} swipes), reading the screen after each, until the element is visible. Ids survive scrolling, so the same id is followed; a stale id fails with STALE_ELEMENT.`,
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'elements',
  input: z.object({element_id: targetId}),
  cli: {
    id: 'scroll-to',
    input: actionSelectorInput.extend({
      direction: z
        .enum(SEARCH_DIRECTIONS)
        .optional()
        .describe(
          "With a selector that matches nothing on screen: which way to scroll the screen's main list looking for it, as arc scroll names it (default down)"
        ),
      max_scrolls: z
        .number()
        .int()
        .min(0)
        .max(MAX_MAX_SCROLLS)
        .optional()
        .describe(
          `With a selector: the most scrolls that search makes (0-${MAX_MAX_SCROLLS}, default ${DEFAULT_MAX_SCROLLS}; 0: no search)`
        ),
    }),
    mayOmit: elementIdOmittable,
    positional: ['element_id'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_peywab',
      '<%= config.bin %> <%= command.id %> --text Coffee',
      '<%= config.bin %> <%= command.id %> --text "Coffee beans" --exact-match --max-scrolls 30',
      '<%= config.bin %> <%= command.id %> --desc "Delete Oat milk" --direction up',
    ],
  },
  async handler(ctx, input) {
    const {direction, max_scrolls} = input
    if (input.element_id !== undefined && (direction !== undefined || max_scrolls !== undefined)) {
      const given = [
        ...(direction === undefined ? [] : ['--direction']),
        ...(max_scrolls === undefined ? [] : ['--max-scrolls']),
      ]
      throw new InvalidInputError(
        `${given.join(' and ')} ${given.length > 1 ? 'apply' : 'applies'} to a selector's search down a list, not to an element id (${input.element_id}), which is followed where it is`,
        {
          details: {element_id: input.element_id},
        }
      )
    }
    const found = await resolveTarget(ctx, input, {
      search: searchList(ctx, {direction: direction ?? 'down', maxScrolls: max_scrolls ?? DEFAULT_MAX_SCROLLS}),
    })
    const element_id = found.id
    const by = foundBy(found)
    const selector = selectorData(found)
    const searched = found.scrolls ?? 0
    let {model, element} = found
    if (reachableShare(element, model) >= VISIBLE_SHARE) {
      if (searched > 0)
        return {
          text: `Scrolled to element '${element_id}'${by} (${searched} scroll(s))`,
          data: {element_id, scrolls: searched, already_visible: false, ...selector},
        }
      return {
        text: `Element '${element_id}'${by} is already visible`,
        data: {element_id, scrolls: 0, already_visible: true, ...selector},
      }
    }
    if (isAmbiguousId(element_id)) {
      throw new InvalidInputError(
        `element ${element_id} is one of several look-alikes, counted by their place on the screen: a scroll moves them, so arc could not tell it from the others after one`,
        {
          actions: [
            'Scroll with arc scroll, read the screen again, and use the id it shows; or pick it by another property (arc find).',
          ],
          details: {element_id},
        }
      )
    }
    const container = scrollContainer(element, model)
    if (!container) {
      throw new InvalidInputError(
        `element ${element_id} is not visible and has no scrollable container to bring it into view`,
        {details: {element_id}}
      )
    }
    for (let scrolls = 1; scrolls <= MAX_SCROLLS; scrolls++) {
      if (ctx.signal?.aborted) throw ctx.signal.reason
      ctx.progress(`scrolling toward ${element_id} (${scrolls}/${MAX_SCROLLS})`)
      const {from, to} = swipeToward(element, swipeArea(element, container, model))
      await ctx.driver.swipe(from, to, 400, {hold: true})
      model = buildScreenModel(await ctx.driver.captureScreen())
      const now = model.byId.get(element_id)
      if (!now)
        throw new StaleElementError(`element ${element_id} left the screen while scrolling toward it`, {
          actions: ['Read the screen again and look for it.'],
        })
      element = now
      if (reachableShare(element, model) >= VISIBLE_SHARE) {
        const total = searched + scrolls
        return {
          text: `Scrolled to element '${element_id}'${by} (${total} scroll(s))`,
          data: {element_id, scrolls: total, already_visible: false, ...selector},
        }
      }
    }
    throw new DeviceCommandError(`element ${element_id} is still not visible after ${MAX_SCROLLS} scrolls`, {
      actions: ['Scroll by hand (arc scroll or arc swipe) and read the screen again.'],
      details: {element_id, scrolls: MAX_SCROLLS, reason: 'NOT_VISIBLE_AFTER_SCROLLS'},
    })
  },
})
