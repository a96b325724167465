import {defineTool, z} from '@arc-cli/core'

import {at, checkOnScreen, coordinate, duration} from './touch-schema.js'

export const swipe = defineTool({
  name: 'swipe',
  cliId: 'swipe',
  title: 'Swipe from one point to another',
  description:
    'Drags from (x1, y1) to (x2, y2) in screen pixels over `duration` milliseconds (default 300). For scrolling by a share of the screen, use scroll.',
  kind: 'action',
  group: 'touch',
  input: z.object({
    x1: coordinate('Start X coordinate'),
    y1: coordinate('Start Y coordinate'),
    x2: coordinate('End X coordinate'),
    y2: coordinate('End Y coordinate'),
    duration: duration('Swipe duration', 300),
  }),
  cli: {positional: ['x1', 'y1', 'x2', 'y2'], examples: ['<%= config.bin %> <%= command.id %> 500 1500 500 500']},
  async handler({driver}, {x1, y1, x2, y2, duration}) {
    await checkOnScreen(driver, {start: {x: x1, y: y1}, end: {x: x2, y: y2}})
    await driver.swipe({x: x1, y: y1}, {x: x2, y: y2}, duration)
    return {
      text: `Swipe executed from ${at(x1, y1)} to ${at(x2, y2)} over ${duration}ms`,
      data: {x1, y1, x2, y2, duration},
    }
  },
})
