import {defineTool, z} from '@arc-cli/core'

import {at, checkOnScreen, coordinate} from './touch-schema.js'

export const tap = defineTool({
  name: 'tap',
  title: 'Tap the screen at a point',
  description:
    "Performs a single tap at x,y in screen pixels (screen-state's space, not a scaled screenshot's). For an element use click_element, or compact screen-state's @x,y: its bounds' centre may lie under the keyboard.",
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({x: coordinate('X coordinate'), y: coordinate('Y coordinate')}),
  cli: {id: 'tap', positional: ['x', 'y'], examples: ['<%= config.bin %> <%= command.id %> 540 1200']},
  async handler({driver}, {x, y}) {
    await checkOnScreen(driver, {'': {x, y}})
    await driver.tap({x, y})
    return {text: `Tap executed at ${at(x, y)}`, data: {x, y}}
  },
})

export const doubleTap = defineTool({
  name: 'double_tap',
  title: 'Double-tap the screen at a point',
  description: 'Performs a double tap at x,y in screen pixels: two taps sent in one device command.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({x: coordinate('X coordinate'), y: coordinate('Y coordinate')}),
  cli: {id: 'double-tap', positional: ['x', 'y'], examples: ['<%= config.bin %> <%= command.id %> 540 1200']},
  async handler({driver}, {x, y}) {
    await checkOnScreen(driver, {'': {x, y}})
    await driver.doubleTap({x, y})
    return {text: `Double tap executed at ${at(x, y)}`, data: {x, y}}
  },
})
