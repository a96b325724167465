import {defineTool, resolveKey} from '@arc-cli/core'
import {z} from 'zod'

/**
 * The spec's six keys (ENTER, BACK, DEL, HOME, TAB, SPACE) and any other Android key event by name or number.
 * `--json` gives `{key: "KEYCODE_<NAME>", code}`, the same shape as `press back`, `press home` and `press recents`.
 */
export const pressKey = defineTool({
  name: 'press_key',
  cliId: 'press key',
  title: 'Press a key',
  description:
    'Presses one key, sent as its Android key event to whatever has focus: the spec\'s ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, or any Android keycode by name with or without KEYCODE_ (VOLUME_UP, POWER, MENU, DPAD_CENTER, 5, F1…) or by keycode number (24 is VOLUME_UP; the digit keys are KEYCODE_0…KEYCODE_9). Returns {key: "KEYCODE_<NAME>", code}.',
  kind: 'action',
  input: z.object({
    key: z
      .string()
      .trim()
      .min(1)
      .describe('Key to press: ENTER, BACK, DEL, HOME, TAB, SPACE, or any Android keycode name (VOLUME_UP, KEYCODE_MENU) or number (24)'),
  }),
  cli: {
    positional: ['key'],
    examples: ['<%= config.bin %> <%= command.id %> ENTER', '<%= config.bin %> <%= command.id %> VOLUME_UP', '<%= config.bin %> <%= command.id %> 26'],
  },
  async handler({driver}, {key}) {
    const resolved = resolveKey(key, 'argument <key>')
    await driver.pressKey(resolved.word)
    return {text: `Key '${resolved.label}' pressed successfully`, data: {key: resolved.key, code: resolved.code}}
  },
})
