/**
 * Unicode's East_Asian_Width data (UAX #11, `EastAsianWidth.txt` of the Unicode Character Database), where the
 * machine has it: Debian's `unicode-data` package puts it in /usr/share/unicode. The display-width tests check
 * core's table against it, and scripts/east-asian-wide.ts derives that table from it.
 */
import {existsSync, readFileSync} from 'node:fs'

export const EAW_FILE = process.env.ARC_EAW_FILE ?? '/usr/share/unicode/EastAsianWidth.txt'
export const eawAvailable = existsSync(EAW_FILE)

export interface EastAsianWidths {
  /** The file's Unicode version, from its first line (`# EastAsianWidth-15.0.0.txt`). */
  version: string
  /** Every code point the file lists, with its width class: W, F, H, Na, A or N. */
  classes: Map<number, string>
}

export function readEastAsianWidth(file = EAW_FILE): EastAsianWidths {
  const text = readFileSync(file, 'utf8')
  const version = /EastAsianWidth-([\d.]+)\.txt/.exec(text)?.[1] ?? 'unknown'
  const classes = new Map<number, string>()
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim()
    if (line === '') continue
    const [range, cls] = line.split(';').map((s) => s.trim()) as [string, string]
    const [first, last = first] = range.split('..').map((h) => Number.parseInt(h, 16)) as [number, number?]
    for (let cp = first; cp <= last; cp++) classes.set(cp, cls)
  }
  return {version, classes}
}

/**
 * The Wide and Fullwidth code points as [first, last] ranges, a range running on over code points the file does
 * not list (unassigned): only listed code points of another class end one. That keeps the table short and
 * counts a character assigned later inside a wide run (a new emoji, a new ideograph) as wide.
 */
export function wideRanges({classes}: EastAsianWidths): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  let open: [number, number] | undefined
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    const cls = classes.get(cp)
    if (cls === 'W' || cls === 'F') {
      if (open) open[1] = cp
      else ranges.push((open = [cp, cp]))
    } else if (cls !== undefined) {
      open = undefined
    }
  }
  return ranges
}
