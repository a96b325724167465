/**
 * scroll-to's search down a long list. A RecyclerView or LazyColumn dumps only the rows it has drawn, so a row
 * further down is found by scrolling the screen's main list and reading the screen again after each swipe, until
 * the selector matches, the list stops moving (its end) or the cap of scrolls is reached.
 */
import {
  buildScreenModel,
  DeviceCommandError,
  ElementNotFoundError,
  type ScreenElement,
  type ScreenModel,
  type ToolContext,
  type SearchedSelector,
  type SelectorSearch,
} from '@arc-cli/core'

import {areaOf, visibleRect, type Rect} from './element-support.js'
import {
  clearAction,
  coveredBy,
  coveringRects,
  coversOverRect,
  freeArea,
  MIN_EXTENT_PX,
  swipeInside,
  whatCovers,
} from './covered-area.js'
import {fingerprint, similarity} from './wait-idle.js'

/** Named as `arc scroll` names them: "down" reveals what is further down (the finger moves up). */
export const SEARCH_DIRECTIONS = ['down', 'up'] as const
export type SearchDirection = (typeof SEARCH_DIRECTIONS)[number]
export const DEFAULT_MAX_SCROLLS = 20
export const MAX_MAX_SCROLLS = 100
/** Each swipe covers half of the list's free height, so two reads in a row share rows and none is skipped over. */
const SEARCH_SHARE = 0.5
const SEARCH_SWIPE_MS = 400

export interface ListSearch {
  direction: SearchDirection
  maxScrolls: number
}

/** The screen's main list: the largest scrollable element of the main display by its visible area (never the keyboard's). */
export function mainScrollable(model: ScreenModel): ScreenElement | undefined {
  let best: ScreenElement | undefined
  let bestArea = 0
  for (const e of model.elements) {
    if (!e.node.scrollable || e.window.display !== 0 || e.window.type === 'INPUT_METHOD') continue
    const seen = visibleRect(e, model)
    const area = seen ? areaOf(seen) : 0
    if (area > bestArea) {
      best = e
      bestArea = area
    }
  }
  return best
}

/**
 * Where a search swipes: the list's visible part less the keyboard, the bars and every window stacked above the
 * list's own (a popup or picture-in-picture video there would take the swipe); refused when they leave no room.
 */
function searchArea(list: ScreenElement, model: ScreenModel): Rect {
  const seen = visibleRect(list, model) as Rect
  const area = freeArea(seen, coveringRects(model, 'app', list.window))
  const height = Math.max(0, area[3] - area[1])
  if (height < MIN_EXTENT_PX) {
    const over = coversOverRect(seen, list.window, model)
    throw new DeviceCommandError(`no room to scroll list ${list.id}: ${whatCovers(over)} ${height} px of it free`, {
      actions: [clearAction(over)],
      details: {
        list: list.id,
        area,
        reason: 'NO_ROOM_TO_SCROLL',
        ...(over.length > 0 ? {covered_by: coveredBy(over)} : {}),
      },
    })
  }
  return area
}

/** A fingerprint of what the list holds now (every node under it, with its bounds): equal before and after a swipe at its end. */
const contents = (list: ScreenElement) => fingerprint([list.node])

/**
 * The search scroll-to makes for a selector the first read does not match: swipes inside the main list in
 * `direction` (the swipe `arc scroll` makes, over half the list) and reads the screen after each, up to
 * `maxScrolls` times. No list (or no scrolls allowed): undefined, the first read's ELEMENT_NOT_FOUND. The list at
 * its end (its contents unchanged by a swipe), gone from the screen, or the cap reached: ELEMENT_NOT_FOUND saying so.
 */
export function searchList(ctx: ToolContext, {direction, maxScrolls}: ListSearch): SelectorSearch {
  return async (first: ScreenModel, selector: SearchedSelector) => {
    let model = first
    let list = mainScrollable(model)
    if (!list || maxScrolls === 0) return undefined
    const notFound = (
      message: string,
      scrolls: number,
      more: {end_of_list: boolean; action: string; reason: 'END_OF_LIST' | 'LIST_LEFT_SCREEN' | 'MAX_SCROLLS'}
    ) =>
      new ElementNotFoundError(`no element matches ${selector.what}: ${message}`, {
        actions: [...selector.hints(model), more.action],
        details: {
          ...selector.details,
          direction,
          scrolls,
          max_scrolls: maxScrolls,
          end_of_list: more.end_of_list,
          reason: more.reason,
        },
      })
    const otherWay = `--direction ${direction === 'down' ? 'up' : 'down'}`
    for (let scrolls = 1; scrolls <= maxScrolls; scrolls++) {
      if (ctx.signal?.aborted) throw ctx.signal.reason
      ctx.progress(`looking for ${selector.what}: scrolling ${direction} (${scrolls}/${maxScrolls})`)
      const area = searchArea(list, model)
      const {from, to} = swipeInside(area, direction, SEARCH_SHARE * (area[3] - area[1]))
      const before = contents(list)
      await ctx.driver.swipe(from, to, SEARCH_SWIPE_MS, {hold: true})
      model = buildScreenModel(await ctx.driver.captureScreen())
      if (selector.has(model)) return {model, scrolls}
      const now = mainScrollable(model)
      if (!now) {
        throw notFound(`its list left the screen after ${scrolls} scroll(s) ${direction}`, scrolls, {
          end_of_list: false,
          action: 'See what is on the screen: arc screen-state (or arc find).',
          reason: 'LIST_LEFT_SCREEN',
        })
      }
      if (similarity(before, contents(now)) === 100) {
        throw notFound(
          `scrolled the list ${direction} to its end (${scrolls} scroll(s); the last one changed nothing)`,
          scrolls,
          {end_of_list: true, action: `Search the other way: ${otherWay}.`, reason: 'END_OF_LIST'}
        )
      }
      list = now
    }
    throw notFound(
      `not within ${maxScrolls} scroll(s) ${direction} (--max-scrolls ${maxScrolls}), and the list goes on`,
      maxScrolls,
      {
        end_of_list: false,
        action: `Allow more scrolls (--max-scrolls, at most ${MAX_MAX_SCROLLS}), or search the other way: ${otherWay}.`,
        reason: 'MAX_SCROLLS',
      }
    )
  }
}
