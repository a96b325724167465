import type {SKRSContext2D} from '@napi-rs/canvas'

import {BLACK, contrast, cssColor, parseColor, readableOn, type Rgba} from '../style/colors.js'
import {MIN_LABEL_OPACITY, type AnnotateStyle, type Role} from '../style/presets.js'
import {intersects, nearestPoints, type Rect} from './geometry.js'
import {labelFont} from './label-font.js'
import type {LabelPlacement} from './place-labels.js'
import type {Mark} from './marks.js'
import {SpatialIndex} from './spatial-index.js'

/** Text must reach at least this WCAG contrast against its label, else it switches to white or black. */
const MIN_TEXT_CONTRAST = 3

interface MarkColors {
  box: Rgba
  label: Rgba
  text: Rgba
}

function color(value: string): Rgba {
  // Presets and config are validated before drawing; black is only a guard for a bug.
  return parseColor(value) ?? BLACK
}

/** A mark's colours depend only on its role (and only with `colorBy: role`) and the style. */
function markColors(role: Role, style: AnnotateStyle): MarkColors {
  const box = style.colorBy === 'role' ? color(style.roleColors[role]) : color(style.color)
  const label = style.colorBy === 'role' ? box : color(style.labelColor ?? style.color)
  let text = style.textColor === 'auto' ? readableOn(label) : color(style.textColor)
  if (contrast(text, label) < MIN_TEXT_CONTRAST) text = readableOn(label)
  return {box, label, text}
}

export interface MarkPaint {
  box: string
  label: string
  text: string
}

/** The CSS colours of a mark's box, label and label text. */
export function markPaint(role: Role, style: AnnotateStyle): MarkPaint {
  const c = markColors(role, style)
  return {
    box: cssColor(c.box),
    label: cssColor(c.label, Math.max(MIN_LABEL_OPACITY, style.opacity)),
    text: cssColor(c.text),
  }
}

interface DrawOptions {
  style: AnnotateStyle
  /** Box outline width in image pixels. */
  lineWidth: number
  /** Dash pattern in image pixels; empty for solid. */
  dash: number[]
  /** Text width in pixels at a font size: the (cached) measure label placement used. */
  measure(text: string, fontPx: number): number
}

export function strokeBox(ctx: SKRSContext2D, box: Rect, lw: number): void {
  const [l, t, r, b] = box
  if (r - l <= 2 * lw || b - t <= 2 * lw) {
    ctx.fillRect(l, t, r - l, b - t)
    return
  }
  // Inset by half the line so the whole stroke lies on the box's own pixels (and inside the image).
  ctx.strokeRect(l + lw / 2, t + lw / 2, r - l - lw, b - t - lw)
}

/** Draws boxes first, then leader lines, then labels on top, so no box line ever crosses a label. */
export function drawMarks(ctx: SKRSContext2D, marks: Mark[], placements: LabelPlacement[], options: DrawOptions): void {
  const {style, lineWidth, dash, measure} = options
  // CSS colours per role, worked out once: at most four, however many marks.
  const paints = new Map<Role, MarkPaint>()
  const paintOf = (mark: Mark) => {
    let paint = paints.get(mark.role)
    if (!paint) {
      paint = markPaint(mark.role, style)
      paints.set(mark.role, paint)
    }
    return paint
  }

  ctx.lineWidth = lineWidth
  ctx.setLineDash(dash)
  // Colours are set only when they change (each set parses the CSS colour): once per image with one colour.
  let currentStroke = ''
  let currentFill = ''
  const setStroke = (stroke: string) => {
    if (stroke !== currentStroke) ctx.strokeStyle = currentStroke = stroke
  }
  const setFill = (fill: string) => {
    if (fill !== currentFill) ctx.fillStyle = currentFill = fill
  }
  for (const mark of marks) {
    const {box} = paintOf(mark)
    setStroke(box)
    setFill(box)
    strokeBox(ctx, mark.box, lineWidth)
  }

  ctx.setLineDash([])
  ctx.lineWidth = 1
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    if (!p.detached) return
    const [ax, ay, bx, by] = nearestPoints(p.rect, mark.box)
    setStroke(paintOf(mark).box)
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
  })

  ctx.textBaseline = 'middle'
  ctx.textAlign = 'left'
  // Labels go on top, in batches (labelBatches): the labels of a batch touch neither each other nor any label drawn
  // later, so inside a batch the order changes no pixel, and each batch is drawn backgrounds first, by colour, then
  // text by font and colour: a few font and colour changes per image instead of two or three per label (setting a
  // context's font parses it and looks the face up).
  let currentFont = ''
  for (const batch of labelBatches(placements)) {
    const byPaint = [...batch].sort((a, b) => compare(paintOf(marks[a] as Mark).label, paintOf(marks[b] as Mark).label))
    for (const i of byPaint) {
      const [l, t, r, b] = (placements[i] as LabelPlacement).rect
      const h = b - t
      setFill(paintOf(marks[i] as Mark).label)
      ctx.beginPath()
      ctx.roundRect(l, t, r - l, h, style.labelShape === 'pill' ? h / 2 : Math.min(2, h / 4))
      ctx.fill()
    }
    const fontOf = (i: number) => labelFont((placements[i] as LabelPlacement).fontPx)
    // The font already set first, then the others, each by text colour.
    const rank = (i: number) => (fontOf(i) === currentFont ? '' : fontOf(i)) + '\u0000' + paintOf(marks[i] as Mark).text
    const byFont = [...batch].sort((a, b) => compare(rank(a), rank(b)))
    for (const i of byFont) {
      const mark = marks[i] as Mark
      const p = placements[i] as LabelPlacement
      const [l, t, r, b] = p.rect
      const h = b - t
      setFill(paintOf(mark).text)
      // Placement measured every label at its font already, so this is a cache hit (a miss would set the same font).
      const textWidth = measure(mark.label, p.fontPx)
      const font = fontOf(i)
      if (font !== currentFont) ctx.font = currentFont = font
      ctx.fillText(mark.label, l + (r - l - textWidth) / 2, t + h / 2)
    }
  }
}

/** Strings in code-unit order, for sorts that must not depend on the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * How far a label's ink may reach past its rectangle, in font pixels: glyph overhang and accents above the em box
 * (the text is centred on the rectangle's middle, which is about 0.65 em from its edges), and a pixel of
 * antialiasing. Generous on purpose: a larger margin only makes more labels keep their order.
 */
const INK_MARGIN = 0.5

/**
 * The labels (indices into placements) in drawing batches: each batch holds the labels whose every earlier label
 * that they may touch (rectangles grown by the ink margin meet) is in an earlier batch. Drawing the batches in turn,
 * in any order inside each, puts every pixel any two labels share down in their original order, so the picture is
 * the one drawing them one by one in order gives. Labels that touch nothing all land in the first batch.
 */
export function labelBatches(placements: LabelPlacement[]): number[][] {
  const grown = placements.map((p): Rect => {
    const m = Math.ceil(p.fontPx * INK_MARGIN) + 1
    return [p.rect[0] - m, p.rect[1] - m, p.rect[2] + m, p.rect[3] + m]
  })
  let width = 1
  let height = 1
  for (const r of grown) {
    width = Math.max(width, r[2])
    height = Math.max(height, r[3])
  }
  // The batch of a label is one more than the latest batch of an earlier label it touches.
  const index = new SpatialIndex(width, height)
  const level = new Int32Array(placements.length)
  let levels = 0
  grown.forEach((rect, i) => {
    let at = 0
    index.some(rect, (other, j) => {
      if (intersects(other, rect)) at = Math.max(at, (level[j] as number) + 1)
      return false
    })
    level[i] = at
    levels = Math.max(levels, at + 1)
    index.add(rect)
  })
  const batches: number[][] = Array.from({length: levels}, () => [])
  for (let i = 0; i < placements.length; i++) (batches[level[i] as number] as number[]).push(i)
  return batches
}
