import type {UiNode} from './ui-node.js'

/**
 * Editable: dumps carry no `editable` attribute, so arc derives it from the class. A node is editable when its
 * simple class name ends in `EditText` (EditText, AppCompatEditText, TextInputEditText, ExtractEditText, Compose
 * text fields, which report `android.widget.EditText`) or is one of EditText's framework subclasses that do not
 * (AutoCompleteTextView, MultiAutoCompleteTextView, SearchView$SearchAutoComplete).
 */
const EDITABLE_CLASSES = new Set(['AutoCompleteTextView', 'MultiAutoCompleteTextView', 'SearchView$SearchAutoComplete'])

export function simpleClassName(className: string): string {
  if (!className) return ''
  const dot = className.lastIndexOf('.')
  return dot === -1 ? className : className.slice(dot + 1)
}

export function isEditable(node: UiNode): boolean {
  const simple = simpleClassName(node.className)
  return simple.endsWith('EditText') || EDITABLE_CLASSES.has(simple)
}

/**
 * The spec's keep-filter: a node is omitted when it has no text, no content description, no resource id, and
 * is not interactive: clickable, long-clickable, scrollable, editable or checkable. Checkable counts: the option
 * a segmented control or radio group shows as chosen is often a checked node that is not clickable (a Compose
 * `selectable` whose choice is made), with its label in a child; without it the row that says which option is
 * on would be missing. One function, used by screen-state, annotate and the element tools alike.
 */
export function shouldKeepNode(node: UiNode): boolean {
  return (
    node.text !== '' ||
    node.contentDesc !== '' ||
    node.resourceId !== '' ||
    node.clickable ||
    node.longClickable ||
    node.scrollable ||
    node.checkable ||
    isEditable(node)
  )
}

/**
 * On-screen: the dump's `visible-to-user` (or Appium's `displayed`) where present; otherwise the node's bounds
 * must overlap the screen rectangle by a positive area. uiautomator leaves out views that are not shown, so
 * the bounds test is what separates rows scrolled under the edge or laid out past it.
 */
export function isOnScreen(node: UiNode, screen: {width: number; height: number}): boolean {
  if (node.visibleToUser !== undefined) return node.visibleToUser
  const [left, top, right, bottom] = node.bounds
  const w = Math.min(right, screen.width) - Math.max(left, 0)
  const h = Math.min(bottom, screen.height) - Math.max(top, 0)
  return w > 0 && h > 0
}

export interface NodeFlags {
  on: boolean
  clk: boolean
  lclk: boolean
  foc: boolean
  scr: boolean
  edt: boolean
  ena: boolean
  /** A checkable node (checkbox, switch, radio button) that is checked. */
  chk: boolean
  /** A checkable node that is not checked: the state an agent needs before it taps a toggle. */
  unchk: boolean
  /** Selected (a tab, a list item in selection mode). */
  sel: boolean
  /** Has input focus: where typed text goes. */
  fcs: boolean
  /** A password field (its text is never shown). */
  pwd: boolean
  /** The text shown is the field's hint (placeholder): the field itself is empty. */
  hint: boolean
}

/** The spec's six flags in its order, then arc's additions (documented in the flags note). */
export const FLAG_ORDER = [
  'clk',
  'lclk',
  'foc',
  'scr',
  'edt',
  'ena',
  'chk',
  'unchk',
  'sel',
  'fcs',
  'pwd',
  'hint',
] as const

/**
 * The field shows its hint: uiautomator reports an empty field's hint as its text, and (the shell dump from Android
 * 16 on) writes the hint separately, so text equal to a non-empty hint on an editable node means the field is empty. Dumps without a
 * `hint` attribute cannot tell; the text is then taken as typed.
 */
export function showsHint(node: UiNode): boolean {
  return node.hint !== undefined && node.hint !== '' && node.text === node.hint && isEditable(node)
}

export function nodeFlags(node: UiNode, screen: {width: number; height: number}): NodeFlags {
  return {
    on: isOnScreen(node, screen),
    clk: node.clickable,
    lclk: node.longClickable,
    foc: node.focusable,
    scr: node.scrollable,
    edt: isEditable(node),
    ena: node.enabled,
    chk: node.checkable && node.checked,
    unchk: node.checkable && !node.checked,
    sel: node.selected,
    fcs: node.focused,
    pwd: node.password,
    hint: showsHint(node),
  }
}

/** `on,clk,ena`: `on` or `off` first, then the true flags in the spec's order, then arc's. */
export function formatFlags(flags: NodeFlags): string {
  const words: string[] = [flags.on ? 'on' : 'off']
  for (const flag of FLAG_ORDER) if (flags[flag]) words.push(flag)
  return words.join(',')
}
