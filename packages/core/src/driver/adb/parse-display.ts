/**
 * Screen size and density from `dumpsys window displays`, so a screen read needs no `wm size` / `wm density`.
 * The window manager prints, under `Display: mDisplayId=0`, a line
 * `init=1080x2400 420dpi [mMinSizeOfResizeableTaskDp=220] [base=720x1600 320dpi] [noscale] cur=… app=… rng=…`
 * (Android 4.2 to 16, the captures in shared/fixtures/device-output and adb.md §3.4):
 * - `init=` is the display's own size and density: what `wm size` / `wm density` print as `Physical`;
 * - `base=` is printed only when `wm size` or `wm density` overrode either, and then holds both values in force:
 *   what they print as `Override`, so it wins (both commands read the same two window-manager fields);
 * - both are in the display's natural orientation, like `wm size`; `cur=` is the current-orientation size.
 */
import type {Size} from './parse-wm.js'

export interface DisplayMetrics {
  /** The size in force, in the display's natural orientation (as `wm size` prints it). */
  size: Size
  /** The density in force, in dpi. */
  density: number
}

const DISPLAY_HEADER = /^[ \t]*Display: mDisplayId=(\d+)\b/gm
const SIZE_LINE = /\binit=(\d+)x(\d+) (\d+)dpi\b(?:[^\n]*?\bbase=(\d+)x(\d+) (\d+)dpi\b)?/

/** The text of display `id`'s block: from its `Display: mDisplayId=` line to the next display's. */
export function displayBlock(output: string, id: number): string | undefined {
  const headers = [...output.matchAll(DISPLAY_HEADER)]
  const at = headers.findIndex((m) => Number(m[1]) === id)
  if (at < 0) return undefined
  const start = (headers[at] as RegExpMatchArray).index as number
  const next = headers[at + 1]
  return output.slice(start, next ? next.index : undefined)
}

/**
 * The default display's size and density in force, or undefined when the output does not show them (then the
 * caller asks `wm size` and `wm density`). Only display 0 is read: it is the one `wm size` reports and
 * uiautomator dumps, and multi-display devices may list another first.
 */
export function parseDisplayMetrics(output: string): DisplayMetrics | undefined {
  const block = displayBlock(output, 0)
  const m = block === undefined ? null : SIZE_LINE.exec(block)
  if (!m) return undefined
  const [width, height, density] = (m[4] === undefined ? m.slice(1, 4) : m.slice(4, 7)).map(Number) as [
    number,
    number,
    number,
  ]
  if (!(width > 0 && height > 0 && density > 0)) return undefined
  return {size: {width, height}, density}
}
