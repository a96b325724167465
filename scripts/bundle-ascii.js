/**
 * The core's loader reads the bundle as Latin-1 when every byte of it is ASCII, in half the time UTF-8 decoding
 * takes for the same 1.3 MB (packages/core/src/loader/load-bundle.ts), and every arc command pays that read.
 * esbuild writes the non-ASCII characters of strings, templates and names as escapes (`charset: 'ascii'`, its
 * default) but leaves those of regular expression literals as they are: ansis's `strip` has a raw U+009B in one.
 * `asciiRegExps` writes each such character as `\uXXXX`, which a regular expression reads as the same character
 * with any flags (an astral character as its two surrogates' escapes: one code point under `u` or `v`, the same two
 * code units without), and shifts the source map's columns after each one on its line, so a stack trace still
 * points where it did. A non-ASCII character anywhere else fails the build: the quick read would be lost silently.
 * Plain JavaScript, like bundle-core.js.
 */
import * as acorn from 'acorn'

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** One segment of a source map line: its numbers (the column first), each relative as the format writes them. */
function decodeSegment(text) {
  const values = []
  let value = 0
  let shift = 0
  for (const char of text) {
    const digit = BASE64.indexOf(char)
    if (digit === -1) throw new Error(`not a source map segment: ${JSON.stringify(text)}`)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
      continue
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1)
    value = 0
    shift = 0
  }
  return values
}

function encodeSegment(values) {
  let text = ''
  for (const number of values) {
    let value = number < 0 ? (-number << 1) | 1 : number << 1
    do {
      let digit = value & 31
      value >>>= 5
      if (value > 0) digit |= 32
      text += BASE64[digit]
    } while (value > 0)
  }
  return text
}

/** `\uXXXX` for each UTF-16 code unit of `char`. */
const escapeUnits = (char) =>
  [...Array(char.length).keys()]
    .map((i) => `\\u${char.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`)
    .join('')

/**
 * A regular expression literal's text with its non-ASCII characters escaped; `\é` (an identity escape, the
 * character itself) becomes `\u00E9` too.
 */
export function escapeRegExpText(text) {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 92 /* \ */ && i + 1 < text.length) {
      const next = text.codePointAt(i + 1)
      if (next > 127) {
        const char = String.fromCodePoint(next)
        out += escapeUnits(char)
        i += char.length
      } else {
        out += text.slice(i, i + 2)
        i++
      }
      continue
    }
    if (code > 127) {
      const char = String.fromCodePoint(text.codePointAt(i))
      out += escapeUnits(char)
      i += char.length - 1
    } else out += text[i]
  }
  return out
}

/**
 * `code` (a CommonJS script) with the non-ASCII characters of its regular expression literals escaped, and `map`
 * (the source map's JSON object) with the generated columns after each change shifted to match. Throws, naming the
 * place, when a non-ASCII character is left outside a regular expression literal.
 */
export function asciiRegExps(code, map, file) {
  if (!/[^\x00-\x7f]/.test(code)) return {code, map}
  const regExps = []
  acorn.parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowHashBang: true,
    allowReturnOutsideFunction: true,
    onToken: (token) => {
      if (token.type === acorn.tokTypes.regexp && /[^\x00-\x7f]/.test(code.slice(token.start, token.end)))
        regExps.push(token)
    },
  })
  // Per generated line (0-based): [column, characters added] at each changed literal's end, left to right.
  const shifts = new Map()
  let out = ''
  let at = 0
  for (const token of regExps) {
    const text = code.slice(token.start, token.end)
    const escaped = escapeRegExpText(text)
    out += code.slice(at, token.start) + escaped
    at = token.end
    const line = code.slice(0, token.start).split('\n').length - 1
    const column = token.end - (code.lastIndexOf('\n', token.start - 1) + 1)
    shifts.set(line, [...(shifts.get(line) ?? []), [column, escaped.length - text.length]])
  }
  out += code.slice(at)
  const left = out.search(/[^\x00-\x7f]/)
  if (left !== -1) {
    throw new Error(
      `${file}: a non-ASCII character outside a regular expression literal at ${left}: ${JSON.stringify(out.slice(Math.max(0, left - 40), left + 20))} (the loader's Latin-1 read needs an ASCII bundle: see scripts/bundle-ascii.js)`
    )
  }
  const lines = map.mappings.split(';')
  for (const [line, changes] of shifts) {
    let column = 0
    const segments = lines[line].split(',').map((segment) => {
      const values = decodeSegment(segment)
      column += values[0]
      return {column, values}
    })
    let previous = 0
    lines[line] = segments
      .map(({column: at, values}) => {
        const moved = at + changes.filter(([after]) => at >= after).reduce((sum, [, added]) => sum + added, 0)
        const encoded = encodeSegment([moved - previous, ...values.slice(1)])
        previous = moved
        return encoded
      })
      .join(',')
  }
  return {code: out, map: {...map, mappings: lines.join(';')}}
}
