import {defineTool} from '@arc-cli/core'
import {z} from 'zod'

/** Share of the screen dimension one scroll covers. */
const SCROLL_AMOUNTS = {small: 0.25, medium: 0.5, large: 0.75} as const
const SCROLL_DURATION_MS = 300

type Direction = 'up' | 'down' | 'left' | 'right'

/**
 * The swipe a scroll makes, centred on the screen. Scrolling down reveals what is below, so the finger moves up
 * (and scrolling right moves it left), the way a person scrolls a list.
 */
function scrollGesture(screen: {width: number; height: number}, direction: Direction, share: number) {
  const cx = Math.round(screen.width / 2)
  const cy = Math.round(screen.height / 2)
  const vertical = direction === 'up' || direction === 'down'
  const half = Math.round(((vertical ? screen.height : screen.width) * share) / 2)
  const sign = direction === 'down' || direction === 'right' ? 1 : -1
  return vertical
    ? {from: {x: cx, y: cy + sign * half}, to: {x: cx, y: cy - sign * half}}
    : {from: {x: cx + sign * half, y: cy}, to: {x: cx - sign * half, y: cy}}
}

export const scroll = defineTool({
  name: 'scroll',
  cliId: 'scroll',
  title: 'Scroll the screen in a direction',
  description:
    'Scrolls by a share of the screen: a swipe through the screen centre covering 25% (small), 50% (medium, default) or 75% (large) of the height (up/down) or width (left/right). "down" reveals content further down.',
  kind: 'action',
  group: 'touch',
  input: z.object({
    direction: z.enum(['up', 'down', 'left', 'right']).describe('Direction to scroll: up, down, left or right'),
    amount: z.enum(['small', 'medium', 'large']).default('medium').describe('How far: small (25%), medium (50%), large (75%)'),
  }),
  cli: {positional: ['direction'], examples: ['<%= config.bin %> <%= command.id %> down --amount large']},
  async handler({driver}, {direction, amount}) {
    const size = await driver.screenSize()
    const {from, to} = scrollGesture(size, direction, SCROLL_AMOUNTS[amount])
    await driver.swipe(from, to, SCROLL_DURATION_MS)
    return {text: `Scroll ${direction} (${amount}) executed`, data: {direction, amount, from, to}}
  },
})
