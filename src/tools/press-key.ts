import {defineTool, ElementNotFoundError, parseUiDump, walkNodes} from '@arc-cli/core'
import {z} from 'zod'

/** The spec's keys; each is sent as its Android key event (the driver adds the `KEYCODE_` prefix). */
const KEYS = ['ENTER', 'BACK', 'DEL', 'HOME', 'TAB', 'SPACE'] as const
/** Keys that act on the focused element: with nothing focused they would go nowhere, so arc refuses them. */
const NEED_FOCUS = new Set<string>(['ENTER', 'DEL', 'TAB', 'SPACE'])

export const pressKey = defineTool({
  name: 'press_key',
  cliId: 'press key',
  title: 'Press a key',
  description:
    'Presses one key: ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, sent as the matching Android key event (KEYCODE_ENTER…) to whatever has focus. ENTER, DEL, TAB and SPACE need a focused element: the screen is read first and the key refused when nothing has focus.',
  kind: 'action',
  group: 'keys',
  input: z.object({
    key: z.enum(KEYS).describe('Key to press: ENTER, BACK, DEL, HOME, TAB or SPACE'),
  }),
  cli: {positional: ['key'], examples: ['<%= config.bin %> <%= command.id %> ENTER']},
  async handler({driver}, {key}) {
    if (NEED_FOCUS.has(key)) {
      const capture = await driver.captureScreen()
      const windows = capture.hierarchy?.windows ?? parseUiDump(capture.xml).windows
      if (![...walkNodes(windows)].some((n) => n.focused)) {
        throw new ElementNotFoundError(`no focused element: ${key} goes to the focused element, and nothing on the screen has focus`, {
          actions: ['Tap or click a field first (arc click <id>), then press the key.'],
          details: {key},
        })
      }
    }
    await driver.pressKey(key)
    return {text: `Key '${key}' pressed successfully`, data: {key}}
  },
})
