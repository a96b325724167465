import type {Rgba} from '../style/colors.js'
import type {Rect} from './geometry.js'

/**
 * Box outlines written straight into RGBA pixels, as the canvas draws them with strokeBox (drawMarks): the same
 * pixels for what can be written so, without the canvas's dashing, which rasterised every dash of every box as an
 * antialiased path (about 4.5 ms for the 193 dashed boxes of a real feed screen at 315x700, against well under
 * one here).
 *
 * It applies when every pixel of the outline is whole: box edges are whole pixels (image boxes are rounded; boxes
 * with a fractional edge are left to the canvas), the line width is even (so the stroke's centreline, half a line
 * inside the box, lies on whole pixels and each dash starts and ends on a pixel boundary: dash lengths are whole
 * pixels) and the colour is opaque (the later of two
 * overlapping boxes covers the earlier, as drawn in order). The canvas's own pixels for such a stroke are the
 * ones reproduced here, dash by dash along the rectangle as Skia's dasher walks it (clockwise from the top-left
 * corner; a closed contour's first dash is drawn last, joined to the last one when that one runs up to it; butt
 * ends; a dash that turns a corner has a miter join, which adds the corner's outer quarter). Skia's path
 * measurement leaves a few pixels at 1/255 coverage where a dash ends: those are left out (1 level of 255 once
 * blended).
 */
export function outlinesWritable(lineWidth: number, dash: number[], colors: Rgba[], boxes: Rect[] = []): boolean {
  if (!Number.isInteger(lineWidth) || lineWidth <= 0 || lineWidth % 2 !== 0) return false
  for (const d of dash) if (!Number.isInteger(d) || d <= 0) return false
  for (const c of colors) if (c.a !== 1 || !isByte(c.r) || !isByte(c.g) || !isByte(c.b)) return false
  for (const box of boxes) for (const v of box) if (!Number.isInteger(v)) return false
  return true
}

function isByte(v: number): boolean {
  return Number.isInteger(v) && v >= 0 && v <= 255
}

/** Counts of the work done, added to when given (tests). */
export interface OutlineStats {
  /** Outlines written: a box repeated in the same colour since the colour last changed is written once. */
  outlines: number
}

/**
 * Writes each box's outline (in order, `colors[i]` for `boxes[i]`) into `data`, the RGBA pixels of a `width` x
 * `height` image. Only for what outlinesWritable accepted; box edges are whole pixels (image boxes are rounded).
 *
 * Everything here is whole numbers kept as small integers (`| 0`) and no object is made per box or per dash:
 * image boxes are often arrays of doubles (Math.round's results), and arithmetic on doubles in code V8 has not
 * optimised (yet, or again after a deoptimisation) boxes every intermediate number, which made this ~1 MB of
 * garbage per annotation of a real feed screen. Rows are filled with one 32-bit store per pixel.
 *
 * A one-shot `arc annotate` runs this once, cold: interpreted, while V8 compiles whatever gets hot on another
 * thread. So the dashes are written edge by edge by one small function (dashEdge), not dash by dash through a
 * chain of calls: V8 optimised that chain as one large inlined function per annotation, about twice the CPU time
 * of the writing itself (node --trace-opt; callgrind of a cold process writing bili-home-feed's outlines: 139
 * million instructions before, 51 million now, the pixels the same).
 */
export function writeOutlines(
  data: Uint8ClampedArray,
  width: number,
  height: number,
  boxes: Rect[],
  colors: Rgba[],
  lineWidth: number,
  dash: number[],
  stats?: OutlineStats
): void {
  // The canvas repeats an odd dash list to make it even.
  const intervals = Int32Array.from(dash.length % 2 === 1 ? [...dash, ...dash] : dash)
  pen.bytes = data
  pen.words = data.byteOffset % 4 === 0 ? new Int32Array(data.buffer, data.byteOffset, data.length >> 2) : undefined
  pen.width = width | 0
  pen.height = height | 0
  // The boxes written since the colour last changed: writing one of them again, in the same opaque colour, changes
  // no pixel (nested containers often share bounds: 43 of bili-home-feed's 193 boxes repeat an earlier one).
  const written = new Set<number>()
  try {
    for (let i = 0; i < boxes.length; i++) {
      const c = colors[i] as Rgba
      if (i === 0 || (c.r | 0) !== pen.r || (c.g | 0) !== pen.g || (c.b | 0) !== pen.b) {
        setColor(c.r | 0, c.g | 0, c.b | 0)
        written.clear()
      }
      const box = boxes[i] as Rect
      const key = boxKey(box)
      if (key >= 0) {
        if (written.has(key)) continue
        written.add(key)
      }
      if (stats) stats.outlines++
      writeOutline(box[0] | 0, box[1] | 0, box[2] | 0, box[3] | 0, lineWidth | 0, intervals)
    }
  } finally {
    pen.bytes = EMPTY_BYTES
    pen.words = undefined
  }
}

const EMPTY_BYTES: Uint8ClampedArray = new Uint8ClampedArray(0)

/** Edges of the boxes boxKey tells apart: 0 to this, the largest image size arc writes (--max-size). */
const KEY_EDGES = 8193

/** A number for a box of whole pixels in 0..8192 (exact: 8193^4 < 2^53); -1 for any other box, never matched. */
function boxKey(box: Rect): number {
  let key = 0
  for (let k = 0; k < 4; k++) {
    const v = box[k] as number
    if (!(v >= 0 && v < KEY_EDGES && v === Math.floor(v))) return -1
    key = key * KEY_EDGES + v
  }
  return key
}

/**
 * Where and in what colour outlines are being written: one for the module (writeOutlines runs to its end
 * synchronously, so no two calls share it at once), so that nothing is made per call but the pixel view.
 */
const pen = {
  bytes: EMPTY_BYTES,
  /** The same pixels, one 32-bit word each, where the bytes are aligned for it. */
  words: undefined as Int32Array | undefined,
  width: 0,
  height: 0,
  r: 0,
  g: 0,
  b: 0,
  /**
   * r, g, b and 255 as one word in this machine's byte order, signed: on a little-endian machine 255 is its top
   * byte, which makes it a small negative integer that V8 keeps unboxed (unsigned, it would be boxed on every read).
   */
  word: 0,
}

const WORD_BYTES = new Uint8Array(4)
const WORD = new Int32Array(WORD_BYTES.buffer)

function setColor(r: number, g: number, b: number): void {
  pen.r = r
  pen.g = g
  pen.b = b
  WORD_BYTES[0] = r
  WORD_BYTES[1] = g
  WORD_BYTES[2] = b
  WORD_BYTES[3] = 255
  pen.word = WORD[0] as number
}

/**
 * Runs up to this many pixels are written one store at a time rather than by TypedArray fill, whose call costs
 * more than the stores it makes for a run that short: most runs are a dash (5 pixels at 315x700) or the width
 * of a line going down a box's side (2).
 */
const SHORT_RUN = 16

/** [x0, x1) x [y0, y1), clipped to the image, in the pen's colour, opaque. */
function fill(x0: number, y0: number, x1: number, y1: number): void {
  const {width, words} = pen
  const left = x0 > 0 ? x0 | 0 : 0
  const right = x1 < width ? x1 | 0 : width
  const top = y0 > 0 ? y0 | 0 : 0
  const bottom = y1 < pen.height ? y1 | 0 : pen.height
  if (left >= right) return
  if (words) {
    const word = pen.word
    const run = right - left
    for (let y = top; y < bottom; y++) {
      const start = y * width + left
      if (run > SHORT_RUN) words.fill(word, start, start + run)
      else for (let i = start, end = start + run; i < end; i++) words[i] = word
    }
    return
  }
  const data = pen.bytes
  for (let y = top; y < bottom; y++) {
    for (let i = (y * width + left) * 4, end = (y * width + right) * 4; i < end; i += 4) {
      data[i] = pen.r
      data[i + 1] = pen.g
      data[i + 2] = pen.b
      data[i + 3] = 255
    }
  }
}

/** One box, as strokeBox draws it: filled when too small for an outline, else the (dashed) stroke. */
function writeOutline(l: number, t: number, r: number, b: number, lw: number, intervals: Int32Array): void {
  if (r - l <= 2 * lw || b - t <= 2 * lw) {
    fill(l, t, r, b)
    return
  }
  if (intervals.length === 0) {
    fill(l, t, r, t + lw)
    fill(l, b - lw, r, b)
    fill(l, t, l + lw, b)
    fill(r - lw, t, r, b)
    return
  }
  setContour(l, t, r, b, lw, intervals)
  const length = EDGE_END[3] as number
  // Skia's dasher (SkDashPath) walks the closed contour from its start with the intervals repeated, and strokes
  // each "on" interval, cut at the contour's end: every piece of a dash on an edge is that edge's part of the
  // repeated pattern. The first dash is held back and drawn last, so that a last dash running up to the end
  // continues into it (one stroke, joined at the start corner): what differs is only which corners get a miter.
  // Each box is one colour, so the order of its pieces changes no pixel.
  dashEdge(0, 0, EDGE_END[0] as number)
  dashEdge(1, EDGE_END[0] as number, EDGE_END[1] as number)
  dashEdge(2, EDGE_END[1] as number, EDGE_END[2] as number)
  dashEdge(3, EDGE_END[2] as number, length)
  // A dash turning a corner (the corner strictly inside it) has a miter there.
  for (let k = 1; k <= 3; k++) {
    const at = EDGE_END[k - 1] as number
    if (intervalAt(at) % 2 === 0 && AT_START < at) corner(k)
  }
  // The start corner: where the last dash (running up to the end) joins the held-back first one, or where the
  // first one alone runs past the end.
  const first = intervals[0] as number
  const last = intervalAt(length - 1)
  if ((last % 2 === 0 && AT_START > 0) || first > length) corner(0)
}

/**
 * The box being written, its line and its contour: the stroke's centreline, half a line inside the box, clockwise
 * from the top-left corner. The box (L, T, R, B), half the line width (HALF; the line width is even), the distance
 * along the centreline at which each edge ends (EDGE_END: top, right, bottom, left; the last is the contour's
 * length), the dash intervals (DASH, PERIOD their sum) and whether pieces may be written unclipped (INSIDE: the
 * box lies inside the image and the pixels are words; else through fill).
 */
const EDGE_END = new Int32Array(4)
let DASH: Int32Array = new Int32Array(0)
let PERIOD = 0
let L = 0
let T = 0
let R = 0
let B = 0
let HALF = 0
let INSIDE = false

function setContour(l: number, t: number, r: number, b: number, lw: number, intervals: Int32Array): void {
  L = l
  T = t
  R = r
  B = b
  HALF = lw >> 1
  const w = r - l - lw
  const h = b - t - lw
  EDGE_END[0] = w
  EDGE_END[1] = w + h
  EDGE_END[2] = 2 * w + h
  EDGE_END[3] = 2 * w + 2 * h
  if (DASH !== intervals) {
    DASH = intervals
    PERIOD = 0
    for (let i = 0; i < intervals.length; i++) PERIOD += intervals[i] as number
  }
  INSIDE = pen.words !== undefined && l >= 0 && t >= 0 && r <= pen.width && b <= pen.height
}

/** Where intervalAt found its interval to start. */
let AT_START = 0

/** The index of the dash interval holding distance d (0 <= d) along the contour; AT_START is where it starts. */
function intervalAt(d: number): number {
  let start = d - (d % PERIOD)
  let i = 0
  for (let end = start + (DASH[0] as number); end <= d; end += DASH[i] as number) {
    start = end
    i++
  }
  AT_START = start
  return i
}

/**
 * The dashes of edge k (top, right, bottom, left) between distances a and b along the contour: each on
 * interval's part of [a, b), a line wide with butt ends. Pieces are worked out and written here, one edge per
 * call, so that the one function the pixels are written by stays small.
 */
function dashEdge(k: number, a: number, b: number): void {
  const words = pen.words as Int32Array
  const word = pen.word
  const width = pen.width
  const lw = HALF << 1
  let i = intervalAt(a)
  let d = AT_START
  while (d < b) {
    const end = d + (DASH[i] as number)
    if ((i & 1) === 0) {
      const from = d > a ? d : a
      const to = end < b ? end : b
      // The piece [x0, x1) x [y0, y1).
      let x0: number
      let y0: number
      let x1: number
      let y1: number
      if (k === 0) {
        x0 = L + HALF + from
        x1 = L + HALF + to
        y0 = T
        y1 = T + lw
      } else if (k === 1) {
        x0 = R - lw
        x1 = R
        y0 = T + HALF + from - a
        y1 = T + HALF + to - a
      } else if (k === 2) {
        x0 = R - HALF - (to - a)
        x1 = R - HALF - (from - a)
        y0 = B - lw
        y1 = B
      } else {
        x0 = L
        x1 = L + lw
        y0 = B - HALF - (to - a)
        y1 = B - HALF - (from - a)
      }
      if (!INSIDE) fill(x0, y0, x1, y1)
      else {
        const run = x1 - x0
        for (let y = y0; y < y1; y++) {
          const at = y * width + x0
          if (run > SHORT_RUN) words.fill(word, at, at + run)
          else for (let p = at, stop = at + run; p < stop; p++) words[p] = word
        }
      }
    }
    d = end
    i = i + 1 === DASH.length ? 0 : i + 1
  }
}

/** A miter join at corner k (top-left, top-right, bottom-right, bottom-left): the quarter of the corner's square outside the box. */
function corner(k: number): void {
  const x = k === 1 || k === 2 ? R - HALF : L
  const y = k === 2 || k === 3 ? B - HALF : T
  fill(x, y, x + HALF, y + HALF)
}
