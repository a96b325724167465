import {createCanvas, type SKRSContext2D} from '@napi-rs/canvas'
import {expect} from 'chai'

import {drawMarks, labelBatches, markPaint, strokeBox} from '../src/render/draw-marks.js'
import {nearestPoints, type Rect} from '../src/render/geometry.js'
import {ensureLabelFont, labelFont} from '../src/render/label-font.js'
import type {Mark} from '../src/render/marks.js'
import type {LabelPlacement} from '../src/render/place-labels.js'
import {BUILTIN_PRESETS, type AnnotateStyle} from '../src/style/presets.js'

const DEFAULT = BUILTIN_PRESETS.default as AnnotateStyle

const label = (rect: Rect, fontPx = 9): LabelPlacement => ({rect, fontPx, detached: false})

/** How drawMarks drew before it batched the labels: boxes, leaders, then each label in turn, its font set for it. */
function drawOneByOne(
  ctx: SKRSContext2D,
  marks: Mark[],
  placements: LabelPlacement[],
  style: AnnotateStyle,
  measure: (text: string, px: number) => number
): void {
  ctx.lineWidth = 2
  ctx.setLineDash([5, 3])
  for (const mark of marks) {
    ctx.strokeStyle = ctx.fillStyle = markPaint(mark.role, style).box
    strokeBox(ctx, mark.box, 2)
  }
  ctx.setLineDash([])
  ctx.lineWidth = 1
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    if (!p.detached) return
    const [ax, ay, bx, by] = nearestPoints(p.rect, mark.box)
    ctx.strokeStyle = markPaint(mark.role, style).box
    ctx.beginPath()
    ctx.moveTo(ax, ay)
    ctx.lineTo(bx, by)
    ctx.stroke()
  })
  ctx.textBaseline = 'middle'
  ctx.textAlign = 'left'
  marks.forEach((mark, i) => {
    const p = placements[i] as LabelPlacement
    const [l, t, r, b] = p.rect
    const h = b - t
    ctx.fillStyle = markPaint(mark.role, style).label
    ctx.beginPath()
    ctx.roundRect(l, t, r - l, h, style.labelShape === 'pill' ? h / 2 : Math.min(2, h / 4))
    ctx.fill()
    ctx.fillStyle = markPaint(mark.role, style).text
    ctx.font = labelFont(p.fontPx)
    ctx.fillText(mark.label, l + (r - l - measure(mark.label, p.fontPx)) / 2, t + h / 2)
  })
}

describe('annotate: labels drawn in batches', () => {
  it('puts labels that touch nothing in one batch, and a label after every earlier one it touches', () => {
    const batches = labelBatches([
      label([0, 0, 30, 11]),
      label([200, 0, 230, 11], 8),
      label([25, 5, 55, 16]), // overlaps 0
      label([50, 10, 80, 21], 8), // overlaps 2
      label([0, 300, 30, 311]),
      label([31, 300, 61, 311], 8), // a pixel from 4: its text may reach across
    ])
    expect(batches).to.deep.equal([[0, 1, 4], [2, 5], [3]])
  })

  it('draws the pixels drawing each label in turn draws, on a crowded image with two fonts and overlaps', () => {
    ensureLabelFont()
    const width = 315
    const height = 700
    let seed = 11
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216
    const marks: Mark[] = []
    const placements: LabelPlacement[] = []
    for (let i = 0; i < 400; i++) {
      const l = Math.floor(rand() * 280)
      const t = Math.floor(rand() * 680)
      const fontPx = rand() < 0.5 ? 9 : 8
      const text = rand() < 0.5 ? String(i + 1) : `gjÅy${i}`
      marks.push({
        element: undefined as never,
        number: i + 1,
        label: text,
        role: (['button', 'link', 'input', 'other'] as const)[i % 4] as Mark['role'],
        box: [l, t, Math.min(width, l + 40), Math.min(height, t + 30)],
      })
      const w = Math.ceil(text.length * fontPx * 0.6) + 6
      placements.push({rect: [l, t, l + w, t + fontPx + 2], fontPx, detached: i % 7 === 0})
    }
    const widths = new Map<string, number>()
    const measure = (text: string, px: number) => {
      const key = `${px} ${text}`
      if (!widths.has(key)) {
        const ctx = createCanvas(1, 1).getContext('2d')
        ctx.font = labelFont(px)
        widths.set(key, ctx.measureText(text).width)
      }
      return widths.get(key) as number
    }
    for (const style of [DEFAULT, {...DEFAULT, colorBy: 'role' as const, labelShape: 'badge' as const}]) {
      const batched = createCanvas(width, height)
      drawMarks(batched.getContext('2d'), marks, placements, {style, lineWidth: 2, dash: [5, 3], measure})
      const inTurn = createCanvas(width, height)
      drawOneByOne(inTurn.getContext('2d'), marks, placements, style, measure)
      const a = batched.getContext('2d').getImageData(0, 0, width, height).data
      const b = inTurn.getContext('2d').getImageData(0, 0, width, height).data
      let differ = 0
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++
      expect(differ, `colorBy ${style.colorBy}`).to.equal(0)
    }
  })
})
