import {expect} from 'chai'

import {generator} from '@arc-cli/test-support/seeded'

import type {Rect} from '../src/render/geometry.js'
import {RowOutlines} from '../src/render/row-outlines.js'

/** Whether a label at [l, r) x [t, b) hides part of o's outline (`line` wide): placement's outline penalty. */
function hides(o: Rect, l: number, t: number, r: number, b: number, line: number): boolean {
  if (!(o[0] < r && l < o[2] && o[1] < b && t < o[3])) return false
  return !(l >= o[0] + line && t >= o[1] + line && r <= o[2] - line && b <= o[3] - line)
}

describe('annotate: row outlines (the list rows a label hides the outlines of)', () => {
  const [W, H] = [315, 700]
  const [least, most] = [11, 14]

  /** List rows as wide as the image (some past its edges, some at half pixels) of every height, and other boxes. */
  function boxes(next: (n: number) => number, line: number): Rect[] {
    const out: Rect[] = []
    for (let k = 0; k < 300; k++) {
      const t = next(H + 40) - 20 + (next(4) === 0 ? 0.5 : 0)
      const height = [1, 3, least + 2 * line - 1, least + 2 * line, most + 2 * line - 1, most + 2 * line, 40][next(7)]
      const kind = next(5)
      if (kind === 0) out.push([next(40), t, 10 + next(W), t + (height as number)])
      else out.push([-next(3), t, W + next(3), t + (height as number)])
    }
    return out
  }

  for (const line of [1, 2, 3]) {
    it(`counts the thin rows a label crosses exactly, and the tall rows' outlines it hides as a scan does (line ${line})`, () => {
      const next = generator(line * 17)
      const rects = boxes(next, line)
      const rows = RowOutlines.of(rects, W, H, least, most, line) as RowOutlines
      expect(rows).to.not.equal(undefined)
      const wide = (o: Rect) => o[0] <= 0 && o[2] >= W
      const thin = (o: Rect) => wide(o) && o[3] - o[1] < least + 2 * line
      const tall = (o: Rect) => wide(o) && o[3] - o[1] >= most + 2 * line
      expect(Array.from(rows.kinds)).to.deep.equal(rects.map((o) => (thin(o) ? 1 : tall(o) ? 2 : 0)))
      for (let q = 0; q < 600; q++) {
        const h = least + next(most - least + 1)
        const w = 5 + next(40)
        // Away from the image's edges (where a label also hides a tall row's left or right outline, not counted)
        // half the time; at half pixels or past the last row now and then (thin rows are counted there too).
        const inside = next(2) === 0
        const x = inside ? line + next(W - w - 2 * line + 1) : next(W - w + 1)
        const y = next(8) === 0 ? next(H) + 0.5 : next(8) === 0 ? H - next(5) : next(H - h + 1)
        const except = next(rects.length + 1) - 1
        let thinHidden = 0
        let tallHidden = 0
        rects.forEach((o, id) => {
          if (id === except || !hides(o, x, y, x + w, y + h, line)) return
          if (thin(o)) thinHidden++
          if (tall(o)) tallHidden++
        })
        expect(rows.thin(y, y + h, except)).to.equal(thinHidden)
        const bands = rows.bands(y, y + h, except)
        if (inside && Number.isInteger(y) && y + h <= H) expect(bands).to.equal(tallHidden)
        else expect(bands).to.be.at.most(tallHidden)
      }
    })
  }

  it('bounds nothing it cannot prove: rows past the image or not whole, no row as wide as the image', () => {
    const rows = RowOutlines.of([[0, 10, W, 40]], W, H, least, most, 2) as RowOutlines
    expect(rows.bands(5, 16, -1)).to.equal(1)
    expect(rows.bands(5, 16, 0)).to.equal(0)
    expect(rows.bands(5.5, 16.5, -1)).to.equal(0)
    expect(rows.bands(H - 5, H + 9, -1)).to.equal(0)
    expect(RowOutlines.of([[1, 10, W, 12]], W, H, least, most, 2)).to.equal(undefined)
    expect(RowOutlines.of([[0, 10, W, 12]], W, H, least, most, 0)).to.equal(undefined)
  })
})
