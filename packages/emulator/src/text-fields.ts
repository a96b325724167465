/**
 * Edit fields of the emulated screen: a tap focuses the edit field under it, `input text` types at the cursor,
 * and cursor and delete keys move and delete, so the dump the device serves shows what was typed. As on a device, a
 * field that is empty shows its hint as its text, and only Android 16+ (API 36) write the `hint` attribute: the
 * shell `uiautomator dump` of Android 7-15 leaves it out, so its dump cannot tell an empty field from one holding
 * its hint's words. A scenario's `fields` rules can make a field drop or alter input, so a tool's read-back has
 * something to catch.
 */
import {focusMoveDue, keepsText, reformat} from './field-watchers.js'
import type {FieldRule} from './scenario.js'
import {contains, isTextEditor as isEditable, type ScreenNode as UiNode} from './screen-dump.js'
import type {LoadedScreen} from './snapshot-screen.js'

interface Focus {
  screen: string
  index: number
  cursor: number
  /** False once an arrow key took the focus out of the field to another control (its index): typing goes nowhere. */
  editable: boolean
  /**
   * The offset whose x a run of DPAD_UP/DOWN keeps to (Selection's SELECTION_MEMORY): set by the first of them,
   * dropped by any other cursor move or edit (Selection.setSelection without a memory, MemoryTextWatcher).
   */
  memory?: number
}

const KEY = {
  DPAD_UP: 19,
  DPAD_DOWN: 20,
  DPAD_LEFT: 21,
  DPAD_RIGHT: 22,
  DPAD_CENTER: 23,
  SPACE: 62,
  ENTER: 66,
  DEL: 67,
  FORWARD_DEL: 112,
  MOVE_HOME: 122,
  MOVE_END: 123,
  NUMPAD_ENTER: 160,
} as const

/**
 * The modifier groups of a KeyEvent meta state (AOSP KeyEvent.java META_* constants; normalizeMetaState makes a
 * left or right modifier count as its group). The lock states (CAPS, NUM, SCROLL LOCK) are no modifiers
 * (KeyEvent.metaStateHasNoModifiers masks them out).
 */
const META_GROUPS = {
  shift: 0x1 | 0x40 | 0x80,
  alt: 0x2 | 0x10 | 0x20,
  sym: 0x4,
  function: 0x8,
  ctrl: 0x1000 | 0x2000 | 0x4000,
  meta: 0x10000 | 0x20000 | 0x40000,
} as const

/**
 * What a key's meta state holds, as the keys of a field read it: no modifier, ALT alone, CTRL alone, or anything
 * else (SHIFT, META, SYM, FUNCTION, or two groups at once).
 */
export function modifiersOf(meta: number): 'none' | 'alt' | 'ctrl' | 'other' {
  const held = Object.entries(META_GROUPS)
    .filter(([, bits]) => (meta & bits) !== 0)
    .map(([group]) => group)
  if (held.length === 0) return 'none'
  if (held.length === 1 && (held[0] === 'alt' || held[0] === 'ctrl')) return held[0]
  return 'other'
}

/** Room each side of a field's text (its padding): the layout's width is the field's less twice this. */
export const FIELD_PADDING_PX = 24
/** A multi-line field's first line starts this far below the field's top. */
export const FIELD_TOP_PADDING_PX = 12
/** The layout defaults of a field rule (scenario.ts fieldSchema): each grapheme cluster's width, each line's height. */
export const DEFAULT_ADVANCE_PX = 24
export const DEFAULT_LINE_HEIGHT_PX = 48

/** One visual line of a field's text: [start, end) in UTF-16 offsets, its trailing spaces and line feed included. */
interface Line {
  start: number
  end: number
}

/**
 * A field's text laid out as a phone's StaticLayout lays it out, simplified: every grapheme cluster is `advance`
 * px wide and every line `lineHeight` px high; a multi-line field breaks lines after a line feed and, where the
 * text is wider than `width`, after the spaces before the word that does not fit (trailing spaces hang past the
 * edge, as LineBreaker lets them), inside a word only when that word alone is wider than a line. A single-line field
 * (SingleLineTransformationMethod shows a line feed as a space) is one line whatever it holds, scrolled to its start.
 * Offsets are UTF-16, as Android's are; the layout functions follow AOSP android.text.Layout (getLineForOffset,
 * getOffsetForHorizontal, getPrimaryHorizontal) and Selection (findEdge, moveUp, moveDown).
 */
class TextLayout {
  readonly lines: Line[]
  private readonly edges: number[]

  constructor(
    readonly text: string,
    multiLine: boolean,
    width: number,
    readonly advance: number,
    readonly lineHeight: number
  ) {
    this.edges = clusterEdges(text)
    this.lines = multiLine
      ? wrap(text, this.edges, Math.max(1, Math.floor(width / advance)))
      : [{start: 0, end: text.length}]
  }

  /** Layout.getLineForOffset: the last line starting at or before `offset` (a line's end is the next one's start). */
  lineFor(offset: number): number {
    let line = 0
    while (line + 1 < this.lines.length && (this.lines[line + 1] as Line).start <= offset) line++
    return line
  }

  /** The line at `y` px below the layout's top, clamped to the first and last (Layout.getLineForVertical). */
  lineAt(y: number): number {
    return Math.max(0, Math.min(this.lines.length - 1, Math.floor(y / this.lineHeight)))
  }

  /** The cursor stops (grapheme cluster edges) from `start` to `end`, both included when they are stops. */
  private stops(start: number, end: number): number[] {
    return this.edges.filter((e) => e >= start && e <= end)
  }

  /** Layout.getPrimaryHorizontal: how far right of the line's start `offset` lies, in px. */
  x(offset: number): number {
    const line = this.lines[this.lineFor(offset)] as Line
    return (this.stops(line.start, offset).length - 1) * this.advance
  }

  /**
   * Layout.getOffsetForHorizontal: the cursor stop of `line` nearest `x` px (the first of two as near). A line that
   * is not the last cannot take the cursor at its end, which is the next line's start: its last stop is the one
   * before (`max` there, one cluster left of the line end).
   */
  offsetAt(line: number, x: number): number {
    const {start, end} = this.lines[line] as Line
    const stops = this.stops(start, end)
    if (line < this.lines.length - 1 && stops.length > 1) stops.pop()
    const k = Math.ceil(x / this.advance - 0.5)
    return stops[Math.max(0, Math.min(stops.length - 1, k))] as number
  }

  /**
   * Selection.findEdge: the start of the cursor's line, or its end, which on a line that is not the last is one
   * before the line's end (before its line feed, or its trailing space); there it steps back one cluster, not one
   * UTF-16 unit, so a line broken inside a word never splits a surrogate pair.
   */
  edge(offset: number, right: boolean): number {
    const index = this.lineFor(offset)
    const {start, end} = this.lines[index] as Line
    if (!right) return start
    if (index === this.lines.length - 1) return end
    return [...this.edges].reverse().find((e) => e < end && e >= start) ?? start
  }
}

/**
 * Characters of the right-to-left scripts (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic and the
 * supplementary-plane RTL blocks) and the right-to-left marks (RLM, ALM): the strong R and AL characters of the
 * Unicode bidi algorithm, near enough.
 */
const RTL_STRONG = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u

/**
 * Whether the paragraph (the text between line feeds) holding `offset` runs right to left: its first strong
 * character is right-to-left (an EditText's default text direction is FIRST_STRONG: TextView.getTextDirectionHeuristic
 * gives TextDirectionHeuristics.FIRSTSTRONG_LTR in a left-to-right layout, so a paragraph with no strong character
 * runs left to right). Simplified: a letter outside the RTL_STRONG ranges counts as a strong left-to-right one.
 */
function paragraphIsRtl(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1
  const end = text.indexOf('\n', offset)
  for (const c of text.slice(start, end === -1 ? text.length : end)) {
    if (RTL_STRONG.test(c)) return true
    if (/\p{L}/u.test(c)) return false
  }
  return false
}

/** `text` broken into lines of at most `columns` clusters (TextLayout: breaks after spaces, in a word only if it must). */
function wrap(text: string, edges: number[], columns: number): Line[] {
  const lines: Line[] = []
  const cluster = (i: number) => text.slice(edges[i] as number, edges[i + 1] as number)
  // A line feed ends a paragraph (a CR LF is one cluster, ending in it).
  const breaks = (i: number) => cluster(i).endsWith('\n')
  const last = edges.length - 1
  let i = 0
  // The current line's first cluster, and whether a word is on it yet.
  let first = 0
  let words = false
  const endLine = (at: number) => {
    lines.push({start: edges[first] as number, end: edges[at] as number})
    first = at
    words = false
  }
  while (i < last) {
    if (breaks(i)) {
      endLine(++i)
      continue
    }
    if (cluster(i) === ' ') {
      // Spaces hang at the line's end: they never start a new line.
      i++
      continue
    }
    // A word: the clusters up to the next space or line feed.
    let j = i
    while (j < last && cluster(j) !== ' ' && !breaks(j)) j++
    const width = i - first
    if (words && width + (j - i) > columns) {
      // The word does not fit after what the line holds: the line ends before it, after the spaces.
      endLine(i)
      continue
    }
    if (j - i > columns - width) {
      // A word wider than a whole line: as much as fits, then a break inside it.
      i += columns - width
      endLine(i)
      continue
    }
    words = true
    i = j
  }
  lines.push({start: edges[first] as number, end: text.length})
  return lines
}

/** KeyEvent.isConfirmKey (AOSP frameworks/base core/java/android/view/KeyEvent.java): these click the focused view. */
const CONFIRM_KEYS: ReadonlySet<number> = new Set([KEY.DPAD_CENTER, KEY.ENTER, KEY.SPACE, KEY.NUMPAD_ENTER])

type Direction = 'left' | 'right' | 'up' | 'down'

const graphemes = new Intl.Segmenter('en', {granularity: 'grapheme'})

/** The offsets (UTF-16) between the grapheme clusters of `text`, 0 and its length included. */
function clusterEdges(text: string): number[] {
  const edges = [0]
  for (const {index, segment} of graphemes.segment(text)) edges.push(index + segment.length)
  return edges
}

/**
 * Where one DEL before `cursor` deletes from: a whole emoji sequence (ZWJ sequences, skin tones, flags, keycaps,
 * variation selectors) or a CR LF, else one code point, as AOSP BaseKeyListener.getOffsetForBackspaceKey does; so `é`
 * written as e and a combining accent takes two DELs, while 👍🏽 and a CR LF take one.
 */
function backspaceFrom(text: string, cursor: number): number {
  const start = [...clusterEdges(text)].reverse().find((e) => e < cursor) ?? 0
  // A LF with a CR before it goes with that CR (getOffsetForBackspaceKey: STATE_LF counts the CR in).
  if (text.slice(start, cursor) === '\r\n') return start
  if (/\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3|\ufe0f/u.test(text.slice(start, cursor))) return start
  const low = text.charCodeAt(cursor - 1)
  const high = text.charCodeAt(cursor - 2)
  return cursor - (low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1)
}

/** The first API level whose `uiautomator dump` writes the `hint` attribute (android-16.0.0). */
export const HINT_ATTRIBUTE_SDK = 36

/**
 * The first API level whose dump shows a password field's text (Android 8.0). TextView's
 * onInitializeAccessibilityNodeInfoInternal gave a password field no text up to Android 7.1 (`if (!isPassword ||
 * shouldSpeakPasswordsForAccessibility())` around `info.setText`, the setting off by default), so uiautomator writes
 * `text=""` for it, whatever it holds; from 8.0 it sets the text the field draws (getTextForAccessibility: the hint
 * when empty, else the transformed text).
 */
export const PASSWORD_TEXT_SDK = 26

/** An attribute value as uiautomator's serializer writes it (`&`, `<`, `>`, `"` and the line breaks as references). */
export const escapeAttribute = (v: string): string =>
  v.replace(
    /[&<>"\n\t\r]/g,
    (c) =>
      ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\t': '&#9;', '\r': '&#13;'})[c] as string
  )

export class TextFields {
  /** Text typed so far, per screen and node (pre-order index). */
  private readonly edits = new Map<string, Map<number, string>>()
  private focus?: Focus

  /** `sdk()` is the device's API level now (its `ro.build.version.sdk`): it decides whether dumps carry `hint`. */
  constructor(
    private readonly rules: FieldRule[] = [],
    private readonly sdk: () => number = () => 34
  ) {}

  private nodes(screen: LoadedScreen): UiNode[] {
    return screen.dump.nodes
  }

  /** What the field holds: what was typed, else its recorded text (unless that is only its hint). */
  textOf(screen: LoadedScreen, index: number): string {
    const typed = this.edits.get(screen.name)?.get(index)
    if (typed !== undefined) return typed
    const node = this.nodes(screen)[index] as UiNode
    return node.hint !== undefined && node.text === node.hint ? '' : node.text
  }

  /** The focused field on this screen: the one tapped last, else the one the dump marks focused. */
  focused(screen: LoadedScreen): Focus | undefined {
    const focus = this.focusOn(screen)
    return focus?.editable ? focus : undefined
  }

  /** What has the focus on this screen: a field, or the control an arrow key moved it to. */
  private focusOn(screen: LoadedScreen): Focus | undefined {
    if (this.focus?.screen === screen.name) return this.focus
    const index = this.nodes(screen).findIndex((n) => n.focused && isEditable(n))
    if (index === -1) return undefined
    this.focus = {screen: screen.name, index, cursor: this.textOf(screen, index).length, editable: true}
    return this.focus
  }

  /**
   * The control a focus move from node `from` in `direction` reaches, as FocusFinder picks it (AOSP
   * core/java/android/view/FocusFinder.java: isCandidate, then the nearest by distance along the move and across it,
   * simplified): an enabled, focusable view of the same window lying that way; undefined when there is none, and the
   * focus then stays.
   */
  private nextFocus(screen: LoadedScreen, from: number, direction: Direction): number | undefined {
    const nodes = this.nodes(screen)
    const source = nodes[from] as UiNode
    const [sl, st, sr, sb] = source.bounds
    let best: {index: number; score: number} | undefined
    for (const n of nodes) {
      if (n.index === from || n.window !== source.window || !n.focusable || !n.enabled) continue
      const [l, t, r, b] = n.bounds
      if (r <= l || b <= t) continue
      const lies =
        direction === 'right'
          ? (sl < l || sr <= l) && sr < r
          : direction === 'left'
            ? (sr > r || sl >= r) && sl > l
            : direction === 'down'
              ? (st < t || sb <= t) && sb < b
              : (sb > b || st >= b) && st > t
      if (!lies) continue
      const major = Math.max(
        0,
        direction === 'right' ? l - sr : direction === 'left' ? sl - r : direction === 'down' ? t - sb : st - b
      )
      const minor =
        direction === 'left' || direction === 'right'
          ? Math.abs((t + b) / 2 - (st + sb) / 2)
          : Math.abs((l + r) / 2 - (sl + sr) / 2)
      // FocusFinder.getWeightedDistanceFor: 13 * major² + minor².
      const score = 13 * major * major + minor * minor
      if (!best || score < best.score) best = {index: n.index, score}
    }
    return best?.index
  }

  /** The focus leaves the field for the next control that way: an arrow key the field did not take. */
  private leave(screen: LoadedScreen, focus: Focus, direction: Direction): void {
    const next = this.nextFocus(screen, focus.index, direction)
    if (next === undefined) return
    const node = this.nodes(screen)[next] as UiNode
    const editable = isEditable(node)
    this.focus = {screen: screen.name, index: next, cursor: editable ? this.textOf(screen, next).length : 0, editable}
  }

  /** The rule a scenario gives the field at node `index`, if any. */
  private ruleOf(screen: LoadedScreen, index: number): FieldRule | undefined {
    const node = this.nodes(screen)[index] as UiNode
    return this.rules.find((r) => r.resourceId === node.resourceId)
  }

  /** The text of the field at node `index` laid out in its bounds, as its rule says (TextLayout). */
  private layout(screen: LoadedScreen, index: number): TextLayout {
    const [l, , r] = (this.nodes(screen)[index] as UiNode).bounds
    const rule = this.ruleOf(screen, index)
    return new TextLayout(
      this.textOf(screen, index),
      rule?.multiLine ?? false,
      r - l - 2 * FIELD_PADDING_PX,
      rule?.advancePx ?? DEFAULT_ADVANCE_PX,
      rule?.lineHeightPx ?? DEFAULT_LINE_HEIGHT_PX
    )
  }

  /**
   * Where a tap at (x, y) puts the cursor in the field at node `index`: Editor.onTouchUpEvent sets it to
   * TextView.getOffsetForPosition (the line under y, getLineAtCoordinate, then the stop nearest x on it,
   * getOffsetForHorizontal), and a tap that focuses the field does the same first (Editor.onFocusChanged puts the
   * cursor at getLastTapPosition). The field is not scrolled: its first line and its text's start show.
   */
  private offsetAt(screen: LoadedScreen, index: number, x: number, y: number): number {
    const [l, t] = (this.nodes(screen)[index] as UiNode).bounds
    const layout = this.layout(screen, index)
    return layout.offsetAt(layout.lineAt(y - t - FIELD_TOP_PADDING_PX), x - l - FIELD_PADDING_PX)
  }

  /**
   * A tap that the dump's window `window` took (the topmost window under the point, touch.ts): on an edit field of
   * that window it focuses the field with the cursor where the finger lifted (offsetAt; a field already focused
   * moves its cursor there too); on another clickable view of it, the focus goes. A
   * tap no window of the dump took (undefined), or one the keyboard took, leaves the focus where it is: the
   * keyboard's keys are its own views, and the field under the keyboard never sees the touch. A field the dump says
   * is not focusable (a date field that opens a picker) does not take the focus: View.onTouchEvent requests focus
   * on a touch only for a view focusable in touch mode (AOSP frameworks/base core/java/android/view/View.java,
   * ACTION_UP: `isFocusable() && isFocusableInTouchMode() && !isFocused()` then `requestFocus()`), and a view that
   * is not focusable is not focusable in touch mode either (View.setFocusableInTouchMode).
   */
  tap(screen: LoadedScreen, x: number, y: number, window: number | undefined): void {
    if (window === undefined) return
    const nodes = (screen.dump.windows[window]?.nodes ?? []).filter((n) => contains(n.bounds, x, y))
    let hit = -1
    for (const n of nodes) if (isEditable(n) && n.enabled && n.focusable) hit = n.index
    if (hit === -1) {
      if (nodes.some((n) => n.clickable)) this.focus = undefined
      return
    }
    this.focus = {screen: screen.name, index: hit, cursor: this.offsetAt(screen, hit, x, y), editable: true}
  }

  /** The field now holds `text` with the cursor at `cursor`; `memory` keeps a run of UP/DOWN keys' x (Focus.memory). */
  private set(screen: LoadedScreen, focus: Focus, text: string, cursor: number, memory?: number): void {
    // An edit (not a cursor move) runs the app's TextWatcher (field-watchers.ts).
    if (text !== this.textOf(screen, focus.index)) ({text, cursor} = reformat(this.rule(screen, focus), text, cursor))
    let edits = this.edits.get(screen.name)
    if (!edits) this.edits.set(screen.name, (edits = new Map()))
    edits.set(focus.index, text)
    focus.cursor = Math.max(0, Math.min(cursor, text.length))
    focus.memory = memory
  }

  private rule(screen: LoadedScreen, focus: Focus): FieldRule | undefined {
    return this.ruleOf(screen, focus.index)
  }

  /** Types at the cursor, through the field's rule. */
  type(screen: LoadedScreen, typed: string): void {
    const focus = this.focused(screen)
    if (!focus) return
    const rule = this.rule(screen, focus)
    if (rule?.refuse) return
    let text = typed
    if (rule?.transform === 'upper') text = text.toUpperCase()
    if (rule?.transform === 'lower') text = text.toLowerCase()
    if (rule?.transform === 'digits') text = text.replace(/\D/g, '')
    const now = this.textOf(screen, focus.index)
    if (rule?.maxLength !== undefined) text = text.slice(0, Math.max(0, rule.maxLength - now.length))
    const cursor = Math.min(focus.cursor, now.length)
    this.set(screen, focus, now.slice(0, cursor) + text + now.slice(cursor), cursor + text.length)
  }

  /**
   * `input text`: key events, one per character (InputShellCommand.sendText injects them through the key character
   * map). Into a focused field they type; with the focus on a control that is not a field, they go to it, and a
   * space, a confirm key, clicks it (the node returned) while the other characters do nothing.
   */
  typeKeys(screen: LoadedScreen, typed: string): {clicked?: UiNode} {
    const focus = this.focusOn(screen)
    if (focus && !focus.editable) return typed.includes(' ') ? {clicked: this.nodes(screen)[focus.index] as UiNode} : {}
    const rule = focus && this.rule(screen, focus)
    if (!focus || !rule?.focusNext) {
      this.type(screen, typed)
      return {}
    }
    // One key event per character, the app's TextWatcher after each: once it moves the focus, the rest goes there.
    const chars = [...typed]
    for (let i = 0; i < chars.length; i++) {
      this.type(screen, chars[i] as string)
      const to = focusMoveDue(rule, this.textOf(screen, focus.index))
      const node = to === undefined ? undefined : this.nodes(screen).find((n) => n.resourceId === to && n.focusable)
      if (!node) continue
      const editable = isEditable(node)
      this.focus = {
        screen: screen.name,
        index: node.index,
        cursor: editable ? this.textOf(screen, node.index).length : 0,
        editable,
      }
      return i + 1 < chars.length ? this.typeKeys(screen, chars.slice(i + 1).join('')) : {}
    }
    return {}
  }

  /** Empties the focused field (ADBKeyBoard's ADB_CLEAR_TEXT), unless its rule refuses input. */
  clear(screen: LoadedScreen): void {
    const focus = this.focused(screen)
    const rule = focus && this.rule(screen, focus)
    if (!focus || rule?.refuse || keepsText(rule)) return
    this.set(screen, focus, '', 0)
  }

  /**
   * A key press (down and up) with the KeyEvent meta state `meta`, as the focused view takes it.
   *
   * A focused EditText (TextView.onKeyDown: its key listener, then ArrowKeyMovementMethod through
   * BaseMovementMethod.handleMovementKey) moves its cursor by the field's layout (TextLayout):
   * - DPAD_LEFT/RIGHT step over one grapheme cluster, across soft and hard line ends alike
   *   (Selection.moveLeft/moveRight, Layout.getOffsetToLeftOf/RightOf go by the text's cursor stops);
   * - DPAD_UP/DOWN go to the line above/below at the same x, kept over a run of them (Selection.moveUp/moveDown,
   *   setSelectionAndMemory); from the first line UP goes to the text's start, from the last DOWN to its end;
   * - MOVE_HOME/MOVE_END go to the start/end of the visual line the cursor is on (home/end -> lineStart/lineEnd ->
   *   Selection.moveToLeftEdge/moveToRightEdge, findEdge);
   * - with ALT alone, DPAD_UP/DOWN go to the text's start/end (top/bottom: Selection.setSelection 0 or
   *   buffer.length()) and DPAD_LEFT/RIGHT to the line's start/end; with CTRL alone, MOVE_HOME/END go to the
   *   text's start/end. CTRL+DPAD_LEFT/RIGHT move by words on a phone (leftWord/rightWord): not modelled, they do
   *   nothing here. Compose text fields map ALT+UP/DOWN to the text's start/end too (androidx.compose.foundation.text
   *   KeyMapping.android.kt platformDefaultKeyMapping).
   * - DEL over a code point, a whole emoji sequence or a whole CR LF (backspaceFrom), FORWARD_DEL over a cluster
   *   (BaseKeyListener.getOffsetForForwardDeleteKey).
   * The left/right keys go by how the text is drawn (Layout.getOffsetToLeftRightOf: `advance` when moving left in a
   * right-to-left paragraph; Selection.findEdge: the right edge is the line's start there): in a paragraph whose
   * first strong character is right-to-left (paragraphIsRtl), DPAD_LEFT steps forward and DPAD_RIGHT back, MOVE_END
   * and ALT+DPAD_RIGHT go to the line's start, MOVE_HOME and ALT+DPAD_LEFT to its end; so LEFT at the text's end,
   * RIGHT at its start, move no cursor and take the focus away. Runs of the other direction inside a paragraph
   * (mixed bidi text, whose visual order a phone walks run by run) are not modelled: the paragraph's direction rules.
   * An arrow the field cannot move by (LEFT at the start, RIGHT at the end, UP at the start, DOWN at the end) moves
   * the focus to the next control that way, as ViewRootImpl.performFocusNavigation does with an arrow no view took;
   * it does so only for a key with no modifier (`event.hasNoModifiers()`), so a modified key never moves the focus.
   * Any other modified key does nothing here, a modifier key itself (ALT_LEFT, CTRL_LEFT…) included: it types
   * nothing (MetaKeyKeyListener takes it). SHIFT selects on a phone (ArrowKeyMovementMethod.isSelecting): selections
   * are not modelled, so a key with SHIFT held does nothing.
   *
   * With the focus on a control that is not a field, a confirm key (KeyEvent.isConfirmKey: DPAD_CENTER, ENTER, SPACE,
   * NUMPAD_ENTER) with no modifier clicks it (View.onKeyDown presses it only when `event.hasNoModifiers()`, and
   * View.onKeyUp performs the click): that node is returned.
   */
  key(screen: LoadedScreen, code: number, meta = 0): {clicked?: UiNode} {
    const focus = this.focusOn(screen)
    if (!focus) return {}
    const modifiers = modifiersOf(meta)
    const direction = (
      {[KEY.DPAD_LEFT]: 'left', [KEY.DPAD_RIGHT]: 'right', [KEY.DPAD_UP]: 'up', [KEY.DPAD_DOWN]: 'down'} as Record<
        number,
        Direction
      >
    )[code]
    if (!focus.editable) {
      if (modifiers !== 'none') return {}
      if (CONFIRM_KEYS.has(code)) return {clicked: this.nodes(screen)[focus.index] as UiNode}
      if (direction) this.leave(screen, focus, direction)
      return {}
    }
    if (modifiers === 'other') return {}
    const now = this.textOf(screen, focus.index)
    const c = Math.min(focus.cursor, now.length)
    const move = (to: number, memory?: number) => this.set(screen, focus, now, to, memory)
    // The cursor keys go by how the text is drawn: in a right-to-left paragraph left is forward (rtl).
    const rtl = paragraphIsRtl(now, c)
    if (modifiers === 'alt') {
      if (code === KEY.DPAD_UP) move(0)
      else if (code === KEY.DPAD_DOWN) move(now.length)
      else if (code === KEY.DPAD_LEFT || code === KEY.DPAD_RIGHT)
        move(this.layout(screen, focus.index).edge(c, (code === KEY.DPAD_RIGHT) !== rtl))
      return {}
    }
    if (modifiers === 'ctrl') {
      if (code === KEY.MOVE_HOME) move(0)
      else if (code === KEY.MOVE_END) move(now.length)
      return {}
    }
    const rule = this.rule(screen, focus)
    if ((rule?.refuse || keepsText(rule)) && (code === KEY.DEL || code === KEY.FORWARD_DEL)) return {}
    const edges = clusterEdges(now)
    switch (code) {
      case KEY.DPAD_LEFT:
      case KEY.DPAD_RIGHT: {
        // Forward: RIGHT in a left-to-right paragraph, LEFT in a right-to-left one.
        const forward = (code === KEY.DPAD_RIGHT) !== rtl
        const side = code === KEY.DPAD_RIGHT ? 'right' : 'left'
        if (forward ? c >= now.length : c === 0) this.leave(screen, focus, side)
        else if (forward) move(edges.find((e) => e > c) ?? now.length)
        else move([...edges].reverse().find((e) => e < c) ?? 0)
        break
      }
      case KEY.DPAD_UP:
      case KEY.DPAD_DOWN: {
        const layout = this.layout(screen, focus.index)
        const line = layout.lineFor(c)
        const up = code === KEY.DPAD_UP
        const next = up ? line - 1 : line + 1
        if (next >= 0 && next < layout.lines.length) {
          // The x of the run's first offset (SELECTION_MEMORY), else the cursor's own.
          const memory = focus.memory ?? c
          move(layout.offsetAt(next, layout.x(memory)), memory)
        } else if (up ? c !== 0 : c !== now.length) move(up ? 0 : now.length)
        else this.leave(screen, focus, up ? 'up' : 'down')
        break
      }
      case KEY.MOVE_HOME:
      case KEY.MOVE_END:
        // Selection.findEdge: the line's visual right edge is its start in a right-to-left paragraph.
        move(this.layout(screen, focus.index).edge(c, (code === KEY.MOVE_END) !== rtl))
        break
      case KEY.DEL:
        if (c > 0) {
          const from = backspaceFrom(now, c)
          this.set(screen, focus, now.slice(0, from) + now.slice(c), from)
        }
        break
      case KEY.FORWARD_DEL:
        if (c < now.length)
          this.set(screen, focus, now.slice(0, c) + now.slice(edges.find((e) => e > c) ?? now.length), c)
        break
      case KEY.SPACE:
        this.type(screen, ' ')
        break
    }
    return {}
  }

  /**
   * The screen's XML with typed text and focus written in, an empty field showing its hint as its text, and the
   * `hint` attribute only from API 36 on (the recorded XML when none of that changes anything).
   */
  xml(screen: LoadedScreen): string {
    const edits = this.edits.get(screen.name)
    const focus = this.focus?.screen === screen.name ? this.focus : undefined
    const nodes = this.nodes(screen)
    const hintAttribute = this.sdk() >= HINT_ATTRIBUTE_SDK
    const hidesPasswords = this.sdk() < PASSWORD_TEXT_SDK
    const hinted =
      nodes.some((n) => n.hint !== undefined && isEditable(n)) || (!hintAttribute && /\shint="/.test(screen.xml))
    const hidden = hidesPasswords && nodes.some((n) => n.password && isEditable(n))
    if (!edits?.size && !focus && !hinted && !hidden) return screen.xml
    let out = ''
    let at = 0
    for (const node of nodes) {
      const [start, end] = node.tag
      let tag = screen.xml.slice(start, end)
      if (!hintAttribute) tag = tag.replace(/\s+hint="[^"]*"/, '')
      if (focus && !focus.editable && !isEditable(node) && node.focusable) {
        // The control an arrow key moved the focus to says so.
        tag = tag.replace(/\bfocused="[^"]*"/, `focused="${focus.index === node.index}"`)
      } else if (isEditable(node)) {
        const typed = edits?.get(node.index)
        if (node.password && hidesPasswords) tag = tag.replace(/\btext="[^"]*"/, 'text=""')
        else if (typed !== undefined || node.hint !== undefined) {
          const content = this.textOf(screen, node.index)
          tag = tag.replace(
            /\btext="[^"]*"/,
            `text="${escapeAttribute(content === '' && node.hint !== undefined ? node.hint : content)}"`
          )
        }
        if (focus) tag = tag.replace(/\bfocused="[^"]*"/, `focused="${focus.index === node.index}"`)
      }
      out += screen.xml.slice(at, start) + tag
      at = end
    }
    return out + screen.xml.slice(at)
  }

  /** A new screen: nothing is focused until the dump or a tap says so. */
  screenChanged(): void {
    this.focus = undefined
  }

  /** The screen was drawn anew (an app run in code): what was typed is in its XML now, and its focus is the XML's. */
  forget(screen: string): void {
    this.edits.delete(screen)
    if (this.focus?.screen === screen) this.focus = undefined
  }
}
