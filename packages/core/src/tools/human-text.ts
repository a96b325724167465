/**
 * Helpers for a tool's `human` text (what the CLI prints in place of the spec's JSON): aligned tables and lines
 * that no byte from a device can turn into terminal control (an app label, a file name, a log message).
 */
import {printable} from '../printable.js'
import {displayWidth, padToWidth} from './display-width.js'

export {printable, printableLine, printableText} from '../printable.js'

/**
 * An aligned table: a header row, then one row per entry, columns two spaces apart and the last one unpadded.
 * Cells are made printable; an empty cell shows `-`. Widths are terminal columns (display-width.ts): a CJK
 * character or an emoji takes two, a combining accent none, so such cells line up with the rest.
 */
export function formatTable(header: string[], rows: string[][]): string {
  const cells = [header, ...rows].map((row) => row.map((c) => (c === '' ? '-' : printable(c))))
  const widths = header.map((_, i) => Math.max(...cells.map((row) => displayWidth(row[i] ?? ''))))
  return cells
    .map((row) =>
      row
        .map((c, i) => (i === row.length - 1 ? c : padToWidth(c, widths[i] as number)))
        .join('  ')
        .trimEnd()
    )
    .join('\n')
}

/** A byte count for people: 512 B, 1.5 KB, 3.2 GB (powers of 1024, one decimal below 10). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1)
  return `${shown} ${units[unit]}`
}
