/** Colours as arc's config and presets write them, parsed once so drawing and contrast checks share one value. */
export interface Rgba {
  r: number
  g: number
  b: number
  /** 0..1 */
  a: number
}

// A short fixed list: enough for hand-written configs, small enough that every name is documented.
const NAMED: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#00a000',
  blue: '#0050ff',
  yellow: '#ffd400',
  orange: '#ff8c00',
  magenta: '#ff00ff',
  cyan: '#00c8ff',
  purple: '#8000c0',
  gray: '#808080',
  grey: '#808080',
}

export const COLOR_HELP = `#rgb, #rrggbb, #rrggbbaa, rgb(r,g,b), rgba(r,g,b,a) or one of ${Object.keys(NAMED).join(', ')}`

/** Parses a colour; undefined when the string is not one (the caller names the key in its error). */
export function parseColor(value: string): Rgba | undefined {
  const text = value.trim().toLowerCase()
  const named = Object.hasOwn(NAMED, text) ? NAMED[text] : undefined
  if (named) return parseColor(named)
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text)?.[1]
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex
    const byte = (i: number) => Number.parseInt(full.slice(i, i + 2), 16)
    return {r: byte(0), g: byte(2), b: byte(4), a: full.length === 8 ? byte(6) / 255 : 1}
  }
  const fn = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(0|1|0?\.\d+|1\.0+)\s*)?\)$/.exec(text)
  if (fn) {
    const [r, g, b] = [fn[1], fn[2], fn[3]].map(Number) as [number, number, number]
    if (r > 255 || g > 255 || b > 255) return undefined
    return {r, g, b, a: fn[4] === undefined ? 1 : Number(fn[4])}
  }
  return undefined
}

export function isColor(value: string): boolean {
  return parseColor(value) !== undefined
}

/** CSS string for the canvas, with an extra opacity multiplied in. */
export function cssColor(color: Rgba, opacity = 1): string {
  const a = Math.round(color.a * opacity * 1000) / 1000
  return `rgba(${color.r},${color.g},${color.b},${a})`
}

function channel(c: number): number {
  const s = c / 255
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}

/** WCAG relative luminance of the opaque colour. */
function luminance(color: Rgba): number {
  return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)
}

/** WCAG contrast ratio, 1..21. */
export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const WHITE: Rgba = {r: 255, g: 255, b: 255, a: 1}
export const BLACK: Rgba = {r: 0, g: 0, b: 0, a: 1}

/** White or black, whichever reads better on `background`. */
export function readableOn(background: Rgba): Rgba {
  return contrast(WHITE, background) >= contrast(BLACK, background) ? WHITE : BLACK
}
