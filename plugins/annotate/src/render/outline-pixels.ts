import type {Rgba} from '../style/colors.js'
import type {Rect} from './geometry.js'

/**
 * Box outlines written straight into RGBA pixels, as the canvas draws them with strokeBox (drawMarks): the same
 * pixels for what can be written so, without the canvas's dashing, which rasterised every dash of every box as an
 * antialiased path (about 4.5 ms for the 193 dashed boxes of a real feed screen at 315x700, against well under
 * one here).
 *
 * It applies when every pixel of the outline is whole: box edges are whole pixels (image boxes are rounded), the
 * line width is even (so the stroke's centreline, half a line inside the box, lies on whole pixels and each dash
 * starts and ends on a pixel boundary: dash lengths are whole pixels) and the colour is opaque (the later of two
 * overlapping boxes covers the earlier, as drawn in order). The canvas's own pixels for such a stroke are the
 * ones reproduced here, dash by dash along the rectangle as Skia's dasher walks it (clockwise from the top-left
 * corner; a closed contour's first dash is drawn last, joined to the last one when that one runs up to it; butt
 * ends; a dash that turns a corner has a miter join, which adds the corner's outer quarter). Skia's path
 * measurement leaves a few pixels at 1/255 coverage where a dash ends: those are left out (1 level of 255 once
 * blended).
 */
export function outlinesWritable(lineWidth: number, dash: number[], colors: Rgba[]): boolean {
  return (
    Number.isInteger(lineWidth) &&
    lineWidth > 0 &&
    lineWidth % 2 === 0 &&
    dash.every((d) => Number.isInteger(d) && d > 0) &&
    colors.every((c) => c.a === 1 && [c.r, c.g, c.b].every((v) => Number.isInteger(v) && v >= 0 && v <= 255))
  )
}

/**
 * Writes each box's outline (in order, `colors[i]` for `boxes[i]`) into `data`, the RGBA pixels of a `width` x
 * `height` image. Only for what outlinesWritable accepted.
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
  const intervals = dash.length % 2 === 1 ? [...dash, ...dash] : dash
  const pen: Pen = {data, width, height, r: 0, g: 0, b: 0}
  for (let i = 0; i < boxes.length; i++) {
    const c = colors[i] as Rgba
    pen.r = c.r
    pen.g = c.g
    pen.b = c.b
    writeOutline(pen, boxes[i] as Rect, lineWidth, intervals)
  }
}

interface Pen {
  data: Uint8ClampedArray
  width: number
  height: number
  r: number
  g: number
  b: number
}

/** [x0, x1) x [y0, y1), clipped to the image, in the pen's colour, opaque. */
function fill(pen: Pen, x0: number, y0: number, x1: number, y1: number): void {
  const {data, width} = pen
  const left = Math.max(0, x0)
  const right = Math.min(width, x1)
  const top = Math.max(0, y0)
  const bottom = Math.min(pen.height, y1)
  for (let y = top; y < bottom; y++) {
    for (let x = left, i = (y * width + left) * 4; x < right; x++, i += 4) {
      data[i] = pen.r
      data[i + 1] = pen.g
      data[i + 2] = pen.b
      data[i + 3] = 255
    }
  }
}

/** One box, as strokeBox draws it: filled when too small for an outline, else the (dashed) stroke. */
function writeOutline(pen: Pen, box: Rect, lw: number, intervals: number[]): void {
  const [l, t, r, b] = box
  if (r - l <= 2 * lw || b - t <= 2 * lw) {
    fill(pen, l, t, r, b)
    return
  }
  if (intervals.length === 0) {
    fill(pen, l, t, r, t + lw)
    fill(pen, l, b - lw, r, b)
    fill(pen, l, t, l + lw, b)
    fill(pen, r - lw, t, r, b)
    return
  }
  const contour = new Contour(pen, box, lw)
  const {length} = contour
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
      if (distance + dashLength < length) contour.dash(distance, distance + dashLength)
    }
    distance += dashLength
    skipFirst = false
    index = (index + 1) % intervals.length
  }
  const first = intervals[0] as number
  if (lastOn) {
    // The last dash runs to the end of the contour (the start corner) and on into the first: one stroke.
    contour.dash(lastFrom, length)
    contour.corner(0)
    contour.dash(0, first)
  } else {
    contour.dash(0, first)
  }
}

/** The stroke's centreline around a box, clockwise from the top-left corner, half a line inside the box. */
class Contour {
  readonly length: number
  private readonly half: number
  /** Corner k's distance along the contour and position: top-left, top-right, bottom-right, bottom-left. */
  private readonly at: number[]
  private readonly xs: number[]
  private readonly ys: number[]

  constructor(
    private readonly pen: Pen,
    box: Rect,
    lw: number
  ) {
    const half = lw / 2
    const left = box[0] + half
    const top = box[1] + half
    const right = box[2] - half
    const bottom = box[3] - half
    const w = right - left
    const h = bottom - top
    this.half = half
    this.length = 2 * w + 2 * h
    this.at = [0, w, w + h, 2 * w + h, 2 * w + 2 * h]
    this.xs = [left, right, right, left]
    this.ys = [top, top, bottom, bottom]
  }

  /** The point at distance d along the contour (0 <= d <= length). */
  private point(d: number): [number, number] {
    const {at, xs, ys} = this
    if (d <= (at[1] as number)) return [(xs[0] as number) + d, ys[0] as number]
    if (d <= (at[2] as number)) return [xs[1] as number, (ys[1] as number) + d - (at[1] as number)]
    if (d <= (at[3] as number)) return [(xs[2] as number) - (d - (at[2] as number)), ys[2] as number]
    return [xs[3] as number, (ys[3] as number) - (d - (at[3] as number))]
  }

  /** The stroke of the contour from distance `from` to `to`: straight pieces with butt ends, joined at corners. */
  dash(from: number, to: number): void {
    let p = this.point(from)
    for (let k = 1; k <= 4; k++) {
      const d = this.at[k] as number
      if (d > from && d < to) {
        const c: [number, number] = [this.xs[k % 4] as number, this.ys[k % 4] as number]
        this.piece(p, c)
        this.corner(k % 4)
        p = c
      }
    }
    this.piece(p, this.point(Math.min(to, this.length)))
  }

  /** A straight piece of centreline from p to q, a line wide, butt ends. */
  private piece(p: [number, number], q: [number, number]): void {
    const {half, pen} = this
    if (p[1] === q[1]) fill(pen, Math.min(p[0], q[0]), p[1] - half, Math.max(p[0], q[0]), p[1] + half)
    else fill(pen, p[0] - half, Math.min(p[1], q[1]), p[0] + half, Math.max(p[1], q[1]))
  }

  /** A miter join at corner k: the quarter of the corner's square outside the box (the pieces cover the rest). */
  corner(k: number): void {
    const {half} = this
    const x = k === 1 || k === 2 ? (this.xs[k] as number) : (this.xs[k] as number) - half
    const y = k === 2 || k === 3 ? (this.ys[k] as number) : (this.ys[k] as number) - half
    fill(this.pen, x, y, x + half, y + half)
  }
}
