import {createCanvas} from '@napi-rs/canvas'
import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import {strokeBox} from '../src/render/draw-marks.js'
import type {Rect} from '../src/render/geometry.js'
import {outlinesWritable, writeOutlines, type OutlineStats} from '../src/render/outline-pixels.js'

const RED = {r: 230, g: 20, b: 40, a: 1}

/** The canvas's pixels for strokeBox on an empty canvas, and writeOutlines' for the same box. */
function both(box: Rect, lineWidth: number, dash: number[]): {canvas: Uint8ClampedArray; written: Uint8ClampedArray} {
  const canvas = createCanvas(120, 120)
  const ctx = canvas.getContext('2d')
  ctx.lineWidth = lineWidth
  ctx.setLineDash(dash)
  ctx.strokeStyle = ctx.fillStyle = 'rgb(230,20,40)'
  strokeBox(ctx, box, lineWidth)
  const written = new Uint8ClampedArray(120 * 120 * 4)
  writeOutlines(written, 120, 120, [box], [RED], lineWidth, dash)
  return {canvas: ctx.getImageData(0, 0, 120, 120).data, written}
}

describe('annotate: box outlines written as pixels', () => {
  it("match the canvas's own dashed and solid strokes, pixel for pixel, on 1,500 random boxes", () => {
    const rnd = generator(24)
    for (let k = 0; k < 1500; k++) {
      const lineWidth = [2, 4, 6][rnd(3)] as number
      const dash = rnd(5) === 0 ? [] : rnd(4) === 0 ? [1 + rnd(6)] : [1 + rnd(8), 1 + rnd(6)]
      const l = rnd(40)
      const t = rnd(40)
      const box: Rect = [l, t, l + 1 + rnd(75), t + 1 + rnd(75)]
      const {canvas, written} = both(box, lineWidth, dash)
      let wrong = ''
      for (let i = 0; i < canvas.length && !wrong; i += 4) {
        // Where a dash ends, Skia's path measurement may leave 1/255 of coverage on a pixel: nothing to see.
        const alpha = Math.abs((canvas[i + 3] as number) - (written[i + 3] as number)) > 1
        const colour = canvas[i + 3] === 255 && (written[i] !== 230 || written[i + 1] !== 20 || written[i + 2] !== 40)
        if (alpha || colour) wrong = `pixel ${(i / 4) % 120},${Math.floor(i / 480)}`
      }
      expect(wrong, `box ${box.join(',')} line ${lineWidth} dash [${dash.join(',')}]`).to.equal('')
    }
  })

  it('are written only for whole pixels: an even line width, whole dashes, an opaque colour', () => {
    expect(outlinesWritable(2, [5, 3], [RED])).to.equal(true)
    expect(outlinesWritable(4, [], [RED])).to.equal(true)
    expect(outlinesWritable(3, [5, 3], [RED])).to.equal(false)
    expect(outlinesWritable(2, [5.5, 3], [RED])).to.equal(false)
    expect(outlinesWritable(2, [5, 3], [{...RED, a: 0.5}])).to.equal(false)
  })

  it('are left to the canvas when a box has an edge off the pixel grid', () => {
    expect(
      outlinesWritable(
        2,
        [5, 3],
        [RED, RED],
        [
          [0, 0, 20, 20],
          [4, 4, 30, 40],
        ]
      )
    ).to.equal(true)
    expect(
      outlinesWritable(
        2,
        [5, 3],
        [RED, RED],
        [
          [0, 0, 20, 20],
          [4, 4.5, 30, 40],
        ]
      )
    ).to.equal(false)
  })

  it('write a box repeated in the same colour once, and again after a box of another colour', () => {
    const BLUE = {r: 10, g: 40, b: 220, a: 1}
    const a: Rect = [10, 10, 60, 50]
    const b: Rect = [30, 20, 90, 70]
    const cases: {boxes: Rect[]; colors: (typeof RED)[]; outlines: number}[] = [
      // Nested containers sharing bounds: the later copies change no pixel.
      {boxes: [a, b, a, [...a], b], colors: [RED, RED, RED, RED, RED], outlines: 2},
      // b in another colour covers part of a: a drawn after it must cover b again where they cross.
      {boxes: [a, b, a], colors: [RED, BLUE, RED], outlines: 3},
    ]
    for (const {boxes, colors, outlines} of cases) {
      const stats: OutlineStats = {outlines: 0}
      const written = new Uint8ClampedArray(120 * 120 * 4)
      writeOutlines(written, 120, 120, boxes, colors, 2, [5, 3], stats)
      expect(stats.outlines).to.equal(outlines)
      // The pixels are those of every box written in order, one call each.
      const oneByOne = new Uint8ClampedArray(120 * 120 * 4)
      boxes.forEach((box, i) => writeOutlines(oneByOne, 120, 120, [box], [colors[i] as typeof RED], 2, [5, 3]))
      expect(Buffer.from(written).equals(Buffer.from(oneByOne))).to.equal(true)
    }
  })

  it('are the same pixels written into bytes that do not start on a 4-byte boundary', () => {
    const rnd = generator(7)
    for (let k = 0; k < 200; k++) {
      const lineWidth = [2, 4][rnd(2)] as number
      const dash = rnd(4) === 0 ? [] : [1 + rnd(8), 1 + rnd(6)]
      const l = rnd(40) - 5
      const t = rnd(40) - 5
      const box: Rect = [l, t, l + 1 + rnd(90), t + 1 + rnd(90)]
      const aligned = new Uint8ClampedArray(120 * 120 * 4)
      writeOutlines(aligned, 120, 120, [box], [RED], lineWidth, dash)
      const unaligned = new Uint8ClampedArray(new ArrayBuffer(120 * 120 * 4 + 1), 1, 120 * 120 * 4)
      writeOutlines(unaligned, 120, 120, [box], [RED], lineWidth, dash)
      expect(Buffer.from(unaligned).equals(Buffer.from(aligned)), `box ${box.join(',')} dash [${dash.join(',')}]`).to.be
        .true
    }
  })
})
