/**
 * Which text get_screen_state answers with: the spec's TSV (default) or the compact form, and with `changes`
 * the one-line ack or the diff against the last read of this device. Kept apart from the handler so the tool's
 * definition stays small.
 */
import type {DeviceState, ScreenModel} from '@arc-cli/core'

import {formatCompact} from './format-compact.js'
import {cutNote, limitRows} from './row-budget.js'
import {formatScreenState, screenStateJson} from './format-tsv.js'
import {
  diffScreens,
  formatDiff,
  isRememberedScreen,
  LAST_SCREEN_KEY,
  rememberScreen,
  stabilityOf,
  unchangedLine,
} from './screen-changes.js'

export type Detail = 'full' | 'compact'
export type Changes = 'off' | 'ack' | 'diff'

export interface ScreenStateView {
  text: string
  data: Record<string, unknown>
}

/**
 * Renders the screen and remembers it for this device (every read does, so a later `changes` request compares
 * against the latest read whatever its options were).
 */
export async function screenStateView(
  state: DeviceState,
  model: ScreenModel,
  detail: Detail,
  changes: Changes,
  maxRows = 0
): Promise<ScreenStateView> {
  const now = rememberScreen(model)
  const before = changes === 'off' ? undefined : await state.get(LAST_SCREEN_KEY, isRememberedScreen)
  await state.set(LAST_SCREEN_KEY, now)
  const baseline = before
  if (baseline) {
    if (baseline.fingerprint === now.fingerprint) {
      return {text: unchangedLine(now), data: {unchanged: true, fingerprint: now.fingerprint}}
    }
    if (changes === 'diff') {
      const diff = diffScreens(baseline, model)
      const whole = formatDiff(baseline, now, diff, model)
      if (whole !== undefined) {
        return {
          text: limitLines(whole, maxRows),
          data: {
            unchanged: false,
            fingerprint: now.fingerprint,
            previous_fingerprint: baseline.fingerprint,
            added: diff.added.map((e) => e.id),
            removed: diff.removed,
            changed: diff.changed.map((e) => e.id),
            stability: stabilityOf(baseline, model),
          },
        }
      }
    }
  }
  const {model: shown, cut} = limitRows(model, maxRows)
  let text = detail === 'compact' ? formatCompact(shown) : formatScreenState(shown)
  if (cut) text += `\n${detail === 'compact' ? '' : 'note:'}${cutNote(cut, maxRows)}`
  const json = screenStateJson(shown)
  return {
    text,
    data: {
      ...json,
      ...(cut ? {notes: [...json.notes, cutNote(cut, maxRows)], rows_left_out: cut.total - cut.shown} : {}),
      fingerprint: now.fingerprint,
      // A diff asked for that came whole (too much changed): each element's stability still says what moved.
      ...(changes === 'diff' && baseline ? {stability: stabilityOf(baseline, model)} : {}),
    },
  }
}

/** A diff's text cut to `maxRows` row lines (its first line is its summary), with the same note's advice. */
function limitLines(text: string, maxRows: number): string {
  const lines = text.split('\n')
  if (maxRows <= 0 || lines.length <= maxRows + 1) return text
  const left = lines.length - (maxRows + 1)
  return [
    ...lines.slice(0, maxRows + 1),
    `${left} more changed rows left out by max_rows ${maxRows}: max_rows 0 (--max-rows 0) shows them all, or read the whole screen without changes`,
  ].join('\n')
}
