import type {SKRSContext2D} from '@napi-rs/canvas'

import {BLACK, contrast, cssColor, parseColor, readableOn, type Rgba} from '../style/colors.js'
import {MIN_LABEL_OPACITY, type AnnotateStyle, type Role} from '../style/presets.js'
import {nearestPoints, type Rect} from './geometry.js'
import {labelFont} from './label-font.js'
import type {LabelPlacement} from './place-labels.js'
import type {Mark} from './marks.js'

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

interface DrawOptions {
  style: AnnotateStyle
  /** Box outline width in image pixels. */
  lineWidth: number
  /** Dash pattern in image pixels; empty for solid. */
  dash: number[]
  /** Text width in pixels at a font size: the (cached) measure label placement used. */
  measure(text: string, fontPx: number): number
}

function strokeBox(ctx: SKRSContext2D, box: Rect, lw: number): void {
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
  const opacity = Math.max(MIN_LABEL_OPACITY, style.opacity)
  // CSS colours per role, worked out once: at most four, however many marks.
  const paints = new Map<Role, {box: string; label: string; text: string}>()
  const paintOf = (mark: Mark) => {
    let paint = paints.get(mark.role)
    if (!paint) {
      const c = markColors(mark.role, style)
      paint = {box: cssColor(c.box), label: cssColor(c.label, opacity), text: cssColor(c.text)}
      paints.set(mark.role, paint)
    }
    return paint
  }

  ctx.lineWidth = lineWidth
  ctx.setLineDash(dash)
  for (const mark of marks) {
    const {box} = paintOf(mark)
    ctx.strokeStyle = box
    ctx.fillStyle = box
    strokeBox(ctx, mark.box, lineWidth)
  }

  ctx.setLineDash([])
  ctx.lineWidth = 1
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    if (!p.detached) return
    const [ax, ay, bx, by] = nearestPoints(p.rect, mark.box)
    ctx.strokeStyle = paintOf(mark).box
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
  })

  ctx.textBaseline = 'middle'
  ctx.textAlign = 'left'
  let currentFont = ''
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    const paint = paintOf(mark)
    const [l, t, r, b] = p.rect
    const h = b - t
    ctx.fillStyle = paint.label
    ctx.beginPath()
    ctx.roundRect(l, t, r - l, h, style.labelShape === 'pill' ? h / 2 : Math.min(2, h / 4))
    ctx.fill()
    ctx.fillStyle = paint.text
    // Placement measured every label at its font already, so this is a cache hit (a miss would set the same font).
    const textWidth = measure(mark.label, p.fontPx)
    const font = labelFont(p.fontPx)
    if (font !== currentFont) ctx.font = currentFont = font
    ctx.fillText(mark.label, l + (r - l - textWidth) / 2, t + h / 2)
  })
}
