import {clamp, intersects, touches, type Rect} from './geometry.js'
import {CoverageSums} from './coverage.js'
import {SpatialIndex} from './spatial-index.js'

/**
 * Label placement. Labels are placed one by one, smallest box first (small boxes have the fewest good spots),
 * each at the cheapest candidate that overlaps no label placed before it:
 *
 * 1. the box's corners, inside and just outside (top-left first, as spec 000 draws it), then beside it;
 * 2. the same corners shifted along the box's top and left edges;
 * 3. the same again with the font stepped down to `minFontPx` (never smaller, so labels stay legible);
 * 4. a search on rings around the box, nearest first, with a leader line back to the box;
 * 5. the free spot nearest the box anywhere in the image (FreeSpotFinder: found among the few positions where the
 *    occupancy grid says a free spot may start, never by a scan of the image's pixels);
 * 6. when the screen truly has no room: the spot with the least overlap, reported as an overlap.
 *
 * Cost among free candidates: the candidate's rank, plus a penalty for each other box outline the label would
 * hide, plus a larger one for each element with visible text it would cover (marked or not, its own included),
 * so a label sits on the edge outside a text element when there is room instead of over the words it labels. Every position is clamped inside the image, so labels near the edges move in. Pure arithmetic on
 * integers: the same marks always give the same rectangles.
 */
interface LabelRequest {
  box: Rect
  text: string
}

export interface LabelPlacement {
  rect: Rect
  fontPx: number
  /** The label does not touch its box: draw a leader line. */
  detached: boolean
}

export interface PlacementOptions {
  imageWidth: number
  imageHeight: number
  /** Font size to try first; the caller clamps it to at least minFontPx. */
  fontPx: number
  minFontPx: number
  /** Box outline width in pixels. */
  lineWidth: number
  /** Text width in pixels at a font size. */
  measure(text: string, fontPx: number): number
  /** Boxes of on-screen elements that show text, marked or not: a label covering one hides what it says. */
  textBoxes?: Rect[]
  /** Counts of the work done, added to when given (tests and benchmarks). */
  stats?: PlacementStats
}

export interface PlacementStats {
  /** Spots checked for being free (steps 1-4): a label that fits at once checks a few, a crowded one hundreds. */
  spotChecks: number
}

function labelSize(textWidth: number, fontPx: number): {width: number; height: number} {
  const padX = Math.max(2, Math.round(fontPx * 0.35))
  const padY = Math.max(1, Math.round(fontPx * 0.15))
  return {width: Math.ceil(textWidth) + 2 * padX, height: Math.ceil(fontPx) + 2 * padY}
}

const OUTLINE_PENALTY = 6
const TEXT_PENALTY = 12
const SHIFT_STEPS = 6
const RING_RADIUS = 8

/** How many positions `cornerCandidates` writes. */
const CANDIDATES = 12 + 5 * SHIFT_STEPS

/**
 * The candidate positions (top-left corners, best first) for a w x h label of `box`, as x, y pairs into `out`: the
 * twelve corners, then SHIFT_STEPS shifts along the box's top edge (above and below it), down its left edge (inside
 * and outside) and along its bottom edge, `stepX` and `stepY` apart.
 *
 * Every candidate is anchored: a corner of the label sits on a point that does not move with the label's size (the
 * steps are the label's first size's, passed in, not the current one's), so its label, clamped into the image, holds
 * the same candidate's label of any smaller size (no wider, no taller) wherever the box is. So a candidate free at
 * one size is free at every smaller one: the search over font sizes in `placeLabels` relies on it.
 */
function cornerCandidates(box: Rect, w: number, h: number, stepX: number, stepY: number, out: Float64Array): void {
  const l = box[0]
  const t = box[1]
  const r = box[2]
  const b = box[3]
  const rw = r - w
  const lw = l - w
  const th = t - h
  const bh = b - h
  out[0] = l
  out[1] = t
  out[2] = l
  out[3] = th
  out[4] = rw
  out[5] = t
  out[6] = rw
  out[7] = th
  out[8] = l
  out[9] = bh
  out[10] = l
  out[11] = b
  out[12] = rw
  out[13] = bh
  out[14] = rw
  out[15] = b
  out[16] = lw
  out[17] = t
  out[18] = r
  out[19] = t
  out[20] = lw
  out[21] = bh
  out[22] = r
  out[23] = bh
  let i = 24
  for (let k = 1; k <= SHIFT_STEPS; k++) {
    const x = l + k * stepX
    const y = t + k * stepY
    out[i] = x
    out[i + 1] = t
    out[i + 2] = x
    out[i + 3] = th
    out[i + 4] = l
    out[i + 5] = y
    out[i + 6] = lw
    out[i + 7] = y
    out[i + 8] = x
    out[i + 9] = b
    i += 10
  }
}

/** Candidate `rank` of `cornerCandidates`, alone, into out[0], out[1]. */
function candidateAt(
  box: Rect,
  w: number,
  h: number,
  stepX: number,
  stepY: number,
  rank: number,
  out: Float64Array
): void {
  if (rank < 12) {
    const corner = CORNERS[rank] as number
    // Bits: 1 right edge (r - w) / 2 left edge's outside (l - w) / 4 right edge's outside (r), else l; 8 above (t -
    // h) / 16 bottom inside (b - h) / 32 below (b), else t.
    out[0] = corner & 1 ? box[2] - w : corner & 2 ? box[0] - w : corner & 4 ? box[2] : box[0]
    out[1] = corner & 8 ? box[1] - h : corner & 16 ? box[3] - h : corner & 32 ? box[3] : box[1]
    return
  }
  const k = Math.floor((rank - 12) / 5) + 1
  const x = box[0] + k * stepX
  switch ((rank - 12) % 5) {
    case 0:
      out[0] = x
      out[1] = box[1]
      return
    case 1:
      out[0] = x
      out[1] = box[1] - h
      return
    case 2:
      out[0] = box[0]
      out[1] = box[1] + k * stepY
      return
    case 3:
      out[0] = box[0] - w
      out[1] = box[1] + k * stepY
      return
    default:
      out[0] = x
      out[1] = box[3]
  }
}

/** The twelve corners of `cornerCandidates` in its order, as `candidateAt`'s bits. */
const CORNERS = Uint8Array.of(0, 8, 1, 1 | 8, 16, 32, 1 | 16, 1 | 32, 2, 4, 2 | 16, 4 | 16)

/** The step of the shifted candidates along the box's edges: a label width, or a seventh of a wide box. */
function shiftStep(box: Rect, w: number): number {
  return Math.max(w, Math.ceil((box[2] - box[0]) / (SHIFT_STEPS + 1)))
}

// Ring offsets (in half label widths and label heights) nearest first; the order does not depend on the label size.
const RING_ORDER: Int8Array = (() => {
  const out: {dx: number; dy: number; d: number; i: number}[] = []
  let i = 0
  for (let dy = -RING_RADIUS; dy <= RING_RADIUS; dy++) {
    for (let dx = -RING_RADIUS; dx <= RING_RADIUS; dx++) out.push({dx, dy, d: dx * dx + 4 * dy * dy, i: i++})
  }
  return Int8Array.from(out.sort((a, b) => a.d - b.d || a.i - b.i).flatMap((c) => [c.dx, c.dy]))
})()

export function placeLabels(requests: LabelRequest[], options: PlacementOptions): LabelPlacement[] {
  const placer = new Placer(requests, options)
  const result: LabelPlacement[] = new Array(requests.length)
  const order = placingOrder(placer.boxes)
  for (let k = 0; k < order.length; k++) {
    const index = order[k] as number
    const chosen = placer.place(index, requests[index] as LabelRequest)
    placer.add(chosen.rect)
    result[index] = chosen
  }
  return result
}

/**
 * The order labels are placed in: smallest box first, then request order. Sorted by a comparator made once (a
 * closure made per call is compiled afresh by V8 for each annotation), reading the areas from `placingAreas`.
 */
function placingOrder(boxes: Rect[]): Int32Array {
  const areas = new Float64Array(boxes.length)
  const order = new Int32Array(boxes.length)
  for (let i = 0; i < boxes.length; i++) {
    const r = boxes[i] as Rect
    areas[i] = (r[2] - r[0]) * (r[3] - r[1])
    order[i] = i
  }
  placingAreas = areas
  // The comparator orders every pair (ties by index), so any sort gives the one order.
  order.sort(byPlacingArea)
  placingAreas = EMPTY_AREAS
  return order
}

const EMPTY_AREAS = new Float64Array(0)
let placingAreas = EMPTY_AREAS

function byPlacingArea(a: number, b: number): number {
  return (placingAreas[a] as number) - (placingAreas[b] as number) || a - b
}

/** Into [0, limit - size]; at 0 when the label is larger than the image. */
function clampInto(v: number, size: number, limit: number): number {
  return v < 0 ? 0 : v > limit - size ? Math.max(0, limit - size) : v
}

/**
 * One placement's state and steps, as methods (made once per process, not closures per call or per label, which
 * V8 would compile afresh each time).
 */
class Placer {
  readonly W: number
  readonly H: number
  /** The labels placed so far (in placing order) and every box (in request order), each with its grid. */
  readonly placedIndex: SpatialIndex
  readonly boxIndex: SpatialIndex
  readonly boxes: Rect[]
  readonly textIndex: SpatialIndex
  readonly textBoxes: Rect[]
  readonly lineWidth: number
  readonly fonts: number[]
  readonly occupied: OccupancyGrid
  /** The label that blocked the last try (see `free`), or -1. */
  blocker = -1
  readonly stats: PlacementStats | undefined
  readonly measure: (text: string, fontPx: number) => number
  /** Step 6's overlaps with the labels placed so far, made when it first runs. */
  pile: PileOverlaps | undefined
  readonly candidates = new Float64Array(2 * CANDIDATES)
  /** Step 6's candidates, clamped. */
  readonly tried = new Float64Array(2 * CANDIDATES)
  readonly one = new Float64Array(2)
  /** Per candidate of the label being placed: the largest font index it was found blocked at (-1: none). */
  readonly blockedAt = new Int32Array(CANDIDATES)
  /**
   * Step 5, which also knows the label sizes that fit nowhere any more: every try of such a size is blocked, so
   * none is made (on a full image most labels go straight to step 6).
   */
  readonly finder: FreeSpotFinder
  /** Per font size (same order as `fonts`) of the label being placed: its width and height. */
  readonly widths: Float64Array
  readonly heights: Float64Array
  /** The label being placed: its request's index, its box and the shifts' steps (see `cornerCandidates`). */
  index = 0
  box: Rect = [0, 0, 0, 0]
  stepX = 0
  stepY = 0

  constructor(requests: LabelRequest[], options: PlacementOptions) {
    const W = (this.W = options.imageWidth)
    const H = (this.H = options.imageHeight)
    this.placedIndex = new SpatialIndex(W, H)
    this.boxIndex = new SpatialIndex(W, H, 48)
    for (let i = 0; i < requests.length; i++) this.boxIndex.add((requests[i] as LabelRequest).box)
    this.boxes = this.boxIndex.rects
    this.textIndex = new SpatialIndex(W, H, 48)
    for (const rect of options.textBoxes ?? []) this.textIndex.add(rect)
    this.textBoxes = this.textIndex.rects
    this.lineWidth = options.lineWidth
    this.fonts = [options.fontPx]
    for (let f = Math.floor(options.fontPx) - 1; f >= options.minFontPx; f--) this.fonts.push(f)
    this.occupied = new OccupancyGrid(W, H)
    this.stats = options.stats
    this.measure = options.measure
    this.finder = new FreeSpotFinder(W, H, this.placedIndex, this.occupied)
    this.widths = new Float64Array(this.fonts.length)
    this.heights = new Float64Array(this.fonts.length)
  }

  /** Records a label just placed. */
  add(rect: Rect): void {
    this.placedIndex.add(rect)
    this.occupied.add(rect)
    this.pile?.add(rect)
  }

  /**
   * Free: overlapping no label placed so far. On a crowded screen most tries are not, and proving it must cost
   * little, or a label that finds no room near its box (every font size, every candidate: a thousand tries) costs
   * what a hundred labels that fit at once do. So, before the grid: the occupancy of the small cell at the try's
   * centre (a cell wholly inside the try that a label overlaps proves the try blocked), then the label that blocked
   * the last try (a neighbour of the same box, at the next font size or the next position).
   */
  free(l: number, t: number, r: number, b: number): boolean {
    if (this.stats) this.stats.spotChecks++
    // The grid cell at the try's centre (>> 3: halved, then over 4 px cells), when it lies wholly inside the try and
    // is occupied, proves it taken with one read: the hottest lines of placement on a crowded screen.
    const cx = (l + r) >> 3
    const cy = (t + b) >> 3
    const {occupied} = this
    if (
      cx < occupied.cols &&
      cy < occupied.rows &&
      cx * OCCUPANCY_CELL >= l &&
      (cx + 1) * OCCUPANCY_CELL <= r &&
      cy * OCCUPANCY_CELL >= t &&
      (cy + 1) * OCCUPANCY_CELL <= b &&
      occupied.cells[cy * occupied.cols + cx] === 1
    )
      return false
    const {blocker} = this
    if (blocker >= 0) {
      const o = this.placedIndex.rects[blocker] as Rect
      if (o[0] < r && l < o[2] && o[1] < b && t < o[3]) return false
    }
    const id = this.placedIndex.firstIntersecting(l, t, r, b)
    if (id < 0) return true
    this.blocker = id
    return false
  }

  /**
   * Steps 1-2 for the label being placed, at w x h: the free candidate of least cost (rank plus penalties), or
   * undefined when none is free. A cost is at least its rank, and ranks only grow: once a rank reaches the best
   * cost, no later one can beat it.
   */
  bestAt(w: number, h: number, font = -1): Rect | undefined {
    if (this.finder.isFull(w, h)) return undefined
    const {candidates, boxIndex, boxes, textIndex, textBoxes, lineWidth, index, blockedAt} = this
    // The best free candidate so far: its cost (Infinity: none yet) and position.
    let bestCost = Infinity
    let bestX = 0
    let bestY = 0
    cornerCandidates(this.box, w, h, this.stepX, this.stepY, candidates)
    const maxX = Math.max(0, this.W - w)
    const maxY = Math.max(0, this.H - h)
    for (let rank = 0; rank < CANDIDATES && rank < bestCost; rank++) {
      const cx = candidates[2 * rank] as number
      const cy = candidates[2 * rank + 1] as number
      const x = cx < 0 ? 0 : cx > maxX ? maxX : cx
      const y = cy < 0 ? 0 : cy > maxY ? maxY : cy
      const r = x + w
      const b = y + h
      // Blocked at this font or a smaller one (while the bisection below looked for it), so blocked here too.
      if (font >= 0 && (blockedAt[rank] as number) >= font) continue
      if (!this.free(x, y, r, b)) continue
      let cost = rank
      // Box outlines the label would hide (its own box's excepted); a cost reaching the best one's loses already.
      boxIndex.walk(x, y, r, b)
      for (let j = boxIndex.next(); j >= 0 && cost < bestCost; j = boxIndex.next()) {
        if (j === index) continue
        const o = boxes[j] as Rect
        if (!(o[0] < r && x < o[2] && o[1] < b && y < o[3])) continue
        // Wholly inside the box's inner rectangle, the label does not touch its outline.
        if (x >= o[0] + lineWidth && y >= o[1] + lineWidth && r <= o[2] - lineWidth && b <= o[3] - lineWidth) continue
        cost += OUTLINE_PENALTY
      }
      // Text it would cover.
      textIndex.walk(x, y, r, b)
      for (let j = textIndex.next(); j >= 0 && cost < bestCost; j = textIndex.next()) {
        const o = textBoxes[j] as Rect
        if (o[0] < r && x < o[2] && o[1] < b && y < o[3]) cost += TEXT_PENALTY
      }
      if (cost < bestCost) {
        bestCost = cost
        bestX = x
        bestY = y
      }
    }
    return bestCost < Infinity ? [bestX, bestY, bestX + w, bestY + h] : undefined
  }

  /** Whether candidate `rank` of the label being placed, at font `f` (widths[f] x heights[f]), is free. */
  freeAt(f: number, rank: number): boolean {
    const w = this.widths[f] as number
    const h = this.heights[f] as number
    if (this.finder.isFull(w, h)) return false
    const {one} = this
    candidateAt(this.box, w, h, this.stepX, this.stepY, rank, one)
    const x = clampInto(one[0] as number, w, this.W)
    const y = clampInto(one[1] as number, h, this.H)
    return this.free(x, y, x + w, y + h)
  }

  /** Where the label of request `index` goes (steps 1-6). */
  place(index: number, request: LabelRequest): LabelPlacement {
    const {box, text} = request
    const {fonts, widths, heights, finder, W, H} = this
    this.index = index
    this.box = box
    const size0 = labelSize(this.measure(text, fonts[0] as number), fonts[0] as number)
    // The shifts' steps: at the first size, that size's; at the smaller ones, the smallest size's (set below), so
    // every candidate of those sizes is anchored (see `cornerCandidates`).
    this.stepX = shiftStep(box, size0.width)
    this.stepY = size0.height

    // Steps 1-3: the first font size (largest first) at which a candidate is free, at its best candidate.
    widths[0] = size0.width
    heights[0] = size0.height
    let rect = this.bestAt(size0.width, size0.height)
    let fontIndex = 0
    if (!rect && fonts.length > 1) {
      let nested = true
      for (let f = 1; f < fonts.length; f++) {
        const size = labelSize(this.measure(text, fonts[f] as number), fonts[f] as number)
        widths[f] = size.width
        heights[f] = size.height
        if (size.width > (widths[f - 1] as number) || size.height > (heights[f - 1] as number)) nested = false
      }
      const last = fonts.length - 1
      this.stepX = shiftStep(box, widths[last] as number)
      this.stepY = heights[last] as number
      if (nested && finder.isFull(widths[last] as number, heights[last] as number)) {
        // The smallest size fits nowhere, so no larger one does (each holds it): no candidate is free at any size.
      } else if (nested) {
        // Each size holds the next one's label at every candidate, so a candidate free at one size is free at every
        // smaller one: per candidate, the sizes where it is free are a tail of the list. The first size with a free
        // candidate is the least of those tails' starts. A candidate blocked just before the least start found so
        // far cannot lower it (no try); one free there lowers it, found by bisection. So a crowded label costs a
        // try per candidate and a few bisections, not a try per candidate and size (25 sizes on a 2400 px image).
        // A candidate found blocked at a size is blocked at every larger one: bestAt at the first size skips those
        // found blocked at it or a smaller one (blockedAt: the largest font index each was found blocked at).
        const {blockedAt} = this
        blockedAt.fill(-1)
        let first = fonts.length
        for (let rank = 0; rank < CANDIDATES && first > 1; rank++) {
          if (!this.freeAt(first - 1, rank)) {
            blockedAt[rank] = first - 1
            continue
          }
          let lo = 1
          let hi = first - 1
          while (lo < hi) {
            const mid = (lo + hi) >> 1
            if (this.freeAt(mid, rank)) hi = mid
            else {
              blockedAt[rank] = mid
              lo = mid + 1
            }
          }
          first = hi
        }
        if (first < fonts.length) {
          fontIndex = first
          rect = this.bestAt(widths[first] as number, heights[first] as number, first)
        }
      } else {
        // A measure that is not monotone in the font size: every size is tried in turn.
        for (let f = 1; f < fonts.length && !rect; f++) {
          fontIndex = f
          rect = this.bestAt(widths[f] as number, heights[f] as number)
        }
      }
    }
    if (rect) return {rect, fontPx: fonts[fontIndex] as number, detached: !touches(rect, box)}

    const fontPx = fonts[fonts.length - 1] as number
    const {width: w, height: h} = labelSize(this.measure(text, fontPx), fontPx)
    // Step 4: rings around the box, nearest first.
    const stepX = Math.ceil(w / 2)
    const rings = finder.isFull(w, h) ? 0 : RING_ORDER.length
    for (let i = 0; i < rings; i += 2) {
      const x = clampInto(box[0] + (RING_ORDER[i] as number) * stepX, w, W)
      const y = clampInto(box[1] + (RING_ORDER[i + 1] as number) * h, h, H)
      if (this.free(x, y, x + w, y + h)) {
        const ring: Rect = [x, y, x + w, y + h]
        return {rect: ring, fontPx, detached: !touches(ring, box)}
      }
    }
    // Step 5: the free spot nearest the box.
    const spot = finder.find(box, w, h)
    if (spot) return {rect: spot, fontPx, detached: !touches(spot, box)}
    // Step 6: the least overlap.
    const pile = (this.pile ??= new PileOverlaps(W, H, this.placedIndex))
    const {candidates, tried} = this
    // The least overlap so far (Infinity: none tried yet) and where.
    let least = Infinity
    let leastX = 0
    let leastY = 0
    cornerCandidates(box, w, h, shiftStep(box, w), h, candidates)
    for (let rank = 0; rank < CANDIDATES; rank++) {
      const x = clampInto(candidates[2 * rank] as number, w, W)
      const y = clampInto(candidates[2 * rank + 1] as number, h, H)
      const r = x + w
      const b = y + h
      tried[2 * rank] = x
      tried[2 * rank + 1] = y
      if (!pile.summed(x, y, r, b)) {
        // Clamped into the image, candidates often coincide (a box as wide as the image has its left and right
        // corners outside it on the image's edges): a spot tried already cannot have strictly less overlap, and
        // summed pair by pair, it would cost as much again.
        let seen = false
        for (let j = 0; j < rank && !seen; j++) seen = tried[2 * j] === x && tried[2 * j + 1] === y
        if (seen) continue
      }
      // A candidate wins only with strictly less overlap.
      const overlap = pile.overlap(x, y, r, b, least)
      if (overlap < least) {
        least = overlap
        leastX = x
        leastY = y
      }
    }
    const leastRect: Rect = [leastX, leastY, leastX + w, leastY + h]
    return {rect: leastRect, fontPx, detached: !touches(leastRect, box)}
  }
}

/**
 * The total overlap area of a label with the labels placed so far (step 6's cost). Whole-pixel labels inside the
 * image (all of them, when the boxes are whole pixels, as annotate rounds them) are summed by `CoverageSums` in a few
 * reads per pixel row of the label, however densely the labels pile up there; any other label (a box at fractions
 * of a pixel, a label wider than the image) is summed pair by pair from a spatial index of its own. A label that is
 * not whole pixels inside the image is summed pair by pair against every placed label, as is every label on an
 * image too large to hold a count per pixel (over MAX_COVERAGE_PIXELS). Every sum is of whole numbers or of the same
 * pairwise products as before, so the spot of least overlap is the same.
 */
class PileOverlaps {
  private readonly sums: CoverageSums | undefined
  /** The placed labels `sums` does not hold. */
  private readonly others: SpatialIndex

  constructor(
    width: number,
    height: number,
    private readonly placed: SpatialIndex
  ) {
    this.sums = (width + 1) * height <= MAX_COVERAGE_PIXELS ? new CoverageSums(width, height) : undefined
    this.others = new SpatialIndex(width, height)
    for (const rect of placed.rects) this.add(rect)
  }

  /** Adds a label just placed (it is in `placed` already). */
  add(rect: Rect): void {
    const {sums} = this
    if (!sums) return
    if (sums.fits(rect[0], rect[1], rect[2], rect[3])) sums.add(rect[0], rect[1], rect[2], rect[3])
    else this.others.add(rect)
  }

  /** Whether the overlap of [l, r) x [t, b) comes from the per-pixel counts (cheap), not pair by pair. */
  summed(l: number, t: number, r: number, b: number): boolean {
    return this.sums !== undefined && this.sums.fits(l, t, r, b)
  }

  /**
   * The area of [l, r) x [t, b) shared with each placed label, summed; once the sum reaches `least`, it may stop
   * short (the caller keeps a spot only for strictly less).
   */
  overlap(l: number, t: number, r: number, b: number, least: number): number {
    let overlap = 0
    let index = this.placed
    if (this.summed(l, t, r, b)) {
      overlap = (this.sums as CoverageSums).sum(l, t, r, b, least)
      index = this.others
      if (index.rects.length === 0) return overlap
    }
    // collect() may replace `found` with a larger array: read it after.
    const n = index.collect(l, t, r, b)
    const {rects, found} = index
    for (let k = 0; k < n && overlap < least; k++) {
      const p = rects[found[k] as number] as Rect
      const ow = (p[2] < r ? p[2] : r) - (p[0] > l ? p[0] : l)
      const oh = (p[3] < b ? p[3] : b) - (p[1] > t ? p[1] : t)
      if (ow > 0 && oh > 0) overlap += ow * oh
    }
    return overlap
  }
}

/** Above this many pixels (a 2900 x 2900 image), step 6 sums overlaps pair by pair, not with 4 bytes per pixel. */
const MAX_COVERAGE_PIXELS = 2 ** 23

/**
 * Which cells of a grid of small squares (OCCUPANCY_CELL pixels) some placed label overlaps (positive area). A try
 * holding a whole occupied cell overlaps that label, so it is not free: one array read says so for most tries on a
 * crowded screen. A cell not occupied proves nothing (the spatial index decides).
 */
class OccupancyGrid {
  readonly cols: number
  readonly rows: number
  readonly cells: Uint8Array
  /** Per label size the free-spot search asked about (by its counts of cells): where such spots may start. */
  private readonly starts = new Map<number, SpotStarts>()

  constructor(
    private readonly width: number,
    private readonly height: number
  ) {
    this.cols = Math.max(1, Math.ceil(width / OCCUPANCY_CELL))
    this.rows = Math.max(1, Math.ceil(height / OCCUPANCY_CELL))
    this.cells = new Uint8Array(this.cols * this.rows)
  }

  add(r: Rect): void {
    const s = OCCUPANCY_CELL
    const x0 = Math.max(0, Math.floor(r[0] / s))
    const y0 = Math.max(0, Math.floor(r[1] / s))
    const x1 = Math.min(this.cols - 1, Math.ceil(r[2] / s) - 1)
    const y1 = Math.min(this.rows - 1, Math.ceil(r[3] / s) - 1)
    if (x1 < x0 || y1 < y0) return
    for (let y = y0; y <= y1; y++) this.cells.fill(1, y * this.cols + x0, y * this.cols + x1 + 1)
    for (const starts of this.starts.values()) starts.occupy(x0, y0, x1, y1)
  }

  /**
   * Where free w x h spots may start, kept up to date as labels are added from the first time a size with the same
   * counts of whole cells is asked for; undefined when a label is under a whole cell wide or tall (any spot may be).
   */
  spotStarts(w: number, h: number): SpotStarts | undefined {
    const ma = wholeCells(w)
    const mb = wholeCells(h)
    if (ma < 1 || mb < 1) return undefined
    const key = ma * 65536 + mb
    let starts = this.starts.get(key)
    if (!starts) {
      starts = new SpotStarts(this, ma, mb, this.width, this.height)
      this.starts.set(key, starts)
    }
    return starts
  }
}

/**
 * For one label size, which cells may be a free spot's first whole cell, over the occupancy grid's cells (same
 * stride). Every spot inside the image holds a block of at least `ma` (`wholeCells(w)`) by `mb` whole cells starting
 * at the cell (ceil(x / cell), ceil(y / cell)), and a free spot's are all unoccupied: a spot whose block is not cannot
 * be free. Each row is made from the cells when a search first reads it (a search near its box reads a few rows of a
 * tall image), then kept up to date as cells become occupied (they only ever are, so an entry only goes from 1 to 0).
 */
class SpotStarts {
  readonly may: Uint8Array
  /** `may` four cells at a time. */
  readonly words: Uint32Array
  /** How many `may` entries of the rows made so far are 1. */
  count = 0
  /** Rows not made yet: `may` is made a row at a time, from the cells as they are then, when a search reads it. */
  private unmade: number
  private readonly made: Uint8Array
  readonly stride: number
  /** Whole cells inside the image, across and down. */
  private readonly cols: number
  private readonly rows: number
  /** Per column of one row being made: its `mb` cells from that row down are all unoccupied. */
  private readonly clear: Uint8Array

  constructor(
    private readonly grid: OccupancyGrid,
    private readonly ma: number,
    private readonly mb: number,
    width: number,
    height: number
  ) {
    const s = OCCUPANCY_CELL
    this.stride = grid.cols
    this.cols = Math.min(grid.cols, Math.floor(width / s))
    this.rows = Math.min(grid.rows, Math.floor(height / s))
    this.may = new Uint8Array(4 * Math.ceil((grid.cols * grid.rows) / 4))
    this.words = new Uint32Array(this.may.buffer)
    this.made = new Uint8Array(grid.rows)
    this.unmade = grid.rows
    this.clear = new Uint8Array(this.cols)
  }

  /** No spot of this size is free anywhere. */
  none(): boolean {
    return this.unmade === 0 && this.count === 0
  }

  /** Makes rows y0..y1 (cell rows) of `may` where not made yet. */
  make(y0: number, y1: number): void {
    const {ma, mb, cols, stride, may, clear, made} = this
    const cells = this.grid.cells
    for (let y = Math.max(0, y0); y <= y1 && y < made.length; y++) {
      if (made[y] === 1) continue
      made[y] = 1
      this.unmade--
      // Blocks starting in this row must end inside the image.
      if (y + mb > this.rows) continue
      for (let x = 0; x < cols; x++) {
        let c = 1
        for (let k = 0, i = y * stride + x; k < mb; k++, i += stride) {
          if (cells[i] === 1) {
            c = 0
            break
          }
        }
        clear[x] = c
      }
      let run = 0
      for (let x = 0; x < cols; x++) {
        run = clear[x] === 1 ? run + 1 : 0
        if (run >= ma) {
          may[y * stride + x - ma + 1] = 1
          this.count++
        }
      }
    }
  }

  /** Cells x0..x1 by y0..y1 became occupied: every block holding one of them is no longer empty. */
  occupy(x0: number, y0: number, x1: number, y1: number): void {
    const {stride, may, made} = this
    const mx = Math.max(0, x0 - this.ma + 1)
    for (let y = Math.max(0, y0 - this.mb + 1); y <= y1; y++) {
      if (made[y] === 0) continue
      const row = y * stride
      for (let i = row + mx, end = row + x1; i <= end; i++) {
        if (may[i] === 1) {
          may[i] = 0
          this.count--
        }
      }
    }
  }
}

const OCCUPANCY_CELL = 4

/** The fewest whole cells an interval of `length` pixels, starting at any whole pixel, holds. */
function wholeCells(length: number): number {
  let fewest = Infinity
  for (let start = 0; start < OCCUPANCY_CELL; start++) {
    fewest = Math.min(fewest, Math.floor((start + length) / OCCUPANCY_CELL) - Math.ceil(start / OCCUPANCY_CELL))
  }
  return fewest
}

/**
 * Finds the free w x h spot (overlapping no placed label) nearest a box's top-left corner (the anchor): the least
 * squared distance, then the least y, then the least x, as a scan of every pixel position would choose, without
 * one. A free spot's first whole cell of the occupancy grid is a `may` cell of its size's SpotStarts, and a cell is
 * the first whole cell of the spots in one square of OCCUPANCY_CELL x OCCUPANCY_CELL positions: so only the
 * positions of `may` cells are tried, cells nearest first (by their square's nearest position), until the next
 * cell's square is farther than the best spot found. The cells are read in a window around the anchor that doubles
 * until the best spot lies within its reach (or it is the whole image), so a free spot nearby costs a few cells; on
 * a crowded image few cells are `may` cells at all, and none means no spot of that size is free anywhere. A size that
 * found no room once finds none later (labels are only added): `isFull` tells it with no search. Labels under a whole
 * cell wide or tall (which no cell proves anything about) are searched along the lines where such a spot must lie.
 */
class FreeSpotFinder {
  /** Label sizes that found no free spot: nothing at least as wide and as tall can fit any more. */
  private readonly full: Array<[number, number]> = []

  constructor(
    private readonly W: number,
    private readonly H: number,
    private readonly placed: SpatialIndex,
    private readonly occupied: OccupancyGrid
  ) {}

  /** True when a w x h label is known to fit nowhere in the image (so it overlaps a placed label wherever it goes). */
  isFull(w: number, h: number): boolean {
    for (const [fw, fh] of this.full) if (w >= fw && h >= fh) return true
    return false
  }

  find(box: Rect, w: number, h: number): Rect | undefined {
    const {W, H} = this
    if (w > W || h > H) return undefined
    if (this.isFull(w, h)) return undefined
    const starts = this.occupied.spotStarts(w, h)
    const spot = starts ? this.inCells(starts, box[0], box[1], w, h) : this.alongLines(box[0], box[1], w, h)
    if (!spot) this.full.push([w, h])
    return spot
  }

  private inCells(starts: SpotStarts, ax: number, ay: number, w: number, h: number): Rect | undefined {
    if (starts.none()) return undefined
    const s = OCCUPANCY_CELL
    const maxX = this.W - w
    const maxY = this.H - h
    const {may, words, stride} = starts
    const gridRows = this.occupied.rows
    const rects = this.placed.rects
    const placed = this.placed
    let bestX = 0
    let bestY = 0
    let bestD = Infinity
    let blocker = -1
    // The cells to try in one window, each as floor(its least squared distance / unit) * key + its index (key: the
    // power of two past the last index; unit: 1, or the power of two that keeps every entry below 2^53 on a huge
    // image): whole numbers, exact in a double, sorted natively, nearest first.
    const key = 2 ** Math.ceil(Math.log2(may.length + 1))
    const farthest = (Math.abs(ax) + this.W + 1) ** 2 + (Math.abs(ay) + this.H + 1) ** 2
    const unit = 2 ** Math.max(0, Math.ceil(Math.log2(farthest * key)) - 52)
    let cells = new Float64Array(64)
    let prevReach2 = -1
    for (let reach = 4 * s * Math.max(Math.ceil(w / s), Math.ceil(h / s)); ; reach *= 2) {
      // Cell cx holds the first whole cell of positions x in ((cx - 1) * s, cx * s].
      const x0 = Math.max(0, Math.ceil((ax - reach) / s))
      const x1 = Math.min(stride - 1, Math.ceil((ax + reach) / s))
      const y0 = Math.max(0, Math.ceil((ay - reach) / s))
      const y1 = Math.min(gridRows - 1, Math.ceil((ay + reach) / s))
      // A window that is the whole image holds every cell, however far.
      const whole = x0 === 0 && y0 === 0 && x1 >= stride - 1 && y1 >= gridRows - 1
      const reach2 = whole ? Infinity : reach * reach
      starts.make(y0, y1)
      let n = 0
      // Row by row, skipping rows whose every cell is farther than the window's reach or the best spot.
      const bound = reach2 < bestD ? reach2 : bestD
      for (let cy = y0; cy <= y1; cy++) {
        const ya = Math.max(0, (cy - 1) * s + 1)
        const yb = Math.min(maxY, cy * s)
        if (ya > yb) continue
        const dy = ay < ya ? ya - ay : ay > yb ? ay - yb : 0
        if (dy * dy > bound) continue
        const row = cy * stride
        // Four cells at a time where all four are 0 (most of a crowded image).
        for (let i = row + x0, end = row + x1; i <= end; i++) {
          if ((i & 3) === 0 && i + 3 <= end && words[i >> 2] === 0) {
            i += 3
            continue
          }
          if (may[i] !== 1) continue
          const cx = i - row
          const d = squareDistance(ax, ay, cx, cy, maxX, maxY)
          // Cells within the previous window's reach were tried there; those past this one's wait for the next.
          if (d > prevReach2 && d <= bound) {
            if (n === cells.length) {
              const grown = new Float64Array(2 * n)
              grown.set(cells)
              cells = grown
            }
            cells[n++] = Math.floor(d / unit) * key + row + cx
          }
        }
      }
      // Nearest first, taken from a heap: the search usually stops after a few of the cells, so sorting them all
      // would order many it never reads. The entries are distinct, so the order is the sorted one.
      heapify(cells, n)
      for (let left = n; left > 0; left--) {
        const entry = heapPop(cells, left)
        const index = entry % key
        // At most the cell's distance: past the best, so is every cell after it.
        if (((entry - index) / key) * unit > bestD) break
        const cy = Math.floor(index / stride)
        const cx = index - cy * stride
        const xa = Math.max(0, (cx - 1) * s + 1)
        const xb = Math.min(maxX, cx * s)
        const ya = Math.max(0, (cy - 1) * s + 1)
        const yb = Math.min(maxY, cy * s)
        for (let y = ya; y <= yb; y++) {
          for (let x = xa; x <= xb; x++) {
            const d = (x - ax) ** 2 + (y - ay) ** 2
            if (d > bestD || (d === bestD && (y > bestY || (y === bestY && x >= bestX)))) continue
            if (blocker >= 0) {
              const o = rects[blocker] as Rect
              if (o[0] < x + w && x < o[2] && o[1] < y + h && y < o[3]) continue
            }
            const id = placed.firstIntersecting(x, y, x + w, y + h)
            if (id >= 0) {
              blocker = id
              continue
            }
            bestD = d
            bestX = x
            bestY = y
          }
        }
      }
      // Every position within `reach` of the anchor has its cell in this window or the ones before.
      if (bestD <= reach2 || whole) break
      prevReach2 = reach2
    }
    return bestD === Infinity ? undefined : [bestX, bestY, bestX + w, bestY + h]
  }

  /**
   * For labels too thin for the cells to prove anything: the spot lies on a vertical line x = clamp(ax) or x = l - w
   * or x = r of some placed label (were it anywhere else, the position one pixel nearer the anchor along x would be
   * free too: a label at x is kept off a placed label [l, r) exactly while l - w < x < r). Along each line the nearest
   * free y is found by jumping over the labels that block it, lines nearest first, stopping at one farther than the
   * best spot found.
   */
  private alongLines(ax: number, ay: number, w: number, h: number): Rect | undefined {
    const {placed} = this
    const maxX = this.W - w
    const maxY = this.H - h
    let bestX = 0
    let bestY = 0
    let bestD = Infinity
    const nearby = placed.rects
    // The lines, nearest the anchor first (the left one of two as near), each as 2 * |c - ax| + (c > ax ? 1 : 0):
    // whole numbers (every position here is one), sorted natively.
    const keys = new Int32Array(2 * nearby.length + 3)
    let n = 0
    const line = (c: number) => {
      keys[n++] = 2 * Math.abs(c - ax) + (c > ax ? 1 : 0)
    }
    line(clamp(ax, 0, maxX))
    line(0)
    line(maxX)
    for (let i = 0; i < nearby.length; i++) {
      const [l, , r] = nearby[i] as Rect
      if (l - w >= 0 && l - w <= maxX) line(l - w)
      if (r <= maxX) line(r)
    }
    const lines = keys.subarray(0, n).sort()
    const rects = placed.rects
    const y0 = clamp(ay, 0, maxY)
    for (let i = 0; i < n; i++) {
      const key = lines[i] as number
      if (i > 0 && key === lines[i - 1]) continue
      const c = key % 2 === 1 ? ax + (key - 1) / 2 : ax - key / 2
      const dx2 = (c - ax) ** 2
      if (dx2 > bestD) break
      // The nearest free y on x = c within reach of the best spot: y0 itself, else the first free y below it and the
      // first free y above it (offer keeps the nearer, the upper one on a tie).
      const down = walk(c, dx2, y0, 1)
      if (down >= 0) offer(c, down)
      if (down === y0) continue
      const up = walk(c, dx2, y0 - 1, -1)
      if (up >= 0) offer(c, up)
    }
    return bestD === Infinity ? undefined : [bestX, bestY, bestX + w, bestY + h]

    /** From y going down (step 1) or up (-1) along x = c: the first free y; -1 past the image or the best. */
    function walk(c: number, dx2: number, y: number, step: 1 | -1): number {
      while (y >= 0 && y <= maxY && dx2 + (y - ay) ** 2 <= bestD) {
        const id = placed.firstIntersecting(c, y, c + w, y + h)
        if (id < 0) return y
        const o = rects[id] as Rect
        y = step === 1 ? o[3] : o[1] - h
      }
      return -1
    }

    function offer(x: number, y: number): void {
      const d = (x - ax) ** 2 + (y - ay) ** 2
      if (d < bestD || (d === bestD && (y < bestY || (y === bestY && x < bestX)))) {
        bestD = d
        bestX = x
        bestY = y
      }
    }
  }
}

/** Makes a[0..n) a binary min-heap. */
function heapify(a: Float64Array, n: number): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(a, i, n)
}

/** Removes and returns the least of the heap a[0..n), leaving a heap of a[0..n - 1). */
function heapPop(a: Float64Array, n: number): number {
  const least = a[0] as number
  a[0] = a[n - 1] as number
  siftDown(a, 0, n - 1)
  return least
}

function siftDown(a: Float64Array, i: number, n: number): void {
  const v = a[i] as number
  for (;;) {
    let c = 2 * i + 1
    if (c >= n) break
    if (c + 1 < n && (a[c + 1] as number) < (a[c] as number)) c++
    if ((a[c] as number) >= v) break
    a[i] = a[c] as number
    i = c
  }
  a[i] = v
}

/**
 * The least squared distance from (ax, ay) to a position whose first whole cell is (cx, cy): x in
 * ((cx - 1) * cell, cx * cell] and y likewise, within [0, maxX] x [0, maxY].
 */
function squareDistance(ax: number, ay: number, cx: number, cy: number, maxX: number, maxY: number): number {
  const s = OCCUPANCY_CELL
  const xa = Math.max(0, (cx - 1) * s + 1)
  const xb = Math.min(maxX, cx * s)
  const ya = Math.max(0, (cy - 1) * s + 1)
  const yb = Math.min(maxY, cy * s)
  if (xa > xb || ya > yb) return Infinity
  const dx = ax < xa ? xa - ax : ax > xb ? ax - xb : 0
  const dy = ay < ya ? ya - ay : ay > yb ? ay - yb : 0
  return dx * dx + dy * dy
}

/**
 * Pairs of label rectangles that overlap (positive area): the measure the issue asks for. Each rectangle is compared
 * only with those filed before it in the grid cells it covers, so the cost follows the pairs that are near, not the
 * square of the count.
 */
export function countOverlaps(rects: Rect[]): number {
  let width = 1
  let height = 1
  for (const r of rects) {
    if (r[2] > width) width = r[2]
    if (r[3] > height) height = r[3]
  }
  const index = new SpatialIndex(width, height)
  let n = 0
  for (const rect of rects) {
    index.some(rect, (other) => {
      if (intersects(other, rect)) n++
      return false
    })
    index.add(rect)
  }
  return n
}
