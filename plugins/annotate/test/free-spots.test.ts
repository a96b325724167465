import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import {FreeSpots} from '../src/render/free-spots.js'
import type {Rect} from '../src/render/geometry.js'
import {SpatialIndex} from '../src/render/spatial-index.js'

/** A placed label: mostly label-sized, some at half pixels, some sticking out of the image or wider than it. */
function randomLabel(next: (n: number) => number, width: number, height: number): Rect {
  const half = next(4) === 0 ? 0.5 : 0
  const l = next(width + 20) - 10 + half
  const t = next(height + 20) - 10 + half
  const r = l + 1 + next(next(10) === 0 ? width + 30 : 40)
  const b = t + 1 + next(16)
  return [l, t, r, b]
}

/** Whether a w x h label at (x, y) overlaps none of `placed` (the predicate of placement's `free`). */
function freeAt(placed: Rect[], x: number, y: number, w: number, h: number): boolean {
  return !placed.some((o) => o[0] < x + w && x < o[2] && o[1] < y + h && y < o[3])
}

/** The free position nearest (ax, ay) by a scan of every whole position: least squared distance, then y, then x. */
function scanNearest(
  placed: Rect[],
  width: number,
  height: number,
  w: number,
  h: number,
  ax: number,
  ay: number
): [number, number] | undefined {
  let best: [number, number] | undefined
  let bestD = Infinity
  for (let y = 0; y <= height - h; y++) {
    for (let x = 0; x <= width - w; x++) {
      const d = (x - ax) ** 2 + (y - ay) ** 2
      if (d < bestD && freeAt(placed, x, y, w, h)) {
        bestD = d
        best = [x, y]
      }
    }
  }
  return best
}

describe('annotate: free spots of one label size (steps 4-5 of label placement)', () => {
  // Widths around 32-bit word edges; heights over several bands of rows; labels up to larger than the image.
  for (const [width, height, w, h] of [
    [40, 30, 7, 5],
    [64, 70, 1, 1],
    [97, 41, 33, 12],
    [130, 90, 31, 3],
    [20, 20, 25, 4],
  ] as const) {
    it(`holds exactly the free positions and finds the nearest one, as a scan does, on ${width}x${height} for ${w}x${h}`, () => {
      const next = generator(width * 131 + height * 7 + w)
      const placed = new SpatialIndex(width, height)
      const rects: Rect[] = []
      // Made before any label: every band is made on its first search, from the labels placed by then.
      const spots = new FreeSpots(width, height, w, h, placed)
      expect(spots.cols).to.equal(Math.max(0, width - w + 1))
      for (let round = 0; round < 25; round++) {
        for (let k = 0; k < 4; k++) {
          const rect = randomLabel(next, width, height)
          placed.add(rect)
          rects.push(rect)
          spots.block(rect)
        }
        // Anchors inside, at fractions, far outside the image.
        const ax = round % 5 === 4 ? -1e6 : next(width + 40) - 20 + (round % 3 === 0 ? 0.5 : 0)
        const ay = round % 7 === 6 ? 1e5 : next(height + 40) - 20 + (round % 2 === 0 ? 0.25 : 0)
        const expected = scanNearest(rects, width, height, w, h, ax, ay)
        expect(spots.nearest(ax, ay), `round ${round}`).to.equal(expected !== undefined)
        if (expected) expect([spots.x, spots.y], `round ${round}, anchor ${ax}, ${ay}`).to.deep.equal(expected)
        expect(spots.none()).to.equal(expected === undefined)
        // A search that finds none made every band; then no band holds a free position.
        if (expected === undefined && spots.cols > 0) expect(spots.noneIn(0, spots.rows - 1)).to.equal(true)
        // After a search the rows it read are made: each says what a check of every placed label says.
        if (round % 4 !== 3) continue
        for (let y = 0; y < spots.rows; y++) {
          let free = false
          for (let x = 0; x < spots.cols; x++) {
            if (!spots.holds(x, y)) continue
            expect(spots.has(x, y), `${x}, ${y}`).to.equal(freeAt(rects, x, y, w, h))
            free ||= spots.has(x, y)
          }
          // A row with a free position is never said to have none.
          if (free) expect(spots.noneIn(y, y), `row ${y}`).to.equal(false)
        }
      }
    })
  }

  it('makes only the rows a search reads, and holds no position of a row not made or at a fraction', () => {
    const placed = new SpatialIndex(100, 400)
    placed.add([0, 0, 100, 10])
    const spots = new FreeSpots(100, 400, 10, 10, placed)
    expect(spots.holds(0, 0)).to.equal(false)
    expect(spots.nearest(0, 0)).to.equal(true)
    expect([spots.x, spots.y]).to.deep.equal([0, 10])
    expect(spots.holds(0, 10)).to.equal(true)
    expect(spots.holds(0.5, 10)).to.equal(false)
    // Far rows were never read: a label placed there later is left to the caller's own check until they are.
    expect(spots.holds(0, 380)).to.equal(false)
    expect([spots.madeAt(-50), spots.madeAt(10.5), spots.madeAt(380), spots.madeAt(1e9)]).to.deep.equal([
      true,
      true,
      false,
      false,
    ])
    const late: Rect = [0, 380, 100, 391]
    placed.add(late)
    spots.block(late)
    // Rows reach y = 390; the label blocks 371-390.
    expect(spots.nearest(50, 385)).to.equal(true)
    expect([spots.x, spots.y]).to.deep.equal([50, 370])
    expect(spots.has(50, 381)).to.equal(false)
    // Rows 371-390 (the last band's rows, 368-390, but 368-370) hold nothing free; bands not made prove nothing.
    expect(spots.noneIn(371, 390)).to.equal(false)
    for (let x = 0; x < 91; x++) {
      for (const y of [368, 369, 370]) {
        const taken: Rect = [x, y, x + 1, y + 1]
        placed.add(taken)
        spots.block(taken)
      }
    }
    expect(spots.noneIn(371, 390)).to.equal(true)
    expect(spots.noneIn(300, 390)).to.equal(false)
  })
})

describe('annotate: the free-spot search reads few rows', () => {
  it('passes the bands of rows whose free positions all lie farther across than the nearest found', () => {
    // A 315x700 image full but for a strip along its right edge (as a crowded screen fills from its boxes): every row
    // holds free positions, all at x >= 280. From the left edge, the nearest is in the anchor's own row; any other
    // row's lies farther. The search read every row within 280 of the anchor, one by one.
    const [width, height, w, h] = [315, 700, 23, 11]
    const placed = new SpatialIndex(width, height)
    const rects: Rect[] = []
    for (let y = 0; y < height; y += 10) {
      const rect: Rect = [0, y, 280 + (y % 3), y + 10]
      placed.add(rect)
      rects.push(rect)
    }
    const spots = new FreeSpots(width, height, w, h, placed)
    for (const [ax, ay] of [
      [0, 350],
      [10.5, 20.25],
      [-40, 699],
    ] as const) {
      spots.rowsRead = 0
      expect(spots.nearest(ax, ay)).to.equal(true)
      expect([spots.x, spots.y]).to.deep.equal(scanNearest(rects, width, height, w, h, ax, ay))
      expect(spots.rowsRead, `rows read from ${ax}, ${ay}`).to.be.at.most(32)
    }
  })
})
