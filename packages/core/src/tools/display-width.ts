/**
 * How many terminal columns text takes, for human tables: East Asian Wide and Fullwidth characters (CJK
 * ideographs, Hangul syllables, kana, fullwidth forms, most emoji) take two, combining marks and zero-width
 * characters none, everything else one (East Asian Ambiguous characters too, as terminals outside CJK locales
 * draw them). Counted per grapheme cluster, as a terminal draws it: an emoji with a skin tone, a ZWJ family, a
 * flag (two regional indicators) or a character with the emoji selector U+FE0F takes two; `e` + U+0301 one.
 */

/**
 * East_Asian_Width W and F as sorted [first, last] pairs, from Unicode's EastAsianWidth.txt of this version (printed
 * by scripts/east-asian-wide.ts; test/tools/display-width.test.ts checks it against the file where installed). A
 * pair runs on over code points unassigned in that version, so one assigned later inside a wide run counts wide.
 */
export const EAW_VERSION = '15.0.0'
const WIDE: readonly number[] = [
  0x1100, 0x115f, 0x231a, 0x231b, 0x2329, 0x232a, 0x23e9, 0x23ec, 0x23f0, 0x23f0, 0x23f3, 0x23f3, 0x25fd, 0x25fe,
  0x2614, 0x2615, 0x2648, 0x2653, 0x267f, 0x267f, 0x2693, 0x2693, 0x26a1, 0x26a1, 0x26aa, 0x26ab, 0x26bd, 0x26be,
  0x26c4, 0x26c5, 0x26ce, 0x26ce, 0x26d4, 0x26d4, 0x26ea, 0x26ea, 0x26f2, 0x26f3, 0x26f5, 0x26f5, 0x26fa, 0x26fa,
  0x26fd, 0x26fd, 0x2705, 0x2705, 0x270a, 0x270b, 0x2728, 0x2728, 0x274c, 0x274c, 0x274e, 0x274e, 0x2753, 0x2755,
  0x2757, 0x2757, 0x2795, 0x2797, 0x27b0, 0x27b0, 0x27bf, 0x27bf, 0x2b1b, 0x2b1c, 0x2b50, 0x2b50, 0x2b55, 0x2b55,
  0x2e80, 0x303e, 0x3041, 0x3247, 0x3250, 0x4dbf, 0x4e00, 0xa4c6, 0xa960, 0xa97c, 0xac00, 0xd7a3, 0xf900, 0xfaff,
  0xfe10, 0xfe19, 0xfe30, 0xfe6b, 0xff01, 0xff60, 0xffe0, 0xffe6, 0x16fe0, 0x1b2fb, 0x1f004, 0x1f004, 0x1f0cf, 0x1f0cf,
  0x1f18e, 0x1f18e, 0x1f191, 0x1f19a, 0x1f200, 0x1f320, 0x1f32d, 0x1f335, 0x1f337, 0x1f37c, 0x1f37e, 0x1f393, 0x1f3a0,
  0x1f3ca, 0x1f3cf, 0x1f3d3, 0x1f3e0, 0x1f3f0, 0x1f3f4, 0x1f3f4, 0x1f3f8, 0x1f43e, 0x1f440, 0x1f440, 0x1f442, 0x1f4fc,
  0x1f4ff, 0x1f53d, 0x1f54b, 0x1f54e, 0x1f550, 0x1f567, 0x1f57a, 0x1f57a, 0x1f595, 0x1f596, 0x1f5a4, 0x1f5a4, 0x1f5fb,
  0x1f64f, 0x1f680, 0x1f6c5, 0x1f6cc, 0x1f6cc, 0x1f6d0, 0x1f6d2, 0x1f6d5, 0x1f6df, 0x1f6eb, 0x1f6ec, 0x1f6f4, 0x1f6fc,
  0x1f7e0, 0x1f7f0, 0x1f90c, 0x1f93a, 0x1f93c, 0x1f945, 0x1f947, 0x1f9ff, 0x1fa70, 0x1faf8, 0x20000, 0x3fffd,
]

/** Wide when inside one of WIDE's [first, last] pairs (binary search over the sorted pairs). */
function isWide(cp: number): boolean {
  let lo = 0
  let hi = WIDE.length / 2 - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (cp < (WIDE[2 * mid] as number)) hi = mid - 1
    else if (cp > (WIDE[2 * mid + 1] as number)) lo = mid + 1
    else return true
  }
  return false
}

/**
 * Drawn without a column of their own: combining and enclosing marks, format characters (zero-width space and
 * joiner, directional marks; not the soft hyphen, which terminals show), controls, and the Hangul vowels and
 * final consonants that join a leading consonant into one syllable.
 */
const ZERO = /^(?!\u00ad)[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff\ud7b0-\ud7ff]$/u
const REGIONAL = /\p{Regional_Indicator}/gu
const EMOJI_BASE = /^\p{Emoji}/u

function codePointWidth(ch: string): 0 | 1 | 2 {
  if (ZERO.test(ch)) return 0
  return isWide(ch.codePointAt(0) as number) ? 2 : 1
}

function clusterWidth(cluster: string): number {
  if (cluster.length === 1) return codePointWidth(cluster)
  if ((cluster.match(REGIONAL)?.length ?? 0) >= 2) return 2
  if (cluster.includes('\ufe0f') && EMOJI_BASE.test(cluster)) return 2
  let width = 0
  for (const ch of cluster) width = Math.max(width, codePointWidth(ch))
  return width
}

// Made on first use: creating a segmenter costs about 10 ms of CPU, which every command would pay at start-up
// (the core is one bundle) though most print no text beyond ASCII.
let graphemes: Intl.Segmenter | undefined
const ASCII = /^[\x20-\x7e]*$/

/** The grapheme clusters of `text` with the columns each takes. */
function* clusters(text: string): Generator<[string, number]> {
  graphemes ??= new Intl.Segmenter(undefined, {granularity: 'grapheme'})
  for (const {segment} of graphemes.segment(text)) yield [segment, clusterWidth(segment)]
}

/** The columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length
  if (text.length === 1 || (text.length === 2 && (text.codePointAt(0) as number) > 0xffff)) return codePointWidth(text)
  let width = 0
  for (const [, w] of clusters(text)) width += w
  return width
}

/** `text` followed by spaces up to `columns` columns (unchanged when it takes that many or more). */
export function padToWidth(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - displayWidth(text)))
}

/**
 * `text` when it fits in `columns` columns; else its longest start of whole grapheme clusters that fits with
 * `…` after it (never half an emoji or a base without its accent).
 */
export function truncateToWidth(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text
  let kept = ''
  let width = 0
  for (const [segment, w] of clusters(text)) {
    if (width + w > columns - 1) break
    kept += segment
    width += w
  }
  return `${kept}…`
}
