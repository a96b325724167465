import {defineTool} from '@arc-cli/core'
import {z} from 'zod'

/** The spec's keys and the Android key events arc sends for them. */
export const PRESS_KEYS = {
  ENTER: 'ENTER',
  BACK: 'BACK',
  DEL: 'DEL',
  HOME: 'HOME',
  TAB: 'TAB',
  SPACE: 'SPACE',
} as const

export const pressKey = defineTool({
  name: 'press_key',
  cliId: 'press key',
  title: 'Press a key',
  description:
    'Presses one key: ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, sent as the matching Android key event (KEYCODE_ENTER…) to whatever has focus.',
  kind: 'action',
  input: z.object({
    key: z.enum(['ENTER', 'BACK', 'DEL', 'HOME', 'TAB', 'SPACE']).describe('Key to press: ENTER, BACK, DEL, HOME, TAB or SPACE'),
  }),
  cli: {positional: ['key'], examples: ['<%= config.bin %> <%= command.id %> ENTER']},
  async handler({driver}, {key}) {
    await driver.pressKey(PRESS_KEYS[key])
    return {text: `Key '${key}' pressed successfully`, data: {key}}
  },
})
