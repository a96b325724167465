import {createHash} from 'node:crypto'

import {expect} from 'chai'

import {countOverlaps, placeLabels, type PlacementOptions} from '../src/render/place-labels.js'
import type {Rect} from '../src/render/geometry.js'

/** `n` boxes as a crowded feed has them: list rows, each with three icons at a seeded jitter (as bench/placement.bench.ts). */
function crowded(n: number, width: number, height: number): Array<{box: Rect; text: string}> {
  let seed = 7
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216
  const out: Array<{box: Rect; text: string}> = []
  const rowH = height / Math.ceil(n / 4)
  for (let i = 0; i < n; i++) {
    const row = Math.floor(i / 4)
    const col = i % 4
    const top = Math.floor(row * rowH)
    const bottom = Math.max(top + 2, Math.floor((row + 1) * rowH))
    const l = col === 0 ? 0 : Math.floor((col / 4) * width + rand() * 10)
    const r = col === 0 ? width : Math.min(width, l + Math.floor(width / 6 + rand() * 20))
    out.push({box: [l, top, r, bottom], text: String(i + 1)})
  }
  return out
}

/** The default 700 px image of a 1080x2400 screen, with 10 px type that may shrink to 9. */
const SMALL_IMAGE: PlacementOptions = {
  imageWidth: 315,
  imageHeight: 700,
  fontPx: 10,
  minFontPx: 9,
  lineWidth: 2,
  measure: (text, px) => text.length * px * 0.6,
}

/** Placement options as annotate sizes them for an image (11 px type and 2 px lines at 360 px), with text to avoid. */
function crowdedOptions(width: number, height: number, textBoxes: Rect[]): PlacementOptions {
  const unit = Math.min(width, height) / 360
  return {
    imageWidth: width,
    imageHeight: height,
    fontPx: Math.max(9, Math.round(11 * unit)),
    minFontPx: 9,
    lineWidth: Math.max(1, Math.round(2 * unit)),
    measure: (text, px) => text.length * px * 0.6,
    textBoxes,
  }
}

/**
 * `count` seeded layouts unlike a feed: boxes of every size anywhere (many overlapping), labels of 1 to 12
 * characters, three measures (one not monotone in the font size), half-pixel and whole starting fonts.
 */
function seededLayouts(count: number): Array<{requests: Array<{box: Rect; text: string}>; options: PlacementOptions}> {
  const out: Array<{requests: Array<{box: Rect; text: string}>; options: PlacementOptions}> = []
  for (let s = 1; s <= count; s++) {
    let seed = s * 7919
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216
    const width = [315, 400, 700, 1080][s % 4] as number
    const height = [700, 900, 315, 2400][s % 4] as number
    const n = Math.floor(20 + rand() * ([100, 400, 900][s % 3] as number))
    const requests: Array<{box: Rect; text: string}> = []
    for (let i = 0; i < n; i++) {
      const w = Math.floor(2 + rand() * rand() * width)
      const h = Math.floor(2 + (rand() * rand() * height) / 3)
      const l = Math.floor(rand() * (width - 1))
      const t = Math.floor(rand() * (height - 1))
      const text = rand() < 0.5 ? String(i + 1) : 'x'.repeat(1 + Math.floor(rand() * 12))
      requests.push({box: [l, t, Math.min(width, l + w), Math.min(height, t + h)], text})
    }
    const options = crowdedOptions(
      width,
      height,
      requests.filter((_, i) => i % (2 + (s % 5)) === 0).map((r) => r.box)
    )
    if (s % 3 === 1) options.measure = (text, px) => text.length * px * 0.55 + ((px * 7) % 3)
    if (s % 3 === 2) {
      options.fontPx += 0.5
      options.minFontPx = 8
      options.measure = (text, px) => text.length * px * 0.58
    }
    out.push({requests, options})
  }
  return out
}

/**
 * Crowded 315x700 layouts that fill the image (600 to 1,200 marks, boxes of every size anywhere): the free-spot
 * search (step 5) finds room far from the box, past the first windows it reads, or none at all.
 */
function fullLayouts(seeds: number[]): Array<{requests: Array<{box: Rect; text: string}>; options: PlacementOptions}> {
  return seeds.map((s) => {
    let seed = s * 104729 + 13
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216
    const [width, height] = [315, 700]
    const count = 50 + Math.floor(rand() * 1450)
    const ids = s % 4 === 3
    const requests: Array<{box: Rect; text: string}> = []
    for (let i = 0; i < count; i++) {
      const w = Math.floor(2 + rand() * rand() * width * (ids ? 0.3 : 1))
      const h = Math.floor(2 + (rand() * rand() * height) / 3)
      const l = Math.floor(rand() * (width - 1))
      const t = Math.floor(rand() * (height - 1))
      const text = ids
        ? Math.floor(rand() * 1e9)
            .toString(36)
            .slice(0, 6)
        : rand() < 0.5
          ? String(i + 1)
          : 'x'.repeat(1 + Math.floor(rand() * 12))
      requests.push({box: [l, t, Math.min(width, l + w), Math.min(height, t + h)], text})
    }
    const options: PlacementOptions = {
      imageWidth: width,
      imageHeight: height,
      fontPx: 10 + (s % 5 === 0 ? 0.5 : 0),
      minFontPx: s % 7 === 0 ? 8 : 9,
      lineWidth: 2,
      measure: s % 3 === 0 ? (t, px) => t.length * px * 0.55 + ((px * 7) % 3) : (t, px) => t.length * px * 0.6,
      textBoxes: requests.filter((_, i) => i % (2 + (s % 5)) === 0).map((r) => r.box),
    }
    return {requests, options}
  })
}

/**
 * Placement is pure arithmetic on integers, and its speed-ups must not move a label: every label of these crowded
 * screens (all six steps taken: corners, smaller fonts, rings, the free-spot search, overlaps on a full image) sits
 * where the implementation before them put it. The fingerprints are the sha256 of the placements that
 * implementation (8a53428) gave, except where the shifts at a label's smaller sizes changed to step by its smallest
 * size (so the font sizes could be searched by bisection): the 1080x2400 feed, the seeded and the full layouts were
 * then regenerated (labels placed at the first size did not move; `npm run bench -- placement` prints the quality).
 */
describe('annotate: label placement gives the same rectangles as before its speed-ups', () => {
  // The bench's counts on both sizes. 500 marks on 315x700 is not an image with room for every label: some reach
  // step 6 (30 overlapping pairs), so a change of what step 6 tries moves labels there too.
  const cases: Array<[number, number, number, string]> = [
    [315, 700, 250, 'd770a027c2d5c900'],
    [315, 700, 500, '3e838b8465c8be9b'],
    [315, 700, 1000, '473e4c28b53c0df4'],
    [1080, 2400, 250, 'a1f48129946a4dd6'],
    [1080, 2400, 500, '496ce731e5826055'],
    [1080, 2400, 1000, '179e13b078becefb'],
    [700, 315, 600, 'e02bfa83f66bb5c0'],
  ]
  for (const [width, height, n, fingerprint] of cases) {
    it(`${n} marks on ${width}x${height}`, () => {
      const requests = crowded(n, width, height)
      const placements = placeLabels(
        requests,
        crowdedOptions(
          width,
          height,
          requests.filter((_, i) => i % 5 === 0).map((r) => r.box)
        )
      )
      const digest = createHash('sha256').update(JSON.stringify(placements)).digest('hex').slice(0, 16)
      expect(digest).to.equal(fingerprint)
      if (n === 250 || width === 1080) expect(countOverlaps(placements.map((p) => p.rect))).to.equal(0)
    })
  }

  // Every step on layouts a feed never makes; the fingerprint is of 72a83bc's placements, before the free-spot
  // search walked lines and before sizes known to fit nowhere stopped being tried.
  it('96 seeded layouts of boxes of every size, three measures', () => {
    const hash = createHash('sha256')
    for (const {requests, options} of seededLayouts(96)) hash.update(JSON.stringify(placeLabels(requests, options)))
    expect(hash.digest('hex').slice(0, 16)).to.equal('fa811c676fc0292b')
  })

  // The free-spot search reads the grid in windows that double around the box; on these full images the nearest
  // free spot lies past the window's reach when the window already covers the image. The fingerprint is of
  // 32e3755's placements (the free-spot search along lines, before it tried only cells a free spot may start in).
  it('4 full 315x700 layouts whose free spots lie far from their boxes', () => {
    const hash = createHash('sha256')
    for (const {requests, options} of fullLayouts([125, 157, 235, 343])) {
      hash.update(JSON.stringify(placeLabels(requests, options)))
    }
    expect(hash.digest('hex').slice(0, 16)).to.equal('3c956b03b6726f98')
  })

  // Step 6 sums most overlaps from per-pixel counts, which hold only whole-pixel labels inside the image: labels of
  // boxes at fractions of a pixel, and labels wider than the image, are summed pair by pair. The fingerprint is of
  // 63433fe's placements (every overlap summed pair by pair).
  it('crowded layouts whose labels are not whole pixels, or stick out of the image', () => {
    const hash = createHash('sha256')
    const options = (imageWidth: number, imageHeight: number): PlacementOptions => ({
      ...SMALL_IMAGE,
      imageWidth,
      imageHeight,
    })
    // Every third box half a pixel right of and below a whole pixel.
    const halves = crowded(1000, 315, 700).map((r, i) =>
      i % 3 === 0 ? {...r, box: r.box.map((v) => v + 0.5) as Rect} : r
    )
    const fractional = placeLabels(halves, options(315, 700))
    expect(fractional.filter((p) => !Number.isInteger(p.rect[0])).length).to.be.above(100)
    hash.update(JSON.stringify(fractional))
    // Every fifth label 12 characters long on a 40 px wide image.
    const long = crowded(400, 40, 300).map((r, i) => (i % 5 === 0 ? {...r, text: 'x'.repeat(12)} : r))
    const wide = placeLabels(long, options(40, 300))
    expect(wide.filter((p) => p.rect[2] > 40).length).to.equal(80)
    hash.update(JSON.stringify(wide))
    expect(hash.digest('hex').slice(0, 16)).to.equal('15211ce768cf8eef')
  })

  it('step 6 sums the overlap of more than 64 labels under one spot, which it scores pair by pair', () => {
    // 70 labels wider than a 20 px image, on one box: none fits, each goes to least overlap with the whole pile
    // under it, past the 64 ids a spatial index's first buffer holds (a stale buffer threw a TypeError here).
    const pile = Array.from({length: 70}, () => ({box: [0, 0, 10, 10] as Rect, text: 'W'.repeat(10)}))
    const placed = placeLabels(pile, {
      imageWidth: 20,
      imageHeight: 20,
      fontPx: 10,
      minFontPx: 10,
      lineWidth: 2,
      measure: (text, px) => text.length * px * 0.6,
    })
    expect(placed).to.have.length(70)
    expect(placed.every((p) => p.rect[2] - p.rect[0] > 20)).to.equal(true)
  })
})

describe('annotate: label placement, the free-spot search', () => {
  it('finds the nearest free spot for a box far outside the image, as a scan of every position would', () => {
    const requests: Array<{box: Rect; text: string}> = []
    // Labels fill the left edge, where every corner and ring spot of the last box clamps to.
    for (let y = 0; y + 10 <= 700; y += 10) requests.push({box: [0, y, 60, y + 10], text: 'xxxxxxxxx'})
    // The largest box, so placed last, ten million pixels left of the image: its squared distances are ~1e14.
    requests.push({box: [-1e7, 300, -9e6, 400], text: 'x'})
    const placements = placeLabels(requests, SMALL_IMAGE)
    const others = placements.slice(0, -1).map((p) => p.rect)
    const [l, t, r, b] = (placements.at(-1) as {rect: Rect}).rect
    const [w, h] = [r - l, b - t]
    let nearest: [number, number] | undefined
    let least = Infinity
    for (let y = 0; y <= 700 - h; y++) {
      for (let x = 0; x <= 315 - w; x++) {
        const d = (x + 1e7) ** 2 + (y - 300) ** 2
        if (d >= least || others.some((o) => o[0] < x + w && x < o[2] && o[1] < y + h && y < o[3])) continue
        least = d
        nearest = [x, y]
      }
    }
    expect([l, t]).to.deep.equal(nearest)
  })
})

describe('annotate: label placement work', () => {
  it('checks fewer spots per mark once the image is full: a size that fits nowhere is not tried again', () => {
    const checksPerMark = (n: number) => {
      const stats = {spotChecks: 0}
      placeLabels(crowded(n, 315, 700), {
        ...SMALL_IMAGE,
        stats,
      })
      return stats.spotChecks / n
    }
    // 1,000 marks fill a 315x700 image; of 4,000, most labels find no room at any size. Each used to try every
    // corner at both sizes and 289 ring spots first (about 370 checks); now the size is known to fit nowhere.
    const full = checksPerMark(1000)
    const fuller = checksPerMark(4000)
    expect(fuller, `${fuller.toFixed(1)} checks per mark at 4000, ${full.toFixed(1)} at 1000`).to.be.below(full / 2)
  })

  it('checks at most 4x the spots per mark on a full image as where every label fits: ring rows with no room are not tried', () => {
    const checksPerMark = (n: number) => {
      const stats = {spotChecks: 0}
      placeLabels(crowded(n, 315, 700), {...SMALL_IMAGE, stats})
      return stats.spotChecks / n
    }
    // At 250 marks every label fits at a corner (about 9 checks each). At 1,000 the image fills as it is labelled:
    // the labels that find no corner searched all 289 ring spots around their box, one check each (57 per mark),
    // where the free-spot map already knew most rows of them held no free spot between the rings' ends.
    const fits = checksPerMark(250)
    const full = checksPerMark(1000)
    expect(full, `${full.toFixed(1)} checks per mark at 1000, ${fits.toFixed(1)} at 250`).to.be.below(4 * fits)
  })
})
