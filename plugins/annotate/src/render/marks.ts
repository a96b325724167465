import type {ScreenElement, ScreenModel} from '@arc-cli/core'

import type {AnnotateStyle, LabelFormat, MarkFilter, Role} from '../style/presets.js'
import type {Rect} from './geometry.js'
import {toImageRect, type ScreenMapping} from './screen-mapping.js'

export interface Mark {
  element: ScreenElement
  /** 1..N, focused app first, then document order, after filtering and the maxLabels cut. */
  number: number
  label: string
  role: Role
  /** Box in image pixels, clipped to the image. */
  box: Rect
}

export interface MarkSelection {
  marks: Mark[]
  /** On-screen elements that matched the filter but had no pixels in the image. */
  outside: number
  /** Elements left out by maxLabels. */
  overLimit: number
}

/**
 * Most marks any image gets, whatever the preset says (maxLabels 0, "no limit", included): more than this many
 * labels cannot be read on a phone screen, and it bounds the label placement's work on a hostile dump.
 */
export const MAX_MARKS = 1000

function matches(e: ScreenElement, only: MarkFilter): boolean {
  if (only === 'interactive') return e.flags.clk || e.flags.lclk || e.flags.edt
  if (only === 'clickable') return e.flags.clk || e.flags.lclk
  if (only === 'editable') return e.flags.edt
  return true
}

const BUTTON_CLASS = /Button|CheckBox|Switch|RadioButton|Chip|Toggle|Spinner|Tab/

/** Role for `colorBy: role`: inputs are editable, buttons are button-like or clickable non-text, links clickable text. */
function roleOf(e: ScreenElement): Role {
  if (e.flags.edt) return 'input'
  if (BUTTON_CLASS.test(e.className)) return 'button'
  if (e.flags.clk || e.flags.lclk) return e.text !== '' && /TextView|^View$/.test(e.className) ? 'link' : 'button'
  return 'other'
}

// The bundled font covers Latin, Greek and Cyrillic (with their punctuation); names in other scripts would
// draw as empty boxes, so labels fall back to the resource id or the class alone.
const DRAWABLE = /^[\u0020-\u024F\u0370-\u03FF\u0400-\u04FF\u2010-\u2027\u2030-\u205E\u20AC]*$/u

function shorten(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim())
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : chars.join('')
}

/**
 * Accessible name for a `type` label: text, desc, else the resource id's entry name. A password's text is
 * already empty in the screen model, so it is never shown.
 */
function accessibleName(e: ScreenElement): string {
  const candidates = [e.text, e.desc, e.resId.replace(/^.*:id\//, '')]
  return candidates.find((c) => c.trim() !== '' && DRAWABLE.test(c)) ?? ''
}

function labelText(e: ScreenElement, n: number, format: LabelFormat, maxChars: number): string {
  const ref = e.id.replace(/^node_/, '')
  if (format === 'number') return String(n)
  if (format === 'both') return `${n}:${ref}`
  if (format === 'ref') return ref
  const name = accessibleName(e)
  const type = e.node.password ? 'Password' : e.className || 'View'
  // The id first, whole: it is what an agent or a person passes back to arc; the description may be shortened.
  return `${ref} ${shorten(name ? `${type} "${name}"` : type, maxChars)}`
}

/**
 * Which marks a `maxLabels` cut keeps first (lower first): what a person or an agent most likely acts on. The
 * focused app's interactive elements, then other apps' (a dialog, a split screen), then the keyboard's and the
 * system bars'; elements that cannot be acted on come after every interactive one, in the same window order.
 */
function markPriority(e: ScreenElement): number {
  const interactive = e.flags.clk || e.flags.lclk || e.flags.edt
  return (interactive ? 0 : 4) + windowRank(e)
}

function windowRank(e: ScreenElement): number {
  const w = e.window
  return w.type === 'APPLICATION' ? (w.focused ? 0 : 1) : w.type === 'INPUT_METHOD' ? 2 : 3
}

interface Candidate {
  element: ScreenElement
  box: Rect
  index: number
}

// The sorts' comparators live at module level, not as arrows made per call: V8 optimises a closure made afresh on
// every annotation again on every annotation (see drawMarks).
function byPriority(a: Candidate, b: Candidate): number {
  return markPriority(a.element) - markPriority(b.element) || a.index - b.index
}

function byWindow(a: Candidate, b: Candidate): number {
  return windowRank(a.element) - windowRank(b.element) || a.index - b.index
}

/** On screen (`on`) and on the main display, the one screenshots show. */
function onMainScreen(e: ScreenElement): boolean {
  return e.flags.on && e.window.display === 0
}

/**
 * Picks the marks: on-screen elements matching `only`, with pixels inside the image. With a `maxLabels` cut the
 * interactive ones of the focused app are kept first (`markPriority`). Numbers follow the windows, focused
 * app first, then document order within each.
 */
export function selectMarks(model: ScreenModel, style: AnnotateStyle, mapping: ScreenMapping): MarkSelection {
  const candidates: Candidate[] = []
  let outside = 0
  // The elements screen-state prints with `on`: the same kept elements and the same `on` flag, computed once in
  // core's screen model. Nothing here re-decides what is kept, but the screenshot shows the main display only, so
  // another display's elements (a `display:N` window) have no place on it.
  const onScreen = model.elements.filter(onMainScreen)
  for (let index = 0; index < onScreen.length; index++) {
    const element = onScreen[index] as ScreenElement
    if (!matches(element, style.only)) continue
    const box = toImageRect(element.bounds, mapping)
    if (box) candidates.push({element, box, index})
    else outside++
  }
  let kept = candidates
  const limit = style.maxLabels > 0 ? Math.min(style.maxLabels, MAX_MARKS) : MAX_MARKS
  if (candidates.length > limit) {
    kept = [...candidates].sort(byPriority).slice(0, limit)
  }
  // Numbers run through the focused app first, then the other windows, each in document order.
  kept = [...kept].sort(byWindow)
  const marks = kept.map((c, i) => ({
    element: c.element,
    number: i + 1,
    label: labelText(c.element, i + 1, style.labelFormat, style.maxLabelChars),
    role: roleOf(c.element),
    box: c.box,
  }))
  return {marks, outside, overLimit: candidates.length - kept.length}
}

/**
 * Image boxes of the on-screen elements that show text, marked or not: label placement avoids covering them,
 * so the words an element says stay readable next to its label.
 */
export function textBoxes(model: ScreenModel, mapping: ScreenMapping): Rect[] {
  const boxes: Rect[] = []
  for (const e of model.elements) {
    if (!onMainScreen(e) || e.text.trim() === '') continue
    const box = toImageRect(e.bounds, mapping)
    if (box) boxes.push(box)
  }
  return boxes
}
