import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import type {Rect} from '../src/render/geometry.js'
import {BoxGrid, SpatialIndex} from '../src/render/spatial-index.js'

/** Mostly small rectangles, some spanning the image, some partly or wholly outside it. */
function randomRect(next: (n: number) => number, width: number, height: number): Rect {
  const l = next(width + 80) - 40
  const t = next(height + 80) - 40
  const big = next(6) === 0
  return [l, t, l + 1 + next(big ? 2 * width : 60), t + 1 + next(big ? 2 * height : 30)]
}

describe('annotate: spatial index walk', () => {
  it('gives every stored rectangle that intersects the query once, as collect does, stopping when asked', () => {
    const next = generator(24)
    const [width, height] = [315, 700]
    const index = new SpatialIndex(width, height, 48)
    for (let k = 0; k < 400; k++) index.add(randomRect(next, width, height))
    for (let q = 0; q < 300; q++) {
      const [l, t, r, b] = randomRect(next, width, height)
      const n = index.collect(l, t, r, b)
      const collected = Array.from(index.found.subarray(0, n)).sort((x, y) => x - y)
      const walked: number[] = []
      index.walk(l, t, r, b)
      for (let id = index.next(); id >= 0; id = index.next()) walked.push(id)
      expect(walked.length, 'no id twice').to.equal(new Set(walked).size)
      expect([...walked].sort((x, y) => x - y)).to.deep.equal(collected)
      // Every rectangle that truly intersects the query is among them.
      index.rects.forEach((o, id) => {
        if (o[0] < r && l < o[2] && o[1] < b && t < o[3]) expect(walked).to.include(id)
      })
      // A walk stopped early and a new one started gives the new query's ids, none left over from the old.
      index.walk(l, t, r, b)
      index.next()
      index.walk(0, 0, 1, 1)
      const corner: number[] = []
      for (let id = index.next(); id >= 0; id = index.next()) corner.push(id)
      const m = index.collect(0, 0, 1, 1)
      expect(corner.sort((x, y) => x - y)).to.deep.equal(Array.from(index.found.subarray(0, m)).sort((x, y) => x - y))
    }
  })
})

describe('annotate: box grid (outlines a label would hide)', () => {
  /** Whether a label at [l, r) x [t, b) hides part of o's outline (`line` wide): placement's outline penalty. */
  function hides(o: Rect, l: number, t: number, r: number, b: number, line: number): boolean {
    if (!(o[0] < r && l < o[2] && o[1] < b && t < o[3])) return false
    return !(l >= o[0] + line && t >= o[1] + line && r <= o[2] - line && b <= o[3] - line)
  }

  for (const cell of [16, 23, 48]) {
    it(`counts each rectangle once, as a check of every one does, stopping at the most asked (${cell} px cells)`, () => {
      const next = generator(cell)
      const [width, height] = [315, 700]
      const rects: Rect[] = []
      for (let k = 0; k < 500; k++) {
        const rect = randomRect(next, width, height)
        // Some at half pixels, some wider than the image (filed in every column, as a list row is).
        if (next(5) === 0) rects.push([rect[0] + 0.5, rect[1], rect[2] + 0.5, rect[3] + 0.5])
        else if (next(8) === 0) rects.push([-3, rect[1], width + 3, rect[1] + 3])
        else rects.push(rect)
      }
      const grid = new BoxGrid(width, height, cell, rects)
      for (let q = 0; q < 400; q++) {
        const [l, t, r, b] = randomRect(next, width, height)
        const line = next(4)
        const except = next(rects.length + 1) - 1
        let count = 0
        rects.forEach((o, id) => {
          if (id !== except && hides(o, l, t, r, b, line)) count++
        })
        expect(grid.outlinesHidden(l, t, r, b, except, line, Infinity)).to.equal(count)
        const most = 1 + next(4)
        expect(grid.outlinesHidden(l, t, r, b, except, line, most)).to.equal(Math.min(count, most))
      }
    })
  }

  it('leaves out the rectangles it is told to', () => {
    const next = generator(5)
    const rects: Rect[] = []
    for (let k = 0; k < 200; k++) rects.push(randomRect(next, 315, 700))
    const leave = Uint8Array.from(rects, (_, i) => (i % 3 === 0 ? 1 : 0))
    const grid = new BoxGrid(315, 700, 16, rects, leave)
    for (let q = 0; q < 200; q++) {
      const [l, t, r, b] = randomRect(next, 315, 700)
      let count = 0
      rects.forEach((o, id) => {
        if (leave[id] === 0 && hides(o, l, t, r, b, 2)) count++
      })
      expect(grid.outlinesHidden(l, t, r, b, -1, 2, Infinity)).to.equal(count)
    }
  })

  it('finds what a spatial index of the same cells finds, empty rectangles included', () => {
    const next = generator(7)
    const [width, height] = [200, 300]
    const index = new SpatialIndex(width, height, 16)
    for (let k = 0; k < 300; k++) {
      const x = next(width + 20) - 10
      const y = next(height + 20) - 10
      // Zero wide or tall, some on cell edges (filed under no cell there, as SpatialIndex files them).
      index.add(next(2) === 0 ? [x, y, x, y + next(30)] : [x, y, x + next(40), y])
      index.add(randomRect(next, width, height))
    }
    const grid = new BoxGrid(width, height, 16, index.rects)
    for (let q = 0; q < 300; q++) {
      const [l, t, r, b] = randomRect(next, width, height)
      let count = 0
      index.walk(l, t, r, b)
      for (let id = index.next(); id >= 0; id = index.next()) if (hides(index.rects[id] as Rect, l, t, r, b, 2)) count++
      expect(grid.outlinesHidden(l, t, r, b, -1, 2, Infinity)).to.equal(count)
    }
  })
})
