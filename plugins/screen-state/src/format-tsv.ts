import type {ScreenElement, ScreenModel, ScreenWindow} from '@arc-cli/core'
import {formatFlags, screenElementJson} from '@arc-cli/core'

/**
 * The four note lines of the spec, always printed. The flags line names arc's additions after the spec's six
 * (checked state, selection, input focus, password, hint), which keep their order and meaning.
 */
export const NOTE_LINES = [
  'note:structural-only nodes are omitted from the tree',
  'note:certain elements are custom and will not be properly reported, if needed or if tools are not working as expected set include_screenshot=true to see the screen and take what you see into account',
  'note:flags: on=onscreen off=offscreen clk=clickable lclk=longClickable foc=focusable scr=scrollable edt=editable ena=enabled chk=checked unchk=unchecked sel=selected fcs=hasInputFocus pwd=password hint=textIsTheEmptyFieldsHint',
  'note:offscreen items require scroll_to_element before interaction',
] as const

export const DEGRADED_NOTE = 'note:DEGRADED — multi-window API unavailable, showing rootInActiveWindow only'
export const TSV_HEADER = 'id\tclass\ttext\tdesc\tres_id\tbounds\tflags'
const NULL_VALUE = '-'
const MAX_TEXT_LENGTH = 100
const TRUNCATION_SUFFIX = '...truncated'

/**
 * Text and desc cut at 100 characters (code points, so an emoji is never split) with `...truncated`.
 */
export function truncate(value: string): string {
  const chars = Array.from(value)
  return chars.length > MAX_TEXT_LENGTH ? chars.slice(0, MAX_TEXT_LENGTH).join('') + TRUNCATION_SUFFIX : value
}

const NAMED_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\r': '\\r',
  '\n': '\\n',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
}

/**
 * Escapes a value so a row always has exactly 7 tab-separated columns on one line, and no byte from a dump can
 * drive the terminal: backslash, tab, CR and LF become `\\`, `\t`, `\r`, `\n`; every other control character
 * (C0, DEL, C1: ESC sequences, BEL, NUL) becomes `\xHH`; the line and paragraph separators U+2028 and U+2029,
 * which Python's `str.splitlines()` and many viewers end a line at (a label could otherwise start a line that reads
 * as a row of its own), become `\u2028` and `\u2029`. Every other character (U+00A0, U+202F, U+200E, emoji) is kept
 * as it is.
 */
export function escapeCell(value: string): string {
  return value.replace(
    /[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => NAMED_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  )
}

function cell(value: string, limit = true): string {
  if (value === '') return NULL_VALUE
  return escapeCell(limit ? truncate(value) : value)
}

function formatRow(element: ScreenElement): string {
  return [
    element.id,
    cell(element.className, false),
    cell(element.text),
    cell(element.desc),
    cell(element.resId, false),
    element.bounds.join(','),
    formatFlags(element.flags),
  ].join('\t')
}

/** Header values may not hold spaces (fields are space-separated); a title with spaces has them as `_`. */
function headerValue(value: string | undefined): string {
  if (!value) return NULL_VALUE
  return escapeCell(value.replace(/\s+/g, '_'))
}

function formatWindowHeader(window: ScreenWindow): string {
  const parts = [
    `window:${window.id}`,
    // Only a window off the main screen says which display it is on, so the spec's header stays as it is.
    ...(window.display !== 0 ? [`display:${window.display}`] : []),
    `type:${window.type}`,
    `pkg:${headerValue(window.pkg)}`,
    `title:${headerValue(window.title)}`,
  ]
  if (window.activity) parts.push(`activity:${headerValue(window.activity)}`)
  parts.push(`layer:${window.layer}`, `focused:${window.focused}`)
  return `--- ${parts.join(' ')} ---`
}

function formatScreenLine(model: ScreenModel): string {
  const {width, height, density} = model.screen
  return `screen:${width}x${height} density:${density ?? NULL_VALUE} orientation:${model.orientation}`
}

/** The whole screen-state text: notes, degradation note, screen line, then one section per window. */
export function formatScreenState(model: ScreenModel): string {
  const lines: string[] = [...NOTE_LINES]
  if (model.degraded) lines.push(DEGRADED_NOTE)
  lines.push(formatScreenLine(model))
  for (const window of model.windows) {
    lines.push(formatWindowHeader(window), TSV_HEADER)
    for (const element of window.elements) lines.push(formatRow(element))
  }
  return lines.join('\n')
}

/** The same data as structured JSON (`--json`, MCP structured content). Text is untruncated here. */
export function screenStateJson(model: ScreenModel) {
  return {
    notes: [...NOTE_LINES, ...(model.degraded ? [DEGRADED_NOTE] : [])].map((line) => line.slice('note:'.length)),
    degraded: model.degraded,
    screen: {...model.screen, density: model.screen.density ?? null, orientation: model.orientation},
    windows: model.windows.map((w) => ({
      id: w.id,
      display: w.display,
      type: w.type,
      // Every window has every key (null where the device did not say), a snapshot's as a live device's.
      device_type: w.deviceType ?? null,
      pkg: w.pkg || null,
      title: w.title ?? null,
      activity: w.activity ?? null,
      layer: w.layer,
      focused: w.focused,
      elements: w.elements.map(screenElementJson),
    })),
  }
}
