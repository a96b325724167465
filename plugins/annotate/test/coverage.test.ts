import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import {CoverageSums} from '../src/render/coverage.js'
import {overlapArea, type Rect} from '../src/render/geometry.js'

/** A whole-pixel rectangle inside width x height: mostly label-sized, some as wide or tall as the image, some empty. */
function randomRect(next: (n: number) => number, width: number, height: number): Rect {
  const l = next(width + 1)
  const t = next(height + 1)
  const big = next(8) === 0
  const r = Math.min(width, l + next(big ? width + 1 : 40))
  const b = Math.min(height, t + next(big ? height + 1 : 16))
  return [l, t, r, b]
}

/** What step 6 summed before: the overlap of `query` with each stored rectangle, pair by pair. */
function pairwise(stored: Rect[], query: Rect): number {
  let sum = 0
  for (const rect of stored) sum += overlapArea(rect, query)
  return sum
}

describe('annotate: coverage sums (step 6 of label placement)', () => {
  // Widths around the block sizes (4, 8, 16, 32 px), so edges fall on, just before and just past block starts.
  for (const [width, height] of [
    [1, 1],
    [7, 5],
    [64, 40],
    [315, 120],
    [1080, 60],
  ] as const) {
    it(`sums the overlap with every stored rectangle exactly, as pairwise areas do, on ${width}x${height}`, () => {
      const next = generator(width * 7919 + height)
      const sums = new CoverageSums(width, height)
      const stored: Rect[] = []
      for (let round = 0; round < 30; round++) {
        for (let k = 0; k < 10; k++) {
          const rect = randomRect(next, width, height)
          expect(sums.fits(...rect)).to.equal(true)
          sums.add(...rect)
          stored.push(rect)
        }
        for (let q = 0; q < 40; q++) {
          const query = randomRect(next, width, height)
          const expected = pairwise(stored, query)
          expect(sums.sum(...query), `${JSON.stringify(query)} after ${stored.length}`).to.equal(expected)
          // Told the least sum so far, it may stop once it reaches it, but never reports less than the truth there.
          const least = next(2 * expected + 2)
          const capped = sums.sum(...query, least)
          if (expected < least) expect(capped).to.equal(expected)
          else expect(capped).to.be.at.least(least)
        }
      }
    })
  }

  it('stores and sums only whole-pixel rectangles inside the image', () => {
    const sums = new CoverageSums(100, 50)
    expect(sums.fits(0, 0, 100, 50)).to.equal(true)
    expect(sums.fits(10, 10, 10, 10)).to.equal(true)
    expect(sums.fits(-1, 0, 10, 10)).to.equal(false)
    expect(sums.fits(0, -1, 10, 10)).to.equal(false)
    expect(sums.fits(0, 0, 101, 10)).to.equal(false)
    expect(sums.fits(0, 0, 10, 51)).to.equal(false)
    expect(sums.fits(0.5, 0, 10, 10)).to.equal(false)
    expect(sums.fits(0, 0, 10, 9.5)).to.equal(false)
    expect(sums.fits(20, 0, 10, 10)).to.equal(false)
  })
})
