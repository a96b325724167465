/**
 * Helpers for a tool's `human` text (what the CLI prints in place of the spec's JSON): aligned tables and lines
 * that no byte from a device can turn into terminal control (an app label, a file name, a log message).
 */
import {displayWidth, padToWidth} from './display-width.js'

const NAMED: Record<string, string> = {'\\': '\\\\', '\t': '\\t', '\r': '\\r', '\n': '\\n'}
const hex = (c: string) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`

/**
 * A table cell with every control character written out: tab, CR and LF as `\t`, `\r`, `\n`, the rest of C0, DEL
 * and C1 (ESC sequences, BEL) as `\xHH`, and backslash doubled so the escapes stay unambiguous. Everything else
 * (accents, CJK, emoji) is kept.
 */
export function printable(value: string): string {
  return value.replace(/[\\\u0000-\u001f\u007f-\u009f]/g, hex)
}

/**
 * A line of device text (a log line, the clipboard) as printed: tabs and backslashes kept as they are (a stack
 * trace's `\tat …`, a Windows path), CR and every other control character written out as `\r`, `\xHH`.
 */
export function printableLine(value: string): string {
  return value.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, hex)
}

/** Text of several lines as printed: each line as `printableLine` writes it, the line breaks kept. */
export function printableText(value: string): string {
  return value.split('\n').map(printableLine).join('\n')
}

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
        .trimEnd(),
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
