/**
 * The size bound of every screen-state form: at most `maxRows` element rows (0: no bound). A 10,000-node dump would
 * otherwise print some 300,000 tokens into an agent's context. On-screen elements are kept before off-screen ones
 * (what can be touched now first), each window keeping its document order; the note says how many rows were left
 * out and how to see them.
 */
import type {ScreenElement, ScreenModel} from '@arc-cli/core'

/** The default bound, on both surfaces: above any real screen in ../shared/fixtures/real (the largest lists ~200 rows). */
export const DEFAULT_MAX_ROWS = 500

export interface RowCut {
  /** Element rows in the full screen. */
  total: number
  shown: number
  /** Of those left out, how many were on screen. */
  onScreenLeft: number
}

/**
 * The model with at most `maxRows` elements (windows keep their headers), and what was cut; no cut when it fits.
 * Rows on screen come first, and among them the topmost windows' (a dialog or a dropdown over the app, the keyboard),
 * whatever order the dump lists its windows in: what is in front is what a tap reaches.
 */
export function limitRows(model: ScreenModel, maxRows: number): {model: ScreenModel; cut?: RowCut} {
  const total = model.elements.length
  if (maxRows <= 0 || total <= maxRows) return {model}
  const kept = new Set<ScreenElement>()
  const front = [...model.windows].sort((a, b) => a.display - b.display || b.layer - a.layer).flatMap((w) => w.elements)
  for (const e of front) if (kept.size < maxRows && e.flags.on) kept.add(e)
  for (const e of front) if (kept.size < maxRows && !e.flags.on) kept.add(e)
  const elements = model.elements.filter((e) => kept.has(e))
  const onScreenLeft = model.elements.filter((e) => e.flags.on && !kept.has(e)).length
  const windows = model.windows.map((w) => ({...w, elements: w.elements.filter((e) => kept.has(e))}))
  return {model: {...model, windows, elements}, cut: {total, shown: elements.length, onScreenLeft}}
}

/** The note on a cut screen: what was left out, and how to see it. */
export function cutNote(cut: RowCut, maxRows: number): string {
  const left = cut.total - cut.shown
  const on = cut.onScreenLeft > 0 ? ` (${cut.onScreenLeft} of them on screen)` : ' (all of them off screen)'
  return `${left} of ${cut.total} element rows left out${on} by max_rows ${maxRows}: max_rows 0 (--max-rows 0) shows every row; find (arc find) looks elements up by text, desc or id`
}
