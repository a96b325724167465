import {
  buildScreenModel,
  defineTool,
  DeviceCommandError,
  InvalidInputError,
  resolveElement,
  type ScreenModel,
  type ToolContext,
  z,
  elementIdString,
  actedElement,
} from '@arc-cli/core'

import {visibleRect, type Rect} from './element-support.js'
import {
  clearAction,
  coveredBy,
  coveringRects,
  coversOverRect,
  freeArea,
  MIN_EXTENT_PX,
  swipeInside,
  whatCovers,
  windowCover,
  windowManagerRects,
  windowRects,
  windowsOverFocus,
  type Cover,
  type Direction,
} from './covered-area.js'

/** Share of the screen dimension (or of the element's) one scroll covers. */
const SCROLL_AMOUNTS = {small: 0.25, medium: 0.5, large: 0.75} as const
const SCROLL_DURATION_MS = 300

/**
 * The screen less the keyboard and bars, and less the windows stacked above the focused window that take touches (a
 * picture-in-picture video, a bubble: a swipe starting there would be theirs), with those windows, and the screen's
 * size. The window manager's frames are enough when it reports them usably (one `dumpsys window -a` on a live device);
 * only otherwise is the dump read as well (the window manager's reading goes with the capture, not read again), e.g.
 * a keyboard shown with a near full-screen frame, or a recording without a window list.
 */
async function screenArea(
  ctx: ToolContext
): Promise<{screen: {width: number; height: number}; area: Rect; over: Cover[]}> {
  const {info, capture} = await ctx.driver.windowInfoOrCapture(
    (read) => windowManagerRects(read.windowManager, read.screen) === undefined
  )
  const fromWindows = windowManagerRects(info.windowManager, info.screen)
  if (fromWindows) {
    const above = windowsOverFocus(info.windowManager, info.screen)
    return {
      screen: info.screen,
      area: freeArea([0, 0, info.screen.width, info.screen.height], [...fromWindows, ...windowRects(above)]),
      over: above.map(windowCover),
    }
  }
  const model = buildScreenModel(capture ?? (await ctx.driver.captureScreen()))
  const above = windowsOverFocus(model.windowManager, model.screen)
  return {
    screen: model.screen,
    area: freeArea(
      [0, 0, model.screen.width, model.screen.height],
      [...coveringRects(model, 'screen'), ...windowRects(above)]
    ),
    over: above.map(windowCover),
  }
}

/**
 * The element's visible part less the keyboard, the bars and every window stacked above the element's own (a
 * dropdown, a picture-in-picture video: a swipe starting on one would be its gesture), with what covers it; refuses
 * an element that cannot be scrolled there.
 */
async function elementArea(ctx: ToolContext, id: string): Promise<{model: ScreenModel; area: Rect; over: Cover[]}> {
  const {model, element} = await resolveElement(ctx.driver, ctx, id)
  // The recorder (--record) names the element as it does for every element action: never by an ordinal id.
  ctx.noteTarget?.(actedElement(model, element))
  if (!element.node.scrollable) {
    throw new InvalidInputError(
      `element ${id} (${element.className}) is not scrollable: element_id must name a list or scroll view (flag scr in screen-state)`,
      {
        actions: [
          'Pick an element with the scr flag from arc screen-state, or scroll the screen without --element-id (or arc swipe on its bounds).',
        ],
        details: {element_id: id},
      }
    )
  }
  const visible = visibleRect(element, model)
  if (!visible) {
    throw new InvalidInputError(`element ${id} is off screen: there is nothing of it to swipe in`, {
      actions: [`Bring it into view first: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  return {
    model,
    area: freeArea(visible, coveringRects(model, 'app', element.window)),
    over: coversOverRect(visible, element.window, model),
  }
}

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll the screen in a direction',
  description:
    'Scrolls by a share of the screen: a swipe covering 25% (small), 50% (medium, default) or 75% (large) of the height (up/down) or width (left/right), centred in the part of the screen the keyboard, system bars and windows over the app leave free (shorter when that part is). "down" reveals content further down. With element_id, the swipe runs inside that scrollable element (a share of its visible height or width); a stale id fails with STALE_ELEMENT.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  group: 'touch',
  input: z.object({
    direction: z.enum(['up', 'down', 'left', 'right']).describe('Direction to scroll: up, down, left or right'),
    amount: z
      .enum(['small', 'medium', 'large'])
      .default('medium')
      .describe('How far: small (25%), medium (50%), large (75%)'),
    element_id: elementIdString().optional().describe('Scroll inside this scrollable element'),
  }),
  cli: {
    id: 'scroll',
    positional: ['direction'],
    examples: [
      '<%= config.bin %> <%= command.id %> down --amount large',
      '<%= config.bin %> <%= command.id %> down --element-id node_53u26m',
    ],
  },
  async handler(ctx, {direction, amount, element_id}) {
    const share = SCROLL_AMOUNTS[amount]
    const vertical = direction === 'up' || direction === 'down'
    let area: Rect
    let distance: number
    let over: Cover[]
    if (element_id !== undefined) {
      ;({area, over} = await elementArea(ctx, element_id))
      distance = share * (vertical ? area[3] - area[1] : area[2] - area[0])
    } else {
      const {screen, area: free, over: above} = await screenArea(ctx)
      area = free
      over = above
      distance = share * (vertical ? screen.height : screen.width)
    }
    const extent = vertical ? area[3] - area[1] : area[2] - area[0]
    if (extent < MIN_EXTENT_PX) {
      const where = element_id === undefined ? 'the screen' : `element ${element_id}`
      const error = element_id === undefined ? DeviceCommandError : InvalidInputError
      throw new error(
        `no room to scroll ${direction} in ${where}: ${whatCovers(over)} ${Math.max(0, extent)} px of it free`,
        {
          actions: [clearAction(over)],
          details: {
            ...(element_id === undefined ? {} : {element_id}),
            area,
            ...(over.length > 0 ? {covered_by: coveredBy(over)} : {}),
          },
        }
      )
    }
    const {from, to} = swipeInside(area, direction as Direction, distance)
    await ctx.driver.swipe(from, to, SCROLL_DURATION_MS, {hold: true})
    const [left, top, right, bottom] = area
    const data = {
      direction,
      amount,
      ...(element_id === undefined ? {} : {element_id}),
      from,
      to,
      area: {left, top, right, bottom},
    }
    const inside = element_id === undefined ? '' : ` inside element '${element_id}'`
    return {text: `Scroll ${direction} (${amount}) executed${inside}`, data}
  },
})
