import {defineTool, ElementNotFoundError, parseUiDump, resolveKey, walkNodes, z} from '@arc-cli/core'

/**
 * The spec's six keys (ENTER, BACK, DEL, HOME, TAB, SPACE) and any other Android key event by name or number.
 * `--json` gives `{key: "KEYCODE_<NAME>", code}`, the same shape as `press back`, `press home` and `press recents`.
 */

/** Keys that act on the focused element: with nothing focused they would go nowhere, so arc refuses them. */
const NEED_FOCUS = new Set<string>(['KEYCODE_ENTER', 'KEYCODE_DEL', 'KEYCODE_TAB', 'KEYCODE_SPACE'])

export const pressKey = defineTool({
  name: 'press_key',
  title: 'Press a key',
  description:
    'Presses one key, sent as its Android key event to whatever has focus: the spec\'s ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, or any Android keycode by name with or without KEYCODE_ (VOLUME_UP, POWER, MENU, DPAD_CENTER, F1…) or by keycode number (24 is VOLUME_UP). ENTER, DEL, TAB and SPACE need a focused element: the screen is read first and the key refused when nothing has focus. Returns {key: "KEYCODE_<NAME>", code}.',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  holdsDevice: true,
  group: 'keys',
  input: z.object({
    key: z
      .string()
      .trim()
      .min(1)
      .describe(
        'Key to press: ENTER, BACK, DEL, HOME, TAB, SPACE, or any Android keycode name (VOLUME_UP, KEYCODE_MENU) or number (24)'
      ),
  }),
  cli: {
    id: 'press key',
    positional: ['key'],
    examples: [
      '<%= config.bin %> <%= command.id %> ENTER',
      '<%= config.bin %> <%= command.id %> VOLUME_UP',
      '<%= config.bin %> <%= command.id %> 26',
    ],
  },
  async handler({driver}, {key}) {
    const resolved = resolveKey(key, 'argument <key>')
    if (NEED_FOCUS.has(resolved.key)) {
      const capture = await driver.captureScreen()
      const windows = capture.hierarchy?.windows ?? parseUiDump(capture.xml).windows
      if (![...walkNodes(windows)].some((n) => n.focused)) {
        throw new ElementNotFoundError(
          `no focused element: ${resolved.label} goes to the focused element, and nothing on the screen has focus`,
          {
            actions: ['Tap or click a field first (arc click <id>), then press the key.'],
            details: {key: resolved.key},
          }
        )
      }
    }
    await driver.pressKey(resolved.word)
    return {text: `Key '${resolved.label}' pressed successfully`, data: {key: resolved.key, code: resolved.code}}
  },
})
