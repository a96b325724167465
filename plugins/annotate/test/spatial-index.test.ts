import {expect} from 'chai'

import {intersects, type Rect} from '../src/render/geometry.js'
import {SpatialIndex} from '../src/render/spatial-index.js'

/** A small deterministic generator (an LCG), so a failure names a case that reproduces. */
function lcg(seed: number): (n: number) => number {
  let s = seed
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648
    return s % n
  }
}

describe('annotate: the spatial index', () => {
  it('intersecting() lists every stored rectangle overlapping the query once, as a check of each against it does', () => {
    const rnd = lcg(7)
    for (let round = 0; round < 40; round++) {
      const index = new SpatialIndex(300, 600)
      const stored: Rect[] = []
      for (let k = 0; k < 120; k++) {
        // Some reach past the image's edges: those are filed under the border cells.
        const l = rnd(340) - 20
        const t = rnd(640) - 20
        const r: Rect = [l, t, l + 1 + rnd(90), t + 1 + rnd(60)]
        stored.push(r)
        index.add(r)
      }
      const out: number[] = [99] // emptied first
      for (let q = 0; q < 30; q++) {
        const l = rnd(340) - 20
        const t = rnd(640) - 20
        const query: Rect = [l, t, l + 1 + rnd(120), t + 1 + rnd(120)]
        const expected = stored.flatMap((r, id) => (intersects(r, query) ? [id] : []))
        expect(
          [...index.intersecting(query, out)].sort((a, b) => a - b),
          `round ${round} query ${q}`
        ).to.deep.equal(expected)
      }
    }
  })
})
