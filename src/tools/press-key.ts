import {defineTool} from '@arc-cli/core'
import {z} from 'zod'

/** The spec's keys; each is sent as its Android key event (the driver adds the `KEYCODE_` prefix). */
const KEYS = ['ENTER', 'BACK', 'DEL', 'HOME', 'TAB', 'SPACE'] as const

export const pressKey = defineTool({
  name: 'press_key',
  cliId: 'press key',
  title: 'Press a key',
  description:
    'Presses one key: ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, sent as the matching Android key event (KEYCODE_ENTER…) to whatever has focus.',
  kind: 'action',
  group: 'keys',
  input: z.object({
    key: z.enum(KEYS).describe('Key to press: ENTER, BACK, DEL, HOME, TAB or SPACE'),
  }),
  cli: {positional: ['key'], examples: ['<%= config.bin %> <%= command.id %> ENTER']},
  async handler({driver}, {key}) {
    await driver.pressKey(key)
    return {text: `Key '${key}' pressed successfully`, data: {key}}
  },
})
