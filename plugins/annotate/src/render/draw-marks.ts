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

/** The colour of a mark's box. */
export function boxColor(role: Role, style: AnnotateStyle): Rgba {
  return markColors(role, style).box
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
  /** The boxes are on the canvas already (writeOutlines): draw only the leader lines and labels. */
  outlinesDrawn?: boolean
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

/**
 * Draws boxes first, then leader lines, then labels on top, so no box line ever crosses a label.
 *
 * No function is made per call here or in labelBatches (no arrow callbacks, comparators or helpers closing over a
 * call's state): V8 optimises a closure's code for the closure it saw, so closures made afresh by every annotation
 * were compiled again in the background for every annotation (about 8 TurboFan jobs per annotation of a real
 * screen, more CPU than the drawing). What varies per call is worked out into arrays first and read by
 * module-level functions.
 */
export function drawMarks(ctx: SKRSContext2D, marks: Mark[], placements: LabelPlacement[], options: DrawOptions): void {
  const {style, lineWidth, dash, measure} = options
  // CSS colours per mark, worked out once per role: at most four, however many marks.
  const paints = perRole(marks, style, markPaint)

  ctx.lineWidth = lineWidth
  ctx.setLineDash(dash)
  // Colours are set only when they change (each set parses the CSS colour): once per image with one colour.
  const state: PenState = {stroke: '', fill: '', font: ''}
  for (let i = 0; i < marks.length && !options.outlinesDrawn; i++) {
    const {box} = paints[i] as MarkPaint
    setStroke(ctx, state, box)
    setFill(ctx, state, box)
    strokeBox(ctx, (marks[i] as Mark).box, lineWidth)
  }

  ctx.setLineDash([])
  ctx.lineWidth = 1
  for (let i = 0; i < marks.length; i++) {
    const p = placements[i] as LabelPlacement
    if (!p.detached) continue
    const [ax, ay, bx, by] = nearestPoints(p.rect, (marks[i] as Mark).box)
    setStroke(ctx, state, (paints[i] as MarkPaint).box)
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
  }

  ctx.textBaseline = 'middle'
  ctx.textAlign = 'left'
  // Labels go on top, in batches (labelBatches): the labels of a batch touch neither each other nor any label drawn
  // later, so inside a batch the order changes no pixel, and each batch is drawn backgrounds first, by colour, then
  // text by font and colour: a few font and colour changes per image instead of two or three per label (setting a
  // context's font parses it and looks the face up).
  const fonts = new Array<string>(placements.length)
  for (let i = 0; i < placements.length; i++) fonts[i] = labelFont((placements[i] as LabelPlacement).fontPx)
  const keys = new Array<string>(placements.length)
  const pill = style.labelShape === 'pill'
  const batches = labelBatches(placements)
  for (let k = 0; k < batches.length; k++) {
    const batch = batches[k] as number[]
    for (let j = 0; j < batch.length; j++) {
      const i = batch[j] as number
      keys[i] = (paints[i] as MarkPaint).label
    }
    drawBackgrounds(ctx, state, sortedByKey(batch, keys), placements, paints, pill)
    // The font already set first, then the others, each by text colour.
    for (let j = 0; j < batch.length; j++) {
      const i = batch[j] as number
      keys[i] = (fonts[i] === state.font ? '' : (fonts[i] as string)) + '\u0000' + (paints[i] as MarkPaint).text
    }
    drawTexts(ctx, state, sortedByKey(batch, keys), {marks, placements, paints, fonts, measure})
  }
}

/**
 * The label backgrounds of `order` (indices), in that order. Here and in drawTexts, rectangles are read by index
 * and lists walked by index: destructuring an array or `for...of` makes an iterator and a result object per
 * element wherever V8 runs the code unoptimised, as a one-shot `arc annotate` does throughout.
 */
function drawBackgrounds(
  ctx: SKRSContext2D,
  state: PenState,
  order: number[],
  placements: LabelPlacement[],
  paints: MarkPaint[],
  pill: boolean
): void {
  for (let j = 0; j < order.length; j++) {
    const i = order[j] as number
    const rect = (placements[i] as LabelPlacement).rect
    const l = rect[0]
    const t = rect[1]
    const h = rect[3] - t
    setFill(ctx, state, (paints[i] as MarkPaint).label)
    ctx.beginPath()
    ctx.roundRect(l, t, rect[2] - l, h, pill ? h / 2 : Math.min(2, h / 4))
    ctx.fill()
  }
}

interface LabelTexts {
  marks: Mark[]
  placements: LabelPlacement[]
  paints: MarkPaint[]
  fonts: string[]
  measure(text: string, fontPx: number): number
}

/** The label texts of `order` (indices), in that order, each centred on its label. */
function drawTexts(ctx: SKRSContext2D, state: PenState, order: number[], labels: LabelTexts): void {
  const {marks, placements, paints, fonts, measure} = labels
  for (let j = 0; j < order.length; j++) {
    const i = order[j] as number
    const text = (marks[i] as Mark).label
    const p = placements[i] as LabelPlacement
    const rect = p.rect
    const l = rect[0]
    const t = rect[1]
    setFill(ctx, state, (paints[i] as MarkPaint).text)
    // Placement measured every label at its font already, so this is a cache hit (a miss would set the same font).
    const textWidth = measure(text, p.fontPx)
    const font = fonts[i] as string
    if (font !== state.font) ctx.font = state.font = font
    ctx.fillText(text, l + (rect[2] - l - textWidth) / 2, t + (rect[3] - t) / 2)
  }
}

/** What the context was last given, so that a value is set only when it changes. */
interface PenState {
  stroke: string
  fill: string
  font: string
}

function setStroke(ctx: SKRSContext2D, state: PenState, stroke: string): void {
  if (stroke !== state.stroke) ctx.strokeStyle = state.stroke = stroke
}

function setFill(ctx: SKRSContext2D, state: PenState, fill: string): void {
  if (fill !== state.fill) ctx.fillStyle = state.fill = fill
}

/**
 * `work(role, style)` for each mark, worked out once per role (it parses the style's colours): a screen has hundreds
 * of marks and a few roles.
 */
export function perRole<T>(marks: Mark[], style: AnnotateStyle, work: (role: Role, style: AnnotateStyle) => T): T[] {
  const byRole = new Map<Role, T>()
  const out = new Array<T>(marks.length)
  for (let i = 0; i < marks.length; i++) {
    const {role} = marks[i] as Mark
    let value = byRole.get(role)
    if (value === undefined) {
      value = work(role, style)
      byRole.set(role, value)
    }
    out[i] = value
  }
  return out
}

/** The indices, ordered by keys[index] in code-unit order; equal keys keep their order (a stable sort). */
function sortedByKey(indices: number[], keys: string[]): number[] {
  const pairs = new Array<[string, number]>(indices.length)
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k] as number
    pairs[k] = [keys[i] as string, i]
  }
  pairs.sort(compareFirst)
  const out = new Array<number>(pairs.length)
  for (let k = 0; k < pairs.length; k++) out[k] = (pairs[k] as [string, number])[1]
  return out
}

function compareFirst(a: [string, number], b: [string, number]): number {
  return compare(a[0], b[0])
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
  const grown = new Array<Rect>(placements.length)
  let width = 1
  let height = 1
  for (let i = 0; i < placements.length; i++) {
    const p = placements[i] as LabelPlacement
    const m = Math.ceil(p.fontPx * INK_MARGIN) + 1
    const r: Rect = [p.rect[0] - m, p.rect[1] - m, p.rect[2] + m, p.rect[3] + m]
    grown[i] = r
    width = Math.max(width, r[2])
    height = Math.max(height, r[3])
  }
  // The batch of a label is one more than the latest batch of an earlier label it touches.
  const index = new SpatialIndex(width, height)
  const level = new Int32Array(placements.length)
  let levels = 0
  for (let i = 0; i < grown.length; i++) {
    const rect = grown[i] as Rect
    let at = 0
    const n = index.collect(rect[0], rect[1], rect[2], rect[3])
    for (let k = 0; k < n; k++) {
      const j = index.found[k] as number
      if (intersects(index.rects[j] as Rect, rect)) at = Math.max(at, (level[j] as number) + 1)
    }
    level[i] = at
    levels = Math.max(levels, at + 1)
    index.add(rect)
  }
  const batches: number[][] = []
  for (let k = 0; k < levels; k++) batches.push([])
  for (let i = 0; i < placements.length; i++) (batches[level[i] as number] as number[]).push(i)
  return batches
}
