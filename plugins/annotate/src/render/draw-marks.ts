import type {SKRSContext2D} from '@napi-rs/canvas'

import {BLACK, contrast, cssColor, parseColor, readableOn, type Rgba} from '../style/colors.js'
import {MIN_LABEL_OPACITY, type AnnotateStyle} from '../style/presets.js'
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

function markColors(mark: Mark, style: AnnotateStyle): MarkColors {
  const box = style.colorBy === 'role' ? color(style.roleColors[mark.role]) : color(style.color)
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
  const {style, lineWidth, dash} = options
  const colors = marks.map((m) => markColors(m, style))
  ctx.lineWidth = lineWidth
  ctx.setLineDash(dash)
  marks.forEach((mark, i) => {
    const c = colors[i] as MarkColors
    ctx.strokeStyle = cssColor(c.box)
    ctx.fillStyle = cssColor(c.box)
    strokeBox(ctx, mark.box, lineWidth)
  })

  ctx.setLineDash([])
  ctx.lineWidth = 1
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    if (!p.detached) return
    const [ax, ay, bx, by] = nearestPoints(p.rect, mark.box)
    ctx.strokeStyle = cssColor((colors[i] as MarkColors).box)
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
  })

  const opacity = Math.max(MIN_LABEL_OPACITY, style.opacity)
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'left'
  let currentFont = ''
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    const c = colors[i] as MarkColors
    const [l, t, r, b] = p.rect
    const h = b - t
    ctx.fillStyle = cssColor(c.label, opacity)
    ctx.beginPath()
    ctx.roundRect(l, t, r - l, h, style.labelShape === 'pill' ? h / 2 : Math.min(2, h / 4))
    ctx.fill()
    ctx.fillStyle = cssColor(c.text)
    const font = labelFont(p.fontPx)
    if (font !== currentFont) ctx.font = currentFont = font
    const textWidth = ctx.measureText(mark.label).width
    ctx.fillText(mark.label, l + (r - l - textWidth) / 2, t + h / 2)
  })
}
