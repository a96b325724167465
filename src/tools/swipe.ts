import {defineTool, z} from '@arc-cli/core'

import {at, checkOnScreen, coordinate, duration} from './touch-schema.js'

/**
 * `arc scroll` names the way the content moves into view, a finger the way it moves: a finger moving up scrolls
 * down (swipeInside in covered-area.ts).
 */
const SCROLL_FOR_FINGER: Record<string, string> = {up: 'down', down: 'up', left: 'right', right: 'left'}

export const swipe = defineTool({
  name: 'swipe',
  title: 'Swipe from one point to another',
  description:
    "Drags from (x1, y1) to (x2, y2) in screen pixels over `duration` milliseconds (default 300). The start must be on the screen; the end may lie past its edge (up to the screen's size beyond), as a finger leaving the screen. For scrolling by a share of the screen, use scroll.",
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({
    x1: coordinate('Start X coordinate'),
    y1: coordinate('Start Y coordinate'),
    x2: coordinate('End X coordinate'),
    y2: coordinate('End Y coordinate'),
    duration: duration('Swipe duration', 300),
  }),
  cli: {
    id: 'swipe',
    positional: ['x1', 'y1', 'x2', 'y2'],
    examples: ['<%= config.bin %> <%= command.id %> 500 1500 500 500'],
    misread: ({x1}) => {
      const finger = typeof x1 === 'string' ? x1.toLowerCase() : ''
      const scroll = SCROLL_FOR_FINGER[finger]
      if (!scroll) return undefined
      return {
        message: `swipe takes coordinates (x1 y1 x2 y2 in screen pixels), not a direction: got ${JSON.stringify(x1)}`,
        actions: [
          `arc scroll ${scroll}  (a swipe ${finger}: the finger moves ${finger}, content further ${scroll} comes into view)`,
          'arc swipe 500 1500 500 500  (from one point to another, in screen pixels)',
        ],
      }
    },
  },
  async handler({driver}, {x1, y1, x2, y2, duration}) {
    // The start must be on the screen (a touch put down off it lands nowhere); the end may lie past the edge.
    await checkOnScreen(driver, {start: {x: x1, y: y1}, end: {x: x2, y: y2}}, new Set(['end']))
    await driver.swipe({x: x1, y: y1}, {x: x2, y: y2}, duration)
    return {
      text: `Swipe executed from ${at(x1, y1)} to ${at(x2, y2)} over ${duration}ms`,
      data: {x1, y1, x2, y2, duration},
    }
  },
})
