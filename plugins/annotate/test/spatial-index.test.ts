import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import type {Rect} from '../src/render/geometry.js'
import {SpatialIndex} from '../src/render/spatial-index.js'

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
