/**
 * "Say what changed, not everything again": a fingerprint of the screen, the last read remembered per device
 * (`ctx.state`: a cache file per device for the CLI, memory in the MCP server), a one-line answer when nothing
 * changed, and a diff by element id when something did.
 */
import {createHash} from 'node:crypto'

import {bareElementId, formatFlags, type ScreenElement, type ScreenModel} from '@arc-cli/core'

import {compactRow, tapPlace} from './format-compact.js'

/** The device-state key of the last screen read. */
export const LAST_SCREEN_KEY = 'last-screen'

/** What is remembered of a read: its fingerprint and, per element id, a signature of everything it printed. */
export interface RememberedScreen {
  fingerprint: string
  /** id → signature (class, text, desc, res_id, bounds, flags, its window, and where a tap on it lands). */
  rows: Record<string, string>
}

/** A remembered screen in its one shape: a cache entry of any other is no earlier read (the answer is the whole screen). */
export function isRememberedScreen(value: unknown): value is RememberedScreen {
  if (typeof value !== 'object' || value === null) return false
  const {fingerprint, rows} = value as Partial<RememberedScreen>
  return (
    typeof fingerprint === 'string' &&
    typeof rows === 'object' &&
    rows !== null &&
    !Array.isArray(rows) &&
    Object.values(rows).every((row) => typeof row === 'string')
  )
}

/**
 * Everything a row says, and where a tap on it lands (compact's `@x,y`, or `covered`): a keyboard, a dropdown or a
 * panel arriving over an element that itself stayed put changes where it can be tapped, and the diff says so.
 */
function signature(e: ScreenElement, model: ScreenModel): string {
  const w = e.window
  return [
    w.type,
    w.pkg,
    w.title ?? '',
    e.className,
    e.text,
    e.desc,
    e.resId,
    e.bounds.join(','),
    formatFlags(e.flags),
    e.node.checked,
    e.node.selected,
    e.node.focused,
    tapPlace(e, model),
  ].join('\u0001')
}

/** What a later read compares against. */
export function rememberScreen(model: ScreenModel): RememberedScreen {
  const rows: Record<string, string> = {}
  for (const e of model.elements) rows[e.id] = signature(e, model)
  const hash = createHash('sha256')
  const {width, height, density, rotation} = model.screen
  hash.update(`${width}x${height}/${density ?? ''}/${rotation}/${model.degraded}\n`)
  for (const w of model.windows) {
    hash.update(`window ${w.id} ${w.type} ${w.pkg} ${w.title ?? ''} ${w.activity ?? ''} ${w.layer} ${w.focused}\n`)
  }
  for (const e of model.elements) hash.update(`${e.id}\u0002${rows[e.id]}\n`)
  return {fingerprint: hash.digest('hex').slice(0, 12), rows}
}

/** The one line for an unchanged screen (well under 30 tokens). */
export function unchangedLine(now: RememberedScreen): string {
  return `unchanged since last read (screen ${now.fingerprint})`
}

export interface ScreenDiff {
  added: ScreenElement[]
  removed: string[]
  changed: ScreenElement[]
}

export function diffScreens(before: RememberedScreen, model: ScreenModel): ScreenDiff {
  const added: ScreenElement[] = []
  const changed: ScreenElement[] = []
  const seen = new Set<string>()
  for (const e of model.elements) {
    seen.add(e.id)
    const old = before.rows[e.id]
    if (old === undefined) added.push(e)
    else if (old !== signature(e, model)) changed.push(e)
  }
  const removed = Object.keys(before.rows).filter((id) => !seen.has(id))
  return {added, removed, changed}
}

/** Seed 001's stability of an element against the last read: a new id, the same id in another place, or neither. */
export type Stability = 'stable' | 'new' | 'moved'

/** The bounds a remembered row's signature holds (its 8th field). */
const boundsOf = (row: string) => row.split('\u0001')[7]

/**
 * Every element of this read with its stability since `before`: `new` (its id was not on the last read), `moved`
 * (the same id, other bounds: scrolled, or laid out again), else `stable` (its text or flags may have changed).
 */
export function stabilityOf(before: RememberedScreen, model: ScreenModel): Record<string, Stability> {
  const out: Record<string, Stability> = {}
  for (const e of model.elements) {
    const old = before.rows[e.id]
    out[e.id] = old === undefined ? 'new' : boundsOf(old) === e.bounds.join(',') ? 'stable' : 'moved'
  }
  return out
}

/**
 * The diff as text: a head line naming both fingerprints and the counts, then `+ row` (added), `~ row` (changed,
 * as it is now) and `- id` (removed), rows in the compact form. Returns undefined when the diff would be longer
 * than half the screen's rows, where the whole screen reads better.
 */
export function formatDiff(
  before: RememberedScreen,
  now: RememberedScreen,
  diff: ScreenDiff,
  model: ScreenModel
): string | undefined {
  const total = model.elements.length
  const count = diff.added.length + diff.removed.length + diff.changed.length
  if (count > Math.max(8, total / 2)) return undefined
  return [
    `changed since last read (screen ${before.fingerprint} -> ${now.fingerprint}): +${diff.added.length} -${diff.removed.length} ~${diff.changed.length}`,
    ...diff.added.map((e) => `+ ${compactRow(e, model)}`),
    ...diff.changed.map((e) => `~ ${compactRow(e, model)}`),
    ...diff.removed.map((id) => `- ${bareElementId(id)}`),
  ].join('\n')
}
