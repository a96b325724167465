import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import {OverlapGrid} from '../src/render/overlap-grid.js'
import type {Rect} from '../src/render/geometry.js'

/** A whole-pixel rectangle inside width x height, up to maxW x maxH (some empty, some at the image's edges). */
function randomRect(next: (n: number) => number, width: number, height: number, maxW: number, maxH: number): Rect {
  const l = next(width + 1)
  const t = next(height + 1)
  return [l, t, Math.min(width, l + next(maxW + 1)), Math.min(height, t + next(maxH + 1))]
}

/** How many stored rectangles cover each pixel, counted pixel by pixel. */
class PixelCounts {
  readonly counts: Int32Array
  constructor(
    readonly width: number,
    readonly height: number
  ) {
    this.counts = new Int32Array(width * height)
  }

  add([l, t, r, b]: Rect): void {
    for (let y = t; y < b; y++) for (let x = l; x < r; x++) this.counts[y * this.width + x]!++
  }

  sum([l, t, r, b]: Rect): number {
    let sum = 0
    for (let y = t; y < b; y++) for (let x = l; x < r; x++) sum += this.counts[y * this.width + x]!
    return sum
  }
}

describe('annotate: overlap grid (step 6 of label placement)', () => {
  // Cells smaller than, as large as and larger than the rectangles; images smaller than a cell and not a whole number
  // of cells; more rectangles than the grid expected at first (it grows).
  for (const [width, height, shiftX, shiftY, limitW, limitH] of [
    [1, 1, 0, 0, 1, 1],
    [7, 5, 3, 2, 7, 5],
    [64, 40, 2, 1, 20, 12],
    [315, 120, 4, 3, 46, 22],
    [300, 90, 5, 4, 16, 8],
    [1080, 60, 6, 5, 170, 86],
  ] as const) {
    it(`sums the overlap with every stored rectangle as a per-pixel count does, ${width}x${height}, cells ${2 ** shiftX}x${2 ** shiftY}`, () => {
      const next = generator(width * 7919 + height * 31 + shiftX)
      const grid = new OverlapGrid(width, height, limitW, limitH, shiftX, shiftY, 4)
      const counts = new PixelCounts(width, height)
      for (let round = 0; round < 30; round++) {
        for (let k = 0; k < 10; k++) {
          const rect = randomRect(next, width, height, limitW, limitH)
          expect(grid.fits(...rect), JSON.stringify(rect)).to.equal(true)
          grid.add(...rect)
          counts.add(rect)
        }
        for (let q = 0; q < 40; q++) {
          // Queries of any size, up to the whole image.
          const query =
            next(6) === 0 ? randomRect(next, width, height, width, height) : randomRect(next, width, height, 40, 16)
          const expected = counts.sum(query)
          expect(grid.sum(...query), `${JSON.stringify(query)} after ${10 * (round + 1)}`).to.equal(expected)
          // Told the least sum so far, it may stop once it reaches it, but never reports less than the truth there.
          const least = next(2 * expected + 2)
          const capped = grid.sum(...query, least)
          if (expected < least) expect(capped).to.equal(expected)
          else expect(capped).to.be.at.least(least)
        }
      }
    })
  }

  it('holds whole-pixel rectangles inside the image, and stores those no larger than its limits', () => {
    const grid = new OverlapGrid(100, 50, 30, 20, 4, 3, 8)
    expect(grid.holds(0, 0, 100, 50)).to.equal(true)
    expect(grid.holds(10, 10, 10, 10)).to.equal(true)
    expect(grid.holds(-1, 0, 10, 10)).to.equal(false)
    expect(grid.holds(0, -1, 10, 10)).to.equal(false)
    expect(grid.holds(0, 0, 101, 10)).to.equal(false)
    expect(grid.holds(0, 0, 10, 51)).to.equal(false)
    expect(grid.holds(0.5, 0, 10, 10)).to.equal(false)
    expect(grid.holds(0, 0, 10, 9.5)).to.equal(false)
    expect(grid.holds(20, 0, 10, 10)).to.equal(false)
    expect(grid.fits(70, 30, 100, 50)).to.equal(true)
    expect(grid.fits(69, 30, 100, 50)).to.equal(false)
    expect(grid.fits(70, 29, 100, 50)).to.equal(false)
    expect(grid.fits(0.5, 0, 10, 10)).to.equal(false)
  })
})
