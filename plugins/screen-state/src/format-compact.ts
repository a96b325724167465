/**
 * `detail: compact`: the screen in as few tokens as an agent can act on. Every interactive element and every
 * element with text or a description that is on screen keeps its row and its id (the same ids as the default
 * format); what costs tokens without helping goes: rows that are layout only (a resource id and nothing else),
 * the package prefix of resource ids, default flags (`on`, `ena`, `foc`), `-` placeholders, the four note
 * lines, and bounds (an interactive row gives where a tap lands: the point click taps, core's touchCentre; plain
 * text gives none). Off-screen rows are summarised per window
 * in one line (how many, which way, the scrollable container to scroll); their ids still work with element tools.
 *
 * Plain text inside a tap target is written on the target's row (one row, one id to act on).
 *
 * Ids are printed without their `node_` prefix (`a3f2kq` for `node_a3f2kq`: the prefix is the same on every row and
 * costs a token or two each); every tool that takes an element id accepts both forms.
 *
 * Row: `<id> <role> "<text>" [<desc>] #<res> @<x>,<y> <flags>`, each part only when it has something to say;
 * `@` marks where a tap on a clickable element lands (so no `clk` flag), `~` on another control (a list, a field);
 * an element wholly behind the keyboard or a bar has no point and the flag `covered`.
 */
import {
  areaOf,
  bareElementId,
  intersect,
  touchCentre,
  visibleRect,
  type ScreenElement,
  type ScreenModel,
  type ScreenWindow,
} from '@arc-cli/core'

const MAX_TEXT = 100

/** The legend printed once, first: what each part of a row means. */
export const COMPACT_LEGEND = 'rows: id role "text" [desc] #res_id @x,y=clickable centre ~x,y=other control flags'

/** Simple class names that say nothing an agent needs (the row's text or flags already say it). */
const GENERIC = new Set([
  'TextView',
  'View',
  'ViewGroup',
  'FrameLayout',
  'LinearLayout',
  'RelativeLayout',
  'ConstraintLayout',
  'CardView',
  'MaterialCardView',
  'CoordinatorLayout',
  'AppCompatTextView',
  'MaterialTextView',
  'ComposeView',
  'AndroidComposeView',
  '',
])

const ROLES: Array<[RegExp, string]> = [
  [/EditText$|AutoCompleteTextView$|SearchAutoComplete$/, 'edit'],
  [/CheckBox$/, 'check'],
  [/RadioButton$/, 'radio'],
  [/Switch(Compat|Material)?$/, 'switch'],
  [/ToggleButton$/, 'toggle'],
  [/Button$/, 'btn'],
  [/ImageView$/, 'img'],
  [/WebView$/, 'web'],
  [/(RecyclerView|ListView|GridView|ScrollView|ViewPager2?|HorizontalScrollView|NestedScrollView)$/, 'list'],
  [/SeekBar$|Slider$/, 'slider'],
  [/ProgressBar$/, 'progress'],
  [/Spinner$/, 'spinner'],
  [/TabLayout$|TabWidget$/, 'tabs'],
]

/** `Button` → `btn`, `TextView` → `` (omitted), an unknown class stays its simple name. */
export function compactRole(className: string): string {
  if (GENERIC.has(className)) return ''
  for (const [pattern, role] of ROLES) if (pattern.test(className)) return role
  return className
}

/**
 * One line, always: control characters (C0, DEL, C1, line and paragraph separators) become `\n`, `\t` or
 * `\u{…}`, and `"`/`]` cannot end a field early because they are escaped inside it.
 */
export function compactText(value: string, close: '"' | ']'): string {
  const chars = Array.from(value)
  const cut = chars.length > MAX_TEXT ? chars.slice(0, MAX_TEXT).join('') + '…' : value
  return escapeControls(cut).replaceAll(close, `\\${close}`)
}

/** Control characters (C0, DEL, C1, line and paragraph separators) and backslashes written out: `\n`, `\t`, `\u{1b}`. */
function escapeControls(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/gu, (c) => {
    if (c === '\n') return '\\n'
    if (c === '\t') return '\\t'
    if (c === '\\') return '\\\\'
    return `\\u{${c.codePointAt(0)?.toString(16)}}`
  })
}

/** `com.foo:id/title` → `title` inside window package `com.foo`; `android:id/title` and other packages stay. */
export function shortResId(resId: string, pkg: string): string {
  return pkg && resId.startsWith(`${pkg}:id/`) ? resId.slice(pkg.length + 4) : resId
}

/** An element an agent can act on: it reacts to touch, scrolls or takes text. */
export function isInteractive(e: ScreenElement): boolean {
  return e.flags.clk || e.flags.lclk || e.flags.scr || e.flags.edt || e.node.checkable
}

/** Rows compact mode lists: on-screen, and interactive or carrying text or a description. */
export function isListed(e: ScreenElement): boolean {
  return e.flags.on && (isInteractive(e) || e.text !== '' || e.desc !== '')
}

function flags(e: ScreenElement): string {
  const out: string[] = []
  if (e.flags.lclk) out.push('lclk')
  if (e.flags.scr) out.push('scr')
  if (e.flags.edt) out.push('edt')
  if (!e.flags.ena) out.push('dis')
  if (e.node.checkable) out.push(e.node.checked ? 'checked' : 'unchecked')
  if (e.node.selected) out.push('selected')
  if (e.node.focused) out.push('focused')
  return out.join(',')
}

/** A tap target that can carry the words of the plain text rows inside it (a list, which scrolls, cannot). */
function canAbsorb(e: ScreenElement): boolean {
  return (e.flags.clk || e.flags.lclk || e.node.checkable) && !e.flags.scr
}

/**
 * Plain text rows (not interactive themselves) inside a listed tap target, by that target: the target's row
 * carries their words, so the text stays and one row (one id, one position) serves both. Each text goes to its
 * nearest such ancestor.
 */
export function absorbedTexts(listed: ScreenElement[]): Map<ScreenElement, ScreenElement[]> {
  const byNode = new Map(listed.map((e) => [e.node, e]))
  const absorbed = new Map<ScreenElement, ScreenElement[]>()
  for (const e of listed) {
    if (isInteractive(e)) continue
    for (let node = e.node.parent; node; node = node.parent) {
      const owner = byNode.get(node)
      if (!owner || !isInteractive(owner)) continue
      if (canAbsorb(owner)) absorbed.set(owner, [...(absorbed.get(owner) ?? []), e])
      break
    }
  }
  return absorbed
}

function words(e: ScreenElement): string[] {
  const parts: string[] = []
  if (e.text) parts.push(`"${compactText(e.text, '"')}"`)
  if (e.desc && e.desc !== e.text) parts.push(`[${compactText(e.desc, ']')}]`)
  return parts
}

export function compactRow(e: ScreenElement, model: ScreenModel, inner: ScreenElement[] = []): string {
  const parts = [bareElementId(e.id)]
  const role = compactRole(e.className)
  if (role) parts.push(role)
  parts.push(...words(e))
  for (const child of inner) parts.push(...words(child))
  // A resource id names an element that has no words of its own; with text or desc it only costs tokens.
  if (e.resId && !e.text && !e.desc && inner.length === 0) parts.push(`#${shortResId(e.resId, e.window.pkg)}`)
  const place = tapPlace(e, model)
  if (place !== 'covered' && place !== '') parts.push(place)
  // Only a diff lists a row off the screen (the whole screen summarises them): it says so, and gives no point.
  const f = [flags(e), place === 'covered' ? 'covered' : '', e.flags.on ? '' : 'off'].filter(Boolean).join(',')
  if (f) parts.push(f)
  return parts.join(' ')
}

/**
 * Where a tap lands, for what takes one: `@x,y` (clickable) or `~x,y` (another control), the point the element
 * tools tap (core's touchCentre: the centre of the part no keyboard, bar or window above covers); `covered` where
 * they cover it whole; '' for plain text (acted on by id, or by its target's row) and another display's element.
 */
export function tapPlace(e: ScreenElement, model: ScreenModel): string {
  if (!isInteractive(e)) return ''
  const mark = e.flags.clk ? '@' : '~'
  const point = touchCentre(e, model)
  if (point) return `${mark}${point.x},${point.y}`
  // Another display's element: a tap reaches display 0 (where other elements are), so there is no point to give.
  if (e.window.display !== 0) return ''
  if (visibleRect(e, model)) return 'covered'
  // No part of it visible by the dump's own nesting (web content laid out outside its parents): the centre of
  // its part on the screen, the point click's refusal offers for `arc tap` (src/tools/touch-target.ts).
  const on = intersect(e.bounds, [0, 0, model.screen.width, model.screen.height])
  // Off the screen: no point (a tap there is refused); scroll_to_element brings it into view.
  if (areaOf(on) === 0) return ''
  const [l, t, r, b] = on
  return `${mark}${Math.floor((l + r) / 2)},${Math.floor((t + b) / 2)}`
}

/** `off-screen: 12 below, 3 above (4 interactive); scroll ab12cd` — or nothing when every row is on screen. */
export function offScreenSummary(window: ScreenWindow, screen: {width: number; height: number}): string | undefined {
  const off = window.elements.filter((e) => !e.flags.on && (isInteractive(e) || e.text !== '' || e.desc !== ''))
  if (off.length === 0) return undefined
  const count = (test: (e: ScreenElement) => boolean) => off.filter(test).length
  const sides: string[] = []
  const below = count((e) => e.bounds[1] >= screen.height)
  const above = count((e) => e.bounds[3] <= 0)
  const right = count((e) => e.bounds[0] >= screen.width)
  const left = count((e) => e.bounds[2] <= 0)
  if (below) sides.push(`${below} below`)
  if (above) sides.push(`${above} above`)
  if (right) sides.push(`${right} right`)
  if (left) sides.push(`${left} left`)
  const elsewhere = off.length - below - above - right - left
  if (elsewhere > 0) sides.push(`${elsewhere} not shown`)
  const interactive = count(isInteractive)
  const scrollers = window.elements.filter((e) => e.flags.scr && e.flags.on).map((e) => bareElementId(e.id))
  const scroll = scrollers.length > 0 ? `; scroll ${scrollers.slice(0, 2).join(' or ')}` : ''
  return `off-screen: ${sides.join(', ')} (${interactive} interactive)${scroll}`
}

/**
 * `## <type> <package> [display:N] [activity] [title] [focused]`: one line whatever the device wrote, as a row is
 * (a window's title is the app's to set: spaces become `_`, control characters are written out).
 */
function windowLine(window: ScreenWindow): string {
  const value = (text: string) => escapeControls(text.replace(/\s+/g, '_'))
  const parts = [`## ${window.type.toLowerCase()} ${value(window.pkg) || '-'}`]
  if (window.display !== 0) parts.push(`display:${window.display}`)
  if (window.activity) parts.push(value(window.activity))
  if (window.title && window.type !== 'APPLICATION') parts.push(value(window.title))
  if (window.focused) parts.push('focused')
  return parts.join(' ')
}

/**
 * The compact text. Windows come topmost first (highest layer), so what covers the screen is read first, the main
 * display's before any other's (each display has its own layers); a window with nothing to list (a bar with no
 * labels) is left out.
 */
export function formatCompact(model: ScreenModel): string {
  const {width, height} = model.screen
  const lines = [
    COMPACT_LEGEND,
    `screen ${width}x${height} ${model.orientation}${model.degraded ? ' degraded:some-windows-missing' : ''}`,
  ]
  const windows = [...model.windows].sort((a, b) => a.display - b.display || b.layer - a.layer)
  for (const window of windows) {
    const listed = window.elements.filter(isListed)
    const absorbed = absorbedTexts(listed)
    const inside = new Set([...absorbed.values()].flat())
    const rows = listed.filter((e) => !inside.has(e)).map((e) => compactRow(e, model, absorbed.get(e)))
    const summary = offScreenSummary(window, model.screen)
    if (rows.length === 0 && !summary) continue
    lines.push(windowLine(window), ...rows)
    if (summary) lines.push(summary)
  }
  return lines.join('\n')
}
