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

/**
 * Writes each box's outline (in order, `colors[i]` for `boxes[i]`) into `data`, the RGBA pixels of a `width` x
 * `height` image. Only for what outlinesWritable accepted; box edges are whole pixels (image boxes are rounded).
 *
 * Everything here is whole numbers kept as small integers (`| 0`) and no object is made per box or per dash:
 * image boxes are often arrays of doubles (Math.round's results), and arithmetic on doubles in code V8 has not
 * optimised (yet, or again after a deoptimisation) boxes every intermediate number, which made this ~1 MB of
 * garbage per annotation of a real feed screen. Rows are filled with one 32-bit store per pixel.
 */
export function writeOutlines(
  data: Uint8ClampedArray,
  width: number,
  height: number,
  boxes: Rect[],
  colors: Rgba[],
  lineWidth: number,
  dash: number[]
): void {
  // The canvas repeats an odd dash list to make it even.
  const intervals = Int32Array.from(dash.length % 2 === 1 ? [...dash, ...dash] : dash)
  pen.bytes = data
  pen.words = data.byteOffset % 4 === 0 ? new Int32Array(data.buffer, data.byteOffset, data.length >> 2) : undefined
  pen.width = width | 0
  pen.height = height | 0
  try {
    for (let i = 0; i < boxes.length; i++) {
      const c = colors[i] as Rgba
      setColor(c.r | 0, c.g | 0, c.b | 0)
      const box = boxes[i] as Rect
      writeOutline(box[0] | 0, box[1] | 0, box[2] | 0, box[3] | 0, lineWidth | 0, intervals)
    }
  } finally {
    pen.bytes = EMPTY_BYTES
    pen.words = undefined
  }
}

const EMPTY_BYTES: Uint8ClampedArray = new Uint8ClampedArray(0)

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
  const length = contour(l, t, r, b, lw)
  // Skia's dasher on a closed contour: the first dash is skipped at first and drawn at the end, continuing the
  // last dash (one stroke, joined at the start corner) when that one was on.
  let distance = 0
  let index = 0
  let lastOn = false
  let lastFrom = 0
  let skipFirst = true
  while (distance < length) {
    const dashLength = intervals[index] as number
    lastOn = false
    if (index % 2 === 0 && !skipFirst) {
      lastOn = true
      lastFrom = distance
      if (distance + dashLength < length) strokeDash(distance, distance + dashLength)
    }
    distance += dashLength
    skipFirst = false
    index = (index + 1) % intervals.length
  }
  const first = intervals[0] as number
  if (lastOn) {
    // The last dash runs to the end of the contour (the start corner) and on into the first: one stroke.
    strokeDash(lastFrom, length)
    corner(0)
    strokeDash(0, first)
  } else {
    strokeDash(0, first)
  }
}

/**
 * The stroke's centreline around the box being written, clockwise from the top-left corner, half a line inside
 * the box: corner k's distance along it (AT[k]; AT[4] is its length) and position (XS[k], YS[k]) for top-left,
 * top-right, bottom-right, bottom-left; HALF is half the line width. Whole numbers: the line width is even.
 */
const AT = new Int32Array(5)
const XS = new Int32Array(4)
const YS = new Int32Array(4)
let HALF = 0
/** The point pointAt found. */
let PX = 0
let PY = 0

/** Sets the contour for a box; returns its length. */
function contour(l: number, t: number, r: number, b: number, lw: number): number {
  const half = lw >> 1
  const left = l + half
  const top = t + half
  const right = r - half
  const bottom = b - half
  const w = right - left
  const h = bottom - top
  HALF = half
  AT[0] = 0
  AT[1] = w
  AT[2] = w + h
  AT[3] = 2 * w + h
  AT[4] = 2 * w + 2 * h
  XS[0] = XS[3] = left
  XS[1] = XS[2] = right
  YS[0] = YS[1] = top
  YS[2] = YS[3] = bottom
  return 2 * w + 2 * h
}

/** The point at distance d along the contour (0 <= d <= length), into PX, PY. */
function pointAt(d: number): void {
  if (d <= (AT[1] as number)) {
    PX = (XS[0] as number) + d
    PY = YS[0] as number
  } else if (d <= (AT[2] as number)) {
    PX = XS[1] as number
    PY = (YS[1] as number) + d - (AT[1] as number)
  } else if (d <= (AT[3] as number)) {
    PX = (XS[2] as number) - (d - (AT[2] as number))
    PY = YS[2] as number
  } else {
    PX = XS[3] as number
    PY = (YS[3] as number) - (d - (AT[3] as number))
  }
}

/** The stroke of the contour from distance `from` to `to`: straight pieces with butt ends, joined at corners. */
function strokeDash(from: number, to: number): void {
  pointAt(from)
  let px = PX
  let py = PY
  for (let k = 1; k <= 4; k++) {
    const d = AT[k] as number
    if (d > from && d < to) {
      const cx = XS[k % 4] as number
      const cy = YS[k % 4] as number
      piece(px, py, cx, cy)
      corner(k % 4)
      px = cx
      py = cy
    }
  }
  pointAt(Math.min(to, AT[4] as number))
  piece(px, py, PX, PY)
}

/** A straight piece of centreline from (px, py) to (qx, qy), a line wide, butt ends. */
function piece(px: number, py: number, qx: number, qy: number): void {
  if (py === qy) fill(Math.min(px, qx), py - HALF, Math.max(px, qx), py + HALF)
  else fill(px - HALF, Math.min(py, qy), px + HALF, Math.max(py, qy))
}

/** A miter join at corner k: the quarter of the corner's square outside the box (the pieces cover the rest). */
function corner(k: number): void {
  const x = k === 1 || k === 2 ? (XS[k] as number) : (XS[k] as number) - HALF
  const y = k === 2 || k === 3 ? (YS[k] as number) : (YS[k] as number) - HALF
  fill(x, y, x + HALF, y + HALF)
}
