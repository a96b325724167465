import {defineTool, z} from '@arc-cli/core'

import {at, checkOnScreen, coordinate, duration} from './touch-schema.js'

export const longPress = defineTool({
  name: 'long_press',
  title: 'Long-press the screen at a point',
  description: 'Presses and holds at x,y in screen pixels for `duration` milliseconds (default 1000), then releases.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({
    x: coordinate('X coordinate'),
    y: coordinate('Y coordinate'),
    duration: duration('Press duration', 1000),
  }),
  cli: {
    id: 'long-press',
    positional: ['x', 'y'],
    examples: ['<%= config.bin %> <%= command.id %> 540 1200 --duration 2000'],
  },
  async handler({driver}, {x, y, duration}) {
    await checkOnScreen(driver, {'': {x, y}})
    await driver.longPress({x, y}, duration)
    return {text: `Long press executed at ${at(x, y)} for ${duration}ms`, data: {x, y, duration}}
  },
})
