import {
  buildScreenModel,
  defineTool,
  ElementNotFoundError,
  isEditable,
  parseUiDump,
  resolveKey,
  walkNodes,
  z,
  type UiNode,
} from '@arc-cli/core'

/**
 * The spec's six keys (ENTER, BACK, DEL, HOME, TAB, SPACE) and any other Android key event by name or number.
 * `--json` gives `{key: "KEYCODE_<NAME>", code}`, the same shape as `press back`, `press home` and `press recents`.
 */

/**
 * Not a key event: the focused field's editor action, what the keyboard's action key does (search, send, go, done:
 * the field's imeOptions). KEYCODE_ENTER is handed to a TextView's listener as IME_NULL (AOSP TextView.onKeyUp), so
 * a field waiting for IME_ACTION_SEARCH ignores ENTER; this performs the action itself (driver.pressEditorAction).
 */
export const EDITOR_ACTION = 'EDITOR_ACTION'

function holdsFocus(node: UiNode): boolean {
  return node.focused || node.children.some(holdsFocus)
}

/** Keys that act on the focused element: with nothing focused they would go nowhere, so arc refuses them. */
const NEED_FOCUS = new Set<string>(['KEYCODE_ENTER', 'KEYCODE_DEL', 'KEYCODE_TAB', 'KEYCODE_SPACE'])

export const pressKey = defineTool({
  name: 'press_key',
  title: 'Press a key',
  description:
    "Presses one key, sent as its Android key event to whatever has focus: the spec's ENTER, BACK, DEL (backspace), HOME, TAB or SPACE, or any Android keycode by name with or without KEYCODE_ (VOLUME_UP, POWER, MENU, DPAD_CENTER, F1…) or by keycode number (24 is VOLUME_UP); EDITOR_ACTION runs the focused field's keyboard action (search, send, done), which ENTER may not (needs arc's helper, Android 11+). ENTER, DEL, TAB and SPACE need a focused element: the screen is read first and the key refused when nothing has focus in the window that has the input focus (a dialog over a focused field). Returns {key: \"KEYCODE_<NAME>\", code}.",
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
    if (key.trim().toUpperCase() === EDITOR_ACTION) {
      const capture = await driver.captureScreen()
      const windows = capture.hierarchy?.windows ?? parseUiDump(capture.xml).windows
      if (![...walkNodes(windows)].some((n) => n.focused && isEditable(n))) {
        throw new ElementNotFoundError(
          'no focused text field: EDITOR_ACTION goes to the field that has input focus, and no text field has it',
          {
            actions: ['Tap or click a text field first (arc click <id>), then press its action key.'],
            details: {key: EDITOR_ACTION},
          }
        )
      }
      await driver.pressEditorAction()
      // No key event was sent, so there is no keycode.
      return {text: `Key '${EDITOR_ACTION}' pressed successfully`, data: {key: EDITOR_ACTION, code: null}}
    }
    const resolved = resolveKey(key, 'argument <key>')
    if (NEED_FOCUS.has(resolved.key)) {
      const capture = await driver.captureScreen()
      const hierarchy = capture.hierarchy ?? parseUiDump(capture.xml)
      const windows = hierarchy.windows
      if (![...walkNodes(windows)].some((n) => n.focused)) {
        throw new ElementNotFoundError(
          `no focused element: ${resolved.label} goes to the focused element, and nothing on the screen has focus`,
          {
            actions: ['Tap or click a field first (arc click <id>), then press the key.'],
            details: {key: resolved.key},
          }
        )
      }
      // Keys go to the window with the input focus alone (InputDispatcher findFocusedWindowTargetsLocked), and each
      // window keeps a focused view of its own: a form's field still says focused under a dialog that has the input
      // focus. With nothing focused in that window, the key reaches no element there (ENTER or SPACE would move the
      // dialog's focus to a button, so the next one clicks it: ViewRootImpl leaves touch mode on such keys).
      const holder = buildScreenModel({...capture, hierarchy}).windows.find((w) => w.focused)
      if (holder && !holdsFocus(holder.root)) {
        const [l, t, r, b] = holder.root.bounds
        const name = holder.title ?? holder.pkg
        throw new ElementNotFoundError(
          `no focused element in the window that has the input focus, ${JSON.stringify(name)} [${l},${t}][${r},${b}]: ${resolved.label} goes to that window, not to the element focused in a window under it`,
          {
            actions: [
              'Close or finish what that window shows first (arc press back, or a click on its button), then press the key.',
            ],
            details: {key: resolved.key, focused_window: {name, type: holder.type, bounds: [l, t, r, b]}},
          }
        )
      }
    }
    await driver.pressKey(resolved.word)
    return {text: `Key '${resolved.label}' pressed successfully`, data: {key: resolved.key, code: resolved.code}}
  },
})
