/**
 * The typing tools over ADB: focus the field (a tap on it), place the cursor with key events (several in one
 * command), type with `input text` in chunks paced by typing_speed (other text through ADBKeyBoard, where the
 * device has it), then read the field back. What the field holds must be what the edit should give; anything else
 * is an error, never a silent success. docs/devices.md says what this can and cannot do.
 */
import {
  buildScreenModel,
  DeviceCommandError,
  defineTool,
  ElementNotFoundError,
  InvalidInputError,
  isEditable,
  UnsupportedError,
  type ScreenCapture,
  type ScreenElement,
  type ScreenModel,
  type UiNode,
  type ToolContext,
  z,
  elementIdOmittable,
  fieldActionInput,
  foundBy,
  resolveTarget,
  selectorData,
  actionSelectorInput,
  targetId,
  type Target,
  type TargetInput,
  type TextKind,
} from '@arc-cli/core'

import {visibleRect} from './element-support.js'
import {touchPoint} from './touch-target.js'

/** Characters typed per `input text` command; typing_speed paces the gaps between these chunks. */
export const TYPE_CHUNK = 20
const MAX_TEXT = 2000

const typingFields = {
  typing_speed: z
    .number()
    .int()
    .min(10)
    .max(5000)
    .default(70)
    .describe('Base delay in ms between typed chunks (10-5000)'),
  typing_speed_variance: z
    .number()
    .int()
    .min(0)
    .default(15)
    .describe('Random variance in ms, clamped to [0, typing_speed]'),
}
const textField = (what: string) =>
  z.string().min(1).max(MAX_TEXT).describe(`${what} (1-${MAX_TEXT} characters; non-ASCII needs ADBKeyBoard)`)

/**
 * Whether the device can type the text, asked before anything is sent: UNSUPPORTED (naming the input and the
 * characters) for what it cannot type, such as non-ASCII without ADBKeyBoard.
 */
async function checkTypable(ctx: ToolContext, text: string, input: string): Promise<void> {
  try {
    await ctx.driver.checkTypable(text)
  } catch (error) {
    if (error instanceof UnsupportedError) {
      throw new UnsupportedError(`${input}: ${error.message}`, {
        actions: error.actions,
        details: {input, ...error.details},
        cause: error,
      })
    }
    throw error
  }
}

/** What an edit field holds: its text, or '' when the dump shows its hint in place of text. */
function content(e: ScreenElement): string {
  const node = e.node
  if (node.hint !== undefined && node.text === node.hint) return ''
  return node.text
}

/**
 * Whether the field's text may be only its hint. An empty field shows its hint as its text, and the shell
 * `uiautomator dump` writes the `hint` attribute only from Android 16 on: where the dump has none, text in a field
 * may be the words of its hint over an empty field, and a field just emptied shows its hint.
 */
function mayBeHint(e: ScreenElement): boolean {
  return e.node.hint === undefined && e.node.text !== ''
}

interface Field {
  /** The field's target: its id, and the selector that found it, if one did. */
  target: Target
  element: ScreenElement
  before: string
  /** `before` may be the hint of an empty field (mayBeHint). */
  unsure: boolean
  /** A password field whose text this release never shows (hidesText): what it holds cannot be read. */
  hidden: boolean
  /** Taps the field when it is not focused (a tap gives it focus and the keyboard). */
  focus(): Promise<void>
}

/**
 * Resolves the target (an id, stale-safe, or a selector's one match) and checks it is an enabled edit field on
 * screen that a tap can reach when it needs one for focus. The tools that type a `text` select a field by its text
 * with `field_text` (`textKind`).
 */
async function resolveField(ctx: ToolContext, input: TargetInput, textKind: TextKind = 'text'): Promise<Field> {
  const target = await resolveTarget(ctx, input, {textKind})
  const {model, element, id} = target
  if (!isEditable(element.node)) {
    throw new InvalidInputError(`element ${id} (${element.className}) is not an editable text field`, {
      details: {element_id: id},
    })
  }
  if (!element.node.enabled)
    throw new InvalidInputError(`element ${id} (${element.className}) is disabled`, {details: {element_id: id}})
  // The focus tap goes where a click would, and is refused where a click is (touch-target.ts): a field behind the
  // keyboard is never tapped through a key. A field that has the focus takes the text without a tap, wherever it is.
  if (!visibleRect(element, model)) {
    throw new InvalidInputError(`element ${id} is off screen: no part of it can be touched`, {
      actions: [`Bring it into view first: arc scroll-to ${id}`],
      details: {element_id: id},
    })
  }
  // A field focused within a window that does not have the input focus (a dialog or a menu over it took it) takes
  // no keys: refused, as a tap to move the focus back would land on, or dismiss, what holds it.
  if (element.node.focused) refuseOtherWindowFocus(model, element, id)
  const point = element.node.focused ? undefined : touchPoint(target, 'type again')
  return {
    target,
    element,
    before: content(element),
    unsure: mayBeHint(element),
    hidden: await hidesText(ctx, element),
    async focus() {
      if (!point) return
      await ctx.driver.tap(point)
      await checkFocusTaken(ctx, id)
    },
  }
}

/**
 * Fails when another window than the field's holds the input focus. Each window keeps a focused view of its own (AOSP
 * View.isFocused is a view's flag within its window, and View.onInitializeAccessibilityNodeInfoInternal dumps it as
 * `focused`), so a form's field stays `focused` under the rename dialog or the menu opened over it, while the input
 * dispatcher hands keys only to the focused window (InputDispatcher findFocusedWindowTargetsLocked): text and deletes
 * meant for the field would go into the dialog's own field, or to its buttons. Where the read does not say which
 * window has the focus, nothing is refused.
 */
function refuseOtherWindowFocus(model: ScreenModel, field: ScreenElement, id: string): void {
  const holder = model.windows.find((w) => w.focused)
  if (!holder || holder === field.window) return
  const [l, t, r, b] = holder.root.bounds
  const name = holder.title ?? holder.pkg
  throw new DeviceCommandError(
    `the field ${id} has the focus within its window, but the input focus is on another window, ${JSON.stringify(name)} [${l},${t}][${r},${b}], over it: keys and text would go there, so nothing was typed`,
    {
      actions: [
        'Finish or close what that window shows first (a dialog, a menu: read the screen, then click its button or arc press back), then type again.',
      ],
      details: {
        element_id: id,
        reason: 'FOCUS_IN_OTHER_WINDOW',
        focused_window: {name, ...(holder.pkg ? {package: holder.pkg} : {}), type: holder.type, bounds: [l, t, r, b]},
      },
    }
  )
}

/**
 * Android 8.0 (API 26): the first release whose dump shows a password field's text. Up to 7.1 TextView's
 * onInitializeAccessibilityNodeInfoInternal set no text for a password field (`if (!isPassword ||
 * shouldSpeakPasswordsForAccessibility())` around `info.setText`, that accessibility setting off by default), so the
 * dump says `text=""` whatever it holds; from 8.0 it sets the text the field draws (getTextForAccessibility: the
 * hint when empty, else the dots of the transformed text).
 */
const PASSWORD_TEXT_SDK = 26

/**
 * Whether `element` is a password field whose dump shows no text because the release never shows one: what it holds
 * cannot be read, so an edit can be neither placed nor checked. The release is asked only for such a field.
 */
async function hidesText(ctx: ToolContext, element: ScreenElement): Promise<boolean> {
  if (!element.node.password || element.node.text !== '') return false
  // A device that cannot say its release (a failed read) is typed into as before: the read-back still checks.
  const sdk = await ctx.driver.deviceInfo().then(
    (info) => info.sdk,
    () => undefined
  )
  return sdk !== undefined && sdk < PASSWORD_TEXT_SDK
}

/** UNSUPPORTED for an edit that must know what a hidden password field holds (clear, insert, replace). */
function refuseHidden(field: Field, what: string): void {
  if (!field.hidden) return
  const id = field.target.id
  throw new UnsupportedError(
    `element ${id} is a password field, and before Android 8.0 a screen read shows no text of a password field: arc cannot tell what it holds, so it cannot ${what} and check it; nothing was sent`,
    {
      actions: [
        `Empty it the way the app offers (its clear button, or the screen opened anew), then type into it: arc type append ${id} TEXT`,
      ],
      details: {element_id: id, reason: 'PASSWORD_TEXT_HIDDEN'},
    }
  )
}

/** The node itself or one inside it has the input focus (a composite editor focuses its inner field). */
function hasFocus(node: UiNode): boolean {
  return node.focused || node.children.some(hasFocus)
}

/**
 * After the tap that was to focus field `id`: the field must hold the input focus now, since keys and text go to
 * whatever view has it, not to a place. A field whose tap opened another screen (a search box that starts a search
 * page with a field of its own, a date field that opens a picker), or one that does not take the focus on a touch
 * (AOSP View.onTouchEvent requests focus only for a view focusable in touch mode), leaves it with another view, and
 * the text, or a clear's deletes, would land there. Nothing more is sent then.
 */
async function checkFocusTaken(ctx: ToolContext, id: string): Promise<void> {
  const model = buildScreenModel(await ctx.driver.captureScreen())
  const field = model.byId.get(id)
  if (field && hasFocus(field.node)) {
    refuseOtherWindowFocus(model, field, id)
    return
  }
  const holder = model.elements.find((e) => e.node.focused && isEditable(e.node))
  const where = !field
    ? 'the tap changed the screen and the field is no longer on it'
    : holder
      ? `the focus is on another field, ${holder.id}${holder.resId ? ` (${holder.resId})` : ''}`
      : 'no field has the focus'
  throw new DeviceCommandError(
    `the field ${id} did not take the focus when tapped (${where}): nothing was typed, since the text would go to whatever has the focus`,
    {
      actions: ['Read the screen again (arc screen-state) to see what the tap did, and type into the field it shows.'],
      details: {element_id: id, reason: 'FOCUS_NOT_TAKEN', ...(holder ? {focused: holder.id} : {})},
    }
  )
}

/** Resolves the field as resolveField does, by id or by the typing tools' selectors (--field-text …), and focuses it. */
async function focusField(ctx: ToolContext, input: TargetInput): Promise<Field> {
  const field = await resolveField(ctx, input, 'field_text')
  await field.focus()
  return field
}

/**
 * The selector of the tools that take words after the element id (append, insert, replace): `--text` would be
 * what to type, so the field's text is `--field-text`; the command line may leave the id out for a selector.
 */
/** What `--text` gets on those commands, which would otherwise be oclif's "Nonexistent flag". */
const fieldTextHint = {
  text: 'the text to type is an argument here; to pick the field by the text it shows, use --field-text',
}

const graphemes = new Intl.Segmenter('en', {granularity: 'grapheme'})

/** The UTF-16 offsets where `text`'s grapheme clusters start, and its length: where a cursor key can stop. */
function cursorStops(text: string): number[] {
  return [...[...graphemes.segment(text)].map((g) => g.index), text.length]
}

/** The UTF-16 index of code point `n` of `text` (`offset` counts code points, as Android's text does). */
function codePointIndex(text: string, n: number): number {
  return [...text].slice(0, n).join('').length
}

/** How many code points `text` has: the unit `offset` and the lengths arc reports count in. */
export function codePoints(text: string): number {
  return [...text].length
}

/**
 * Moves the focused field's cursor to the start or the end of its whole text. MOVE_HOME and MOVE_END would not: they
 * go to the edges of the *visual* line the cursor is on (BaseMovementMethod.handleMovementKey: home()/end(), which
 * ArrowKeyMovementMethod takes to lineStart/lineEnd, Selection.moveToLeftEdge/moveToRightEdge by
 * layout.getLineForOffset), and the focus tap leaves the cursor where the finger touched (Editor.onFocusChanged:
 * getLastTapPosition): in a field whose text wraps or holds line breaks, the middle of its text. The whole text's
 * edges are ALT+DPAD_UP and ALT+DPAD_DOWN, in a View (BaseMovementMethod.handleMovementKey: DPAD_UP/DOWN with
 * META_ALT_ON give top()/bottom(), ArrowKeyMovementMethod's Selection.setSelection to 0 or the text's length) and in
 * Compose (androidx.compose.foundation.text KeyMapping.android.kt: Alt+Up HOME, Alt+Down END); an arrow with a
 * modifier never takes the focus out of a field (ViewRootImpl.performFocusNavigation moves it only for unmodified
 * ones).
 *
 * Where no modified key can be sent (plain ADB before Android 13, without arc's helper), MOVE_HOME/MOVE_END go first;
 * a password field stops there (its input type is one line: TextView.setInputType makes a field single-line unless
 * TYPE_TEXT_FLAG_MULTI_LINE), any other is asked where the cursor went (locateCursor) and cursor keys, one per
 * grapheme cluster, take it on to the edge.
 */
async function toTextEdge(ctx: ToolContext, field: Field, edge: 'start' | 'end'): Promise<void> {
  try {
    await ctx.driver.pressKeyWith(['ALT'], edge === 'start' ? 'DPAD_UP' : 'DPAD_DOWN')
    return
  } catch (error) {
    if (!(error instanceof UnsupportedError) || error.details?.reason !== 'KEY_MODIFIERS_UNSUPPORTED') throw error
  }
  // MOVE_HOME/END and the cursor keys after them go by how the text is drawn (refuseRtl).
  if (!field.element.node.password) refuseRtl(field)
  if (!field.element.node.password) refuseReleaseCounted(field, field.before)
  await ctx.driver.pressKeys([edge === 'start' ? 'MOVE_HOME' : 'MOVE_END'])
  if (field.element.node.password) return
  const at = await locateCursor(ctx, field)
  const stops = cursorStops(field.before)
  const step = stops.indexOf(at)
  const keys =
    edge === 'start' ? Array<string>(step).fill('DPAD_LEFT') : Array<string>(stops.length - 1 - step).fill('DPAD_RIGHT')
  if (keys.length > 0) await ctx.driver.pressKeys(keys)
}

/**
 * Characters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, the
 * supplementary-plane RTL blocks) and the right-to-left marks and embeddings (RLM, RLE, RLO, RLI): more than the
 * strong R/AL characters of the bidi algorithm (Arabic-Indic digits are weak), never fewer.
 */
const RIGHT_TO_LEFT =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u

/**
 * Refuses, before any key is sent, to move the cursor by keys through text that holds right-to-left characters. The
 * cursor keys go by how the text is drawn, not by its order (Selection.moveLeft/moveRight take
 * Layout.getOffsetToLeftOf/RightOf, whose getOffsetToLeftRightOf *advances* on a left move in a right-to-left
 * paragraph and steps visual run by run in mixed text; MOVE_HOME/MOVE_END go to the line's left/right edge,
 * Selection.findEdge, which is its end/start there). Counted in the text's order, DPAD_LEFT from the end of an
 * Arabic or Hebrew paragraph moves no cursor: the key is not taken and the focus goes to the next control
 * (ViewRootImpl.performFocusNavigation), which the text typed next would land in, or a space click. Compose goes by
 * the paragraph's direction too (androidx.compose.foundation.text TextPreparedSelection.kt,
 * BaseTextPreparedSelection.moveCursorLeft: the next character where the text is not left-to-right). ALT+DPAD_UP and
 * ALT+DPAD_DOWN set the selection to 0 or the text's length (ArrowKeyMovementMethod.top/bottom): whole-text edges need
 * no cursor key and stay allowed.
 */
function refuseRtl(field: Field): void {
  const rtl = RIGHT_TO_LEFT.exec(field.before)
  if (!rtl) return
  const id = field.target.id
  throw new UnsupportedError(
    `element ${id} holds right-to-left text (${JSON.stringify(rtl[0])} at index ${rtl.index}): Android's cursor keys move by how text is drawn, so there DPAD_LEFT goes forward and at the text's end takes the focus out of the field; arc cannot place the cursor inside it by keys: no key or text was sent`,
    {
      actions: [
        `Type at the whole text's start or end (arc type insert ${id} TEXT --offset 0, arc type append ${id} TEXT; they need the helper, --helper auto, or Android 13+), or clear the field (arc type clear ${id}) and type its whole text.`,
      ],
      details: {element_id: id, reason: 'RIGHT_TO_LEFT_TEXT'},
    }
  )
}

/**
 * Invisible format characters (general category Cf: the soft hyphen, zero-width space, LRM and RLM, the word joiner,
 * the byte order mark…) other than those that always join the character before them (Grapheme_Extend, and ZWJ): how
 * many cursor keys step over one depends on the release. Newer minikin keeps a format character with the character
 * before it (GraphemeBreak::isGraphemeBreak), so one key steps over both, where older releases and Unicode's own
 * grapheme rules (UAX #29: Control) give it a cursor stop of its own, as arc counts. Counted arc's way on a newer phone,
 * the keys go one past the target for each such character, and at the text's edge out of the field.
 */
const RELEASE_COUNTED = /(?!\u200d)(?=\p{Cf})\P{Grapheme_Extend}/u

/**
 * Refuses, before any key is sent, cursor keys across `crossed` (the part of the field's text they would step over)
 * where it holds a format character whose cursor stops differ by release (RELEASE_COUNTED).
 */
function refuseReleaseCounted(field: Field, crossed: string): void {
  const found = RELEASE_COUNTED.exec(crossed)
  if (!found) return
  const id = field.target.id
  const code = `U+${(found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`
  throw new UnsupportedError(
    `element ${id} holds an invisible format character (${code}) where the cursor keys would cross it: Android releases differ on whether a cursor key steps over it alone or with the character before it, so arc cannot count the keys: no key or text was sent`,
    {
      actions: [
        `Type at the whole text's start or end (arc type insert ${id} TEXT --offset 0, arc type append ${id} TEXT), or clear the field (arc type clear ${id}) and type its whole text.`,
      ],
      details: {element_id: id, character: code, reason: 'FORMAT_CHARACTER'},
    }
  )
}

/**
 * Before the focus tap, so nothing at all is sent: refuses cursor keys that arc cannot aim or count through the
 * field's text to UTF-16 index `at`, from whichever whole-text edge placeCursor will start (right-to-left text,
 * format characters whose stops differ by release). No keys (`at` at an edge): nothing to refuse.
 */
function refuseUnplaceable(field: Field, at: number): void {
  const stops = cursorStops(field.before)
  const step = stops.indexOf(at)
  const last = stops.length - 1
  const fromStart = step <= last - step
  if ((fromStart ? step : last - step) === 0) return
  refuseRtl(field)
  refuseReleaseCounted(field, fromStart ? field.before.slice(0, at) : field.before.slice(at))
}

/** Characters locateCursor may type, the first one the field's text lacks: digits first, which number fields take. */
const LOCATE_PROBES = '0123456789xqjz'

/**
 * Where the focused field's cursor is (a UTF-16 index of `field.before`), found without reading the cursor, which a
 * dump does not show: one character the text lacks is typed at the cursor, the field read back, and where that
 * character went in is where the cursor was; it is deleted again (one DEL, the cursor being right behind it) and the
 * field read once more, which must show its text as before. A field that was empty under its hint's words (`unsure`)
 * shows the character alone: `field.before` becomes ''. Anything else (a field that reformats or refuses what is
 * typed) is an error that says what the field holds.
 */
async function locateCursor(ctx: ToolContext, field: Field): Promise<number> {
  const id = field.target.id
  const text = field.before
  const probe = [...LOCATE_PROBES].find((c) => !text.includes(c)) ?? PROBE
  await ctx.driver.inputText(probe)
  const shown = content(await readProbed(ctx, id, probe))
  const empty = field.unsure && shown === probe
  const places = empty ? [0] : cursorStops(text).filter((k) => text.slice(0, k) + probe + text.slice(k) === shown)
  const lost = (now: string, undone: string) =>
    new DeviceCommandError(
      `arc could not find the cursor in the field ${id}: this device takes no modified keys (no helper, Android before 13), so one character ${JSON.stringify(probe)} was typed to see where it went; the field showed ${JSON.stringify(text)}, then ${JSON.stringify(shown)}${undone}; nothing more was typed`,
      {
        actions: [
          'The field may reformat or filter what is typed: clear it (arc type clear) and type its whole text, or use the helper (--helper auto), which needs no probe.',
        ],
        details: {element_id: id, expected: text, actual: shown, now, reason: 'CURSOR_NOT_FOUND'},
      }
    )
  if (places.length !== 1) {
    // Where it went cannot be told (the field reformatted or dropped it): taken out again as the hint probe is.
    const now = await undoProbe(ctx, id, text, shown)
    throw lost(now, probeUndone(text, shown, now))
  }
  await ctx.driver.pressKeys(['DEL'])
  const after = content(await readField(ctx, id))
  if (empty ? after !== '' && after !== text : after !== text)
    throw lost(after, `, and after one DEL ${JSON.stringify(after)}, not what it showed before`)
  if (empty) field.before = ''
  field.unsure = false
  return places[0] as number
}

/**
 * Puts the cursor at UTF-16 index `at` of the field's text, then sends `then` (the DELs of a replace) in the same
 * command as the cursor keys: from the start or the end of the whole text (toTextEdge), whichever takes fewer cursor
 * keys. A cursor key steps over a whole grapheme cluster on Android (an emoji with its modifiers, a letter with its
 * combining marks: Layout.getOffsetToLeftOf/RightOf), and across the end of a visual line to the next, so the keys
 * are counted in clusters: never more than the field holds, since one more would move the focus out of the field to
 * the next control (ViewRootImpl's focus navigation), where a confirm key (a space typed next) would click it.
 */
async function placeCursor(ctx: ToolContext, field: Field, at: number, then: string[] = []): Promise<void> {
  const stops = cursorStops(field.before)
  const step = stops.indexOf(at)
  const last = stops.length - 1
  const fromStart = step <= last - step
  refuseUnplaceable(field, at)
  await toTextEdge(ctx, field, fromStart ? 'start' : 'end')
  // locateCursor may have found an unsure field empty: its text (and where `at` lies) is then ''.
  const [now, target] = field.before === '' ? [[0], 0] : [cursorStops(field.before), step]
  const keys = fromStart
    ? Array<string>(target).fill('DPAD_RIGHT')
    : Array<string>(now.length - 1 - target).fill('DPAD_LEFT')
  if (keys.length + then.length > 0) await ctx.driver.pressKeys([...keys, ...then])
}

/**
 * How many DELs delete `text.slice(from, to)` from its end: one per code point, but one per emoji sequence (ZWJ
 * sequences, skin tones, flags, keycaps, variation selectors), as AOSP BaseKeyListener.getOffsetForBackspaceKey
 * deletes them.
 */
function backspaces(text: string, from: number, to: number): number {
  let count = 0
  for (const {segment, index} of graphemes.segment(text)) {
    if (index < from || index >= to) continue
    // One DEL takes a whole emoji sequence, and a CR LF whole (BaseKeyListener.getOffsetForBackspaceKey: STATE_LF
    // deletes the CR before a LF too; Compose deletes the preceding grapheme cluster): else one code point.
    count +=
      segment === '\r\n' || /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3|\ufe0f/u.test(segment)
        ? 1
        : codePoints(segment)
  }
  return count
}

/** INVALID_INPUT when UTF-16 index `at` falls inside a grapheme cluster, where no cursor key can stop. */
function checkStop(text: string, at: number, what: string, details: Record<string, unknown>): void {
  if (cursorStops(text).includes(at)) return
  const cluster =
    [...graphemes.segment(text)].find((g) => g.index < at && g.index + g.segment.length > at)?.segment ?? ''
  throw new InvalidInputError(
    `${what} falls inside ${JSON.stringify(cluster)} (${codePoints(cluster)} code points that a cursor key steps over whole): pick a position before or after it`,
    {details}
  )
}

/**
 * Types in chunks of TYPE_CHUNK into `field`, waiting typing_speed ± variance (variance clamped to [0,
 * typing_speed]) between chunks; the driver sends text it types in one piece (through an input method) as one call.
 * Between chunks, where the device reads its screen cheaply, the field must still have the focus (checkFocusKept).
 */
function typeText(ctx: ToolContext, field: Field, text: string, speed: number, variance: number): Promise<void> {
  const spread = Math.min(Math.max(variance, 0), speed)
  // The command's deadline grows with the work asked: the pauses between chunks at first, then with each chunk sent
  // the pauses still to come plus the base limit from then, so a device whose every call is slow (a VM start each, up
  // to Android 11) is given time chunk by chunk.
  const chunks = Math.ceil(text.length / TYPE_CHUNK)
  ctx.expectWork?.((chunks - 1) * (speed + spread))
  // How many characters went so far, for checkFocusKept (a password field's are never quoted).
  let typed = 0
  return ctx.driver.inputText(text, {
    chunk: TYPE_CHUNK,
    gapMs: () => speed + Math.round((Math.random() * 2 - 1) * spread),
    signal: ctx.signal,
    progress: (message) => ctx.progress(message),
    sent: (done) => {
      typed = Math.min(done * TYPE_CHUNK, text.length)
      ctx.expectWork?.((chunks - done) * (speed + spread))
    },
    check: (screen) => checkFocusKept(screen, field, text, typed),
  })
}

/**
 * An element as an error names it: its id, what it is, its resource-id and its words. `secret`: what was typed was a
 * password, whose rest may be in that element's words: they are left out.
 */
function named(e: ScreenElement, secret = false): string {
  const what = isEditable(e.node) ? 'the field' : e.className.slice(e.className.lastIndexOf('.') + 1)
  return `${what} ${e.id}${e.resId ? ` (${e.resId})` : ''}${e.text && !e.node.password && !secret ? ` ${JSON.stringify(e.text)}` : ''}`
}

/**
 * Between typed chunks (the driver asks it only where a screen read is cheap: docs/devices.md): field `id` must
 * still have the input focus, in the window that has it. An app may move the focus while text goes in (PIN and OTP
 * boxes that move on by themselves, a form that jumps to the next field once one is full: a TextWatcher calling
 * requestFocus; a search box that opens a results page), and the rest would go to another field, or to a button
 * that a space clicks (KeyEvent.isConfirmKey). Nothing more is sent then: FOCUS_MOVED, naming what was sent and
 * where the focus is. The move can come within a chunk: the end of the last chunk sent may be where the focus went.
 */
function checkFocusKept(screen: ScreenCapture, typing: Field, text: string, typed: number): void {
  const id = typing.target.id
  const model = buildScreenModel(screen)
  const field = model.byId.get(id)
  const holder = model.windows.find((w) => w.focused)
  if (field && hasFocus(field.node) && (!holder || holder === field.window)) return
  const focused = model.elements.find((e) => e.node.focused && (!holder || e.window === holder))
  const at = focused ? `the focus is on ${named(focused, typing.element.node.password)}` : 'no view has the focus'
  const where = !field
    ? `the field left the screen, and ${at}`
    : holder && holder !== field.window
      ? `a window over it, ${JSON.stringify(holder.title ?? holder.pkg)}, has the input focus, and ${at}`
      : at
  throw new DeviceCommandError(
    `the focus left the field ${id} while typing: ${where}. ${typed} of ${text.length} characters were sent${typing.element.node.password ? '' : ` (${JSON.stringify(text.slice(0, typed))})`}, the end of them maybe where the focus went; the other ${text.length - typed} were not typed`,
    {
      actions: [
        'Read the screen (arc screen-state) to see what each field holds, then type the rest into the field meant for it (boxes that move on by themselves: type each box its own part).',
      ],
      details: {
        element_id: id,
        reason: 'FOCUS_MOVED',
        typed,
        not_typed: text.length - typed,
        ...(focused ? {focused: focused.id} : {}),
      },
    }
  )
}

/** The field as the screen shows it now, with that screen; an error when it left the screen. */
async function readFieldOn(ctx: ToolContext, id: string): Promise<{element: ScreenElement; model: ScreenModel}> {
  const model = buildScreenModel(await ctx.driver.captureScreen())
  const element = model.byId.get(id)
  if (!element) {
    throw new DeviceCommandError(`element ${id} left the screen while typing; what it holds cannot be checked`, {
      actions: ['Read the screen again to see what happened.'],
      details: {element_id: id, reason: 'FIELD_LEFT_SCREEN'},
    })
  }
  return {element, model}
}

/** The field as the screen shows it now; an error when it left the screen. */
async function readField(ctx: ToolContext, id: string): Promise<ScreenElement> {
  return (await readFieldOn(ctx, id)).element
}

/** What has the focus instead of `field`, where another view of the window holding the input focus has it. */
function focusedInstead(model: ScreenModel, field: ScreenElement): ScreenElement | undefined {
  if (hasFocus(field.node)) return undefined
  const holder = model.windows.find((w) => w.focused) ?? field.window
  return model.elements.find((e) => e.node.focused && e.window === holder)
}

/** Whether the field shows `expected` (a password field: as many characters). */
function holds(element: ScreenElement, now: string, expected: string): boolean {
  return element.node.password ? now.length === expected.length : now === expected
}

/**
 * TEXT_NOT_TAKEN. `moved`: what has the focus now instead of the field (an app that moves it on once the field is
 * full, within text typed in one piece or the last chunk, where no check between chunks could stop it): named, as
 * the rest of the text may have gone there. `secret`: a password field, whose texts are given as lengths only (the
 * expected text holds what was typed: the password).
 */
function mismatch(
  id: string,
  expected: string,
  now: string,
  unsure = false,
  moved?: ScreenElement,
  secret = false
): DeviceCommandError {
  const why = moved
    ? `: the focus moved on to ${named(moved, secret)} while the text went in, and the rest of it may be there`
    : unsure
      ? " (its text before the edit may have been only its hint, shown over an empty field: this device's dump does not say)"
      : ' (the app may filter, limit or reformat input)'
  const texts = secret
    ? `expected ${expected.length} characters (a password field: not shown), it holds ${now.length}`
    : `expected ${JSON.stringify(expected)}, it holds ${JSON.stringify(now)}`
  return new DeviceCommandError(`the field ${id} does not hold what was typed: ${texts}${why}`, {
    ...(moved
      ? {actions: ['Read the screen (arc screen-state) to see what each field holds; type each field its own part.']}
      : {}),
    details: {
      element_id: id,
      // A password field draws one dot per UTF-16 unit (PasswordTransformationMethod), which the dump shows.
      ...(secret ? {expected_length: expected.length, actual_length: now.length} : {expected, actual: now}),
      reason: 'TEXT_NOT_TAKEN',
      ...(moved ? {focused: moved.id} : {}),
    },
  })
}

/**
 * Reads the field back and fails unless it holds `expected`, or, where the field's text before the edit may have
 * been only its hint (`unsure`), `ifEmpty`: what the same edit gives on an empty field. Returns what it holds, and
 * whether it was taken that way (`hintTaken`): the caller says so, since an app that replaced real text with what
 * was typed looks the same in such a dump.
 */
async function readBack(
  ctx: ToolContext,
  id: string,
  expected: string,
  {unsure = false, ifEmpty}: {unsure?: boolean; ifEmpty?: string} = {}
): Promise<{now: string; hintTaken: boolean}> {
  const {element, model} = await readFieldOn(ctx, id)
  const now = content(element)
  if (holds(element, now, expected)) return {now, hintTaken: false}
  if (unsure && ifEmpty !== undefined && holds(element, now, ifEmpty)) return {now, hintTaken: true}
  throw mismatch(id, expected, now, unsure, focusedInstead(model, element), element.node.password)
}

/** The line a result adds when the field's earlier text was taken as its hint (readBack's `hintTaken`). */
function hintNote(before: string, hintTaken: boolean): string {
  return hintTaken
    ? `\nIts earlier text ${JSON.stringify(before)} was taken as the hint of an empty field: this device's dump does not say which it was.`
    : ''
}

/** Typed into a field that may be empty but shows text, to see whether it is (mayBeHint). */
const PROBE = '0'

/**
 * After a probe typed into a field: where the field shows something else than `shown` (what it showed before the
 * probe), the probe went in, at the cursor, whatever the app then made of the text, and one DEL right after it, the
 * cursor still behind it, takes it out again: the field is read once more and what it holds now is returned. A field
 * that shows just what it showed dropped the probe (a filter, a full field): nothing is deleted, as a DEL would take
 * a character of the user's. Never leaves a probe behind unsaid.
 */
async function undoProbe(ctx: ToolContext, id: string, shown: string, probed: string): Promise<string> {
  if (probed === shown) return shown
  await ctx.driver.pressKeys(['DEL'])
  return content(await readField(ctx, id))
}

/**
 * The field right after a probe character went into it, failing where the field no longer has the focus: an app that
 * moves the focus on once a field is full (PIN and OTP boxes, a form that jumps to the next field: a TextWatcher
 * calling requestFocus) took it elsewhere as the probe went in, and a DEL to take the probe out would delete in the
 * control that has it now. FOCUS_MOVED, no DEL sent: the probe stays in the field, and the error says so.
 */
async function readProbed(ctx: ToolContext, id: string, probe: string): Promise<ScreenElement> {
  const {element, model} = await readFieldOn(ctx, id)
  if (hasFocus(element.node)) return element
  const moved = focusedInstead(model, element)
  const shows = element.node.password ? `${content(element).length} characters` : JSON.stringify(content(element))
  throw new DeviceCommandError(
    `the field ${id} lost the focus when a probe character ${JSON.stringify(probe)} went into it (arc types one to learn what the field holds or where its cursor is)${moved ? `: the app moved it on to ${named(moved)}` : ''}; no DEL was sent, as it would delete there, so the probe stays in the field, which shows ${shows}; nothing more was typed`,
    {
      actions: [
        `Read the screen (arc screen-state), then take the probe out of the field (arc type replace ${id} … or arc type clear ${id}) and type each field its own part.`,
      ],
      details: {element_id: id, reason: 'FOCUS_MOVED', probe, ...(moved ? {focused: moved.id} : {})},
    }
  )
}

/** How a probe's undoing ended, for an error's message: `; …` naming what the field holds now. */
function probeUndone(shown: string, probed: string, now: string): string {
  if (probed === shown) return '; it dropped the probe, so it still holds what it showed'
  return now === shown
    ? `; the probe was deleted again (one DEL), and it holds ${JSON.stringify(now)} as before`
    : `; the probe was deleted again (one DEL), and it holds ${JSON.stringify(now)} now, not what it showed before`
}

/**
 * Before cursor keys that step along the text: where that text may be only the hint of an empty field, find out, as
 * a cursor key past the end of an empty field moves the focus to the next control. One probe character is typed at
 * the end and deleted again: a field then holding just the probe was empty (`before` becomes ''), one holding its
 * text and the probe holds that text. A field that shows anything else (one that reformats what it holds, an amount
 * or a phone number field, or drops the probe) fails with PROBE_NOT_TAKEN, the probe taken out again (undoProbe).
 */
async function settleHint(ctx: ToolContext, field: Field): Promise<void> {
  if (!field.unsure) return
  const id = field.target.id
  await toTextEdge(ctx, field, 'end')
  if (!field.unsure) return
  await ctx.driver.inputText(PROBE)
  const element = await readProbed(ctx, id, PROBE)
  const probed = content(element)
  if (holds(element, probed, PROBE) || holds(element, probed, field.before + PROBE)) {
    await ctx.driver.pressKeys(['DEL'])
    if (!holds(element, probed, field.before + PROBE)) field.before = ''
    field.unsure = false
    return
  }
  const now = await undoProbe(ctx, id, field.before, probed)
  throw new DeviceCommandError(
    `the field ${id} did not take a probe character the way a field does: it showed ${JSON.stringify(field.before)}, and with ${JSON.stringify(PROBE)} typed at its end ${JSON.stringify(probed)}${probeUndone(field.before, probed, now)}; nothing more was typed`,
    {
      actions: [
        `The field may reformat or filter what is typed (an amount or a phone number field): type at its end (arc type append ${id} TEXT), or clear it and type the whole text.`,
      ],
      details: {element_id: id, expected: field.before + PROBE, actual: probed, now, reason: 'PROBE_NOT_TAKEN'},
    }
  )
}

/**
 * Checks a field is empty after a clear. Where the dump cannot tell an empty field from its hint's words and the
 * field still shows text, one probe character is typed: an empty field then holds just the probe, and the probe is
 * deleted again and the field must show what it showed before (its hint) or nothing; anything else is a failure,
 * the probe taken out again where it went in (undoProbe).
 */
async function confirmCleared(ctx: ToolContext, id: string): Promise<void> {
  const element = await readField(ctx, id)
  const shown = content(element)
  if (shown === '') return
  if (!mayBeHint(element)) throw mismatch(id, '', shown)
  await ctx.driver.inputText(PROBE)
  const probed = content(await readProbed(ctx, id, PROBE))
  if (!holds(element, probed, PROBE)) {
    const now = await undoProbe(ctx, id, shown, probed)
    throw new DeviceCommandError(
      `the field ${id} still holds text after the deletes: it shows ${JSON.stringify(shown)}, and a probe character typed into it gave ${JSON.stringify(probed)}, not the probe alone${probeUndone(shown, probed, now)}`,
      {
        details: {element_id: id, expected: '', actual: shown, now, reason: 'NOT_CLEARED'},
      }
    )
  }
  await ctx.driver.pressKeys(['DEL'])
  const after = content(await readField(ctx, id))
  if (after !== '' && after !== shown) throw mismatch(id, '', after)
}

export const typeAppendText = defineTool({
  name: 'type_append_text',
  title: 'Type text at the end of a field (by id or selector)',
  description:
    'Focuses the field, moves the cursor to its end and types the text, then reads the field back: "Field content: …" must end with what was typed. Non-ASCII needs ADBKeyBoard; stale ids fail with STALE_ELEMENT.',
  kind: 'action',
  needs: {screen: 'read', input: 'act', info: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'text',
  input: z.object({element_id: targetId, text: textField('Text to type'), ...typingFields}),
  cli: {
    id: 'type append',
    input: fieldActionInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id', 'text'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_hqx8qp "Hello World"',
      '<%= config.bin %> <%= command.id %> --res-id dev.arc.demo.groceries:id/new_item "Rye bread"',
    ],
    flagHints: fieldTextHint,
  },
  async handler(ctx, input) {
    const {text, typing_speed, typing_speed_variance} = input
    await checkTypable(ctx, text, 'text')
    const field = await focusField(ctx, input)
    const element_id = field.target.id
    await toTextEdge(ctx, field, 'end')
    await typeText(ctx, field, text, typing_speed, typing_speed_variance)
    if (field.hidden) {
      // Typed, and not checkable: said so, never a failure that a retry would answer by typing the text twice.
      await readField(ctx, element_id)
      return {
        text: `Typed ${text.length} characters at end of element '${element_id}'${foundBy(field.target)}.\nField content: not shown (a password field, whose text a screen read before Android 8.0 never shows): not checked`,
        data: {element_id, typed: text.length, content: null, checked: false, ...selectorData(field.target)},
      }
    }
    const {now, hintTaken} = await readBack(ctx, element_id, field.before + text, {unsure: field.unsure, ifEmpty: text})
    return {
      text: `Typed ${text.length} characters at end of element '${element_id}'${foundBy(field.target)}.\nField content: ${now}${hintNote(field.before, hintTaken)}`,
      data: {
        element_id,
        typed: text.length,
        content: now,
        ...(hintTaken ? {earlier_text_taken_as_hint: field.before} : {}),
        ...selectorData(field.target),
      },
    }
  },
})

export const typeInsertText = defineTool({
  name: 'type_insert_text',
  title: 'Type text at an offset in a field (by id or selector)',
  description:
    "Focuses the field, places the cursor at `offset` with key events (the whole text's start or end, then arrows) and types the text, then reads the field back. The offset must be within [0, current text length].",
  kind: 'action',
  needs: {screen: 'read', input: 'act', info: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'text',
  input: z.object({
    element_id: targetId,
    text: textField('Text to type'),
    offset: z
      .number()
      .int()
      .min(0)
      .describe(
        '0-based offset for the cursor in code points (an emoji is one or more), within [0, current text length]'
      ),
    ...typingFields,
  }),
  cli: {
    id: 'type insert',
    input: fieldActionInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id', 'text'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_hqx8qp "organic " --offset 4',
      '<%= config.bin %> <%= command.id %> --field-text "Rye bread" "Dark " --offset 0',
    ],
    flagHints: fieldTextHint,
  },
  async handler(ctx, input) {
    const {text, offset, typing_speed, typing_speed_variance} = input
    await checkTypable(ctx, text, 'text')
    const field = await resolveField(ctx, input, 'field_text')
    refuseHidden(field, 'place the cursor in it')
    if (offset > 0 && offset < codePoints(field.before)) refuseUnplaceable(field, codePointIndex(field.before, offset))
    await field.focus()
    const element_id = field.target.id
    const pastEnd = () =>
      new InvalidInputError(
        `offset ${offset} is past the end of the field's text (${codePoints(field.before)} characters): allowed 0-${codePoints(field.before)}`,
        {
          details: {input: 'offset', value: offset, max: codePoints(field.before)},
        }
      )
    if (offset > codePoints(field.before)) throw pastEnd()
    const earlier = field.before
    // Only the start or the end of a field that may show just its hint can be reached without finding out.
    if (offset > 0 && offset < codePoints(field.before)) {
      // Inside the text, cursor keys place the cursor: refused, before the hint probe, where they cannot.
      refuseRtl(field)
      await settleHint(ctx, field)
    }
    if (offset > codePoints(field.before)) throw pastEnd()
    const at = codePointIndex(field.before, offset)
    checkStop(field.before, at, `offset ${offset}`, {input: 'offset', value: offset})
    await placeCursor(ctx, field, at)
    await typeText(ctx, field, text, typing_speed, typing_speed_variance)
    const {now, hintTaken} = await readBack(
      ctx,
      element_id,
      field.before.slice(0, at) + text + field.before.slice(at),
      {unsure: field.unsure, ifEmpty: text}
    )
    return {
      text: `Typed ${text.length} characters at offset ${offset} in element '${element_id}'${foundBy(field.target)}.\nField content: ${now}${hintNote(earlier, hintTaken || field.before !== earlier)}`,
      data: {
        element_id,
        typed: text.length,
        offset,
        content: now,
        ...(hintTaken || field.before !== earlier ? {earlier_text_taken_as_hint: earlier} : {}),
        ...selectorData(field.target),
      },
    }
  },
})

export const typeReplaceText = defineTool({
  name: 'type_replace_text',
  title: 'Replace text in a field (by id or selector)',
  description:
    'Finds the first occurrence of `search` in the field, deletes it with key events and types `new_text` in its place (empty new_text only deletes), then reads the field back.',
  kind: 'action',
  needs: {screen: 'read', input: 'act', info: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'text',
  input: z.object({
    element_id: targetId,
    search: z.string().min(1).max(10000).describe('Text to find in the field (first occurrence, 1-10000 characters)'),
    new_text: z
      .string()
      .max(MAX_TEXT)
      .describe(`Replacement text (0-${MAX_TEXT} characters; empty deletes the found text)`),
    ...typingFields,
  }),
  cli: {
    id: 'type replace',
    input: fieldActionInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id', 'search', 'new_text'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_hqx8qp World Android',
      '<%= config.bin %> <%= command.id %> --res-id new_item World Android',
    ],
    flagHints: fieldTextHint,
  },
  async handler(ctx, input) {
    const {search, new_text, typing_speed, typing_speed_variance} = input
    if (new_text !== '') await checkTypable(ctx, new_text, 'new_text')
    const field = await resolveField(ctx, input, 'field_text')
    refuseHidden(field, 'find the text to replace in it')
    if (field.before.includes(search)) refuseUnplaceable(field, field.before.indexOf(search) + search.length)
    await field.focus()
    const element_id = field.target.id
    const notThere = () =>
      new ElementNotFoundError(
        `search text ${JSON.stringify(search)} is not in the field ${element_id} (it holds ${JSON.stringify(field.before)})`,
        {
          details: {element_id, search},
        }
      )
    if (!field.before.includes(search)) throw notThere()
    // The text to replace may be the hint's words over an empty field: found out before any cursor key or delete,
    // also where it ends the text (the deletes would find nothing, and new_text would go into the empty field).
    if (field.before.indexOf(search) + search.length < field.before.length) refuseRtl(field)
    await settleHint(ctx, field)
    const at = field.before.indexOf(search)
    if (at === -1) throw notThere()
    checkStop(field.before, at, `search text ${JSON.stringify(search)}`, {input: 'search', value: search})
    checkStop(field.before, at + search.length, `the end of search text ${JSON.stringify(search)}`, {
      input: 'search',
      value: search,
    })
    await placeCursor(
      ctx,
      field,
      at + search.length,
      Array<string>(backspaces(field.before, at, at + search.length)).fill('DEL')
    )
    if (new_text) await typeText(ctx, field, new_text, typing_speed, typing_speed_variance)
    const expected = field.before.slice(0, at) + new_text + field.before.slice(at + search.length)
    // Emptied, a field shows its hint, which dumps before Android 16 do not mark: check it as a clear does.
    let now = ''
    if (expected === '') await confirmCleared(ctx, element_id)
    else ({now} = await readBack(ctx, element_id, expected, {unsure: field.unsure}))
    return {
      text: `Replaced ${search.length} characters with ${new_text.length} characters in element '${element_id}'${foundBy(field.target)}.\nField content: ${now}`,
      data: {element_id, replaced: search.length, typed: new_text.length, content: now, ...selectorData(field.target)},
    }
  },
})

export const typeClearText = defineTool({
  name: 'type_clear_text',
  title: 'Clear a field (by id or selector)',
  description:
    'Deletes all text of the field with key events (backspace and forward-delete, as many as it has characters, in one command), then reads it back. An empty field is left alone.',
  kind: 'action',
  needs: {screen: 'read', input: 'act', info: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'text',
  input: z.object({element_id: targetId}),
  cli: {
    id: 'type clear',
    input: actionSelectorInput,
    mayOmit: elementIdOmittable,
    positional: ['element_id'],
    examples: [
      '<%= config.bin %> <%= command.id %> node_hqx8qp',
      '<%= config.bin %> <%= command.id %> --res-id dev.arc.demo.groceries:id/new_item',
    ],
  },
  async handler(ctx, input) {
    const field = await resolveField(ctx, input)
    refuseHidden(field, 'clear it')
    const element_id = field.target.id
    const result = {
      text: `Text cleared from element '${element_id}'${foundBy(field.target)}.\nField content: `,
      data: {element_id, content: '', ...selectorData(field.target)},
    }
    if (field.before === '') return result
    await field.focus()
    // Each DEL and FORWARD_DEL takes at least one code point (neither ever leaves the field).
    const n = codePoints(field.before)
    // Backspaces clear everything before the cursor and forward-deletes everything after it, wherever it is.
    await ctx.driver.pressKeys([...Array<string>(n).fill('DEL'), ...Array<string>(n).fill('FORWARD_DEL')])
    await confirmCleared(ctx, element_id)
    return result
  },
})
