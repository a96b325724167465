import {intersects, touches, type Rect} from './geometry.js'
import {FreeSpots} from './free-spots.js'
import {OverlapGrid} from './overlap-grid.js'
import {RowOutlines} from './row-outlines.js'
import {BoxGrid, SpatialIndex} from './spatial-index.js'

/**
 * Label placement. Labels are placed one by one, smallest box first (small boxes have the fewest good spots),
 * each at the cheapest candidate that overlaps no label placed before it:
 *
 * 1. the box's corners, inside and just outside (top-left first, as spec 000 draws it), then beside it;
 * 2. the same corners shifted along the box's top and left edges;
 * 3. the same again with the font stepped down to `minFontPx` (never smaller, so labels stay legible);
 * 4. a search on rings around the box, nearest first, with a leader line back to the box;
 * 5. the free spot nearest the box anywhere in the image (FreeSpotFinder: read from a bitmap of the free positions
 *    of the label's size, kept as labels are added, never by a check of each position against the labels);
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

/**
 * The cell size of the box grid: about the side of the image's area per box, 16 to 48 px. Scoring a free candidate
 * reads the boxes filed in the cells it covers until its cost passes the best one's; where boxes crowd (a thousand on
 * a 315x700 image) a 48 px cell holds dozens the label does not touch, and each is read. Which boxes it reads does not
 * change the cost it finds below the best (each box is counted once), so the rectangles are the same at any size.
 */
function boxCell(width: number, height: number, boxes: number): number {
  const side = Math.round(Math.sqrt((width * height) / Math.max(1, boxes)))
  return side < 16 ? 16 : side > 48 ? 48 : side
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
  readonly boxGrid: BoxGrid
  /** The boxes as wide as the image, for a lower bound of a candidate's cost (see `bestAt`). */
  readonly rowOutlines: RowOutlines | undefined
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
  /** Per row of ring spots of the label being placed (see `ringRows`): 0 when proved taken. */
  readonly ringRowOpen = new Uint8Array(2 * RING_RADIUS + 1)
  /** Per font size (same order as `fonts`) of the label being placed: the map of free spots `freeAt` reads, if any. */
  readonly fontMaps: Array<FreeSpots | undefined>
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
    const boxes: Rect[] = (this.boxes = new Array<Rect>(requests.length))
    for (let i = 0; i < requests.length; i++) boxes[i] = (requests[i] as LabelRequest).box
    this.lineWidth = options.lineWidth
    this.fonts = [options.fontPx]
    for (let f = Math.floor(options.fontPx) - 1; f >= options.minFontPx; f--) this.fonts.push(f)
    // Label heights depend on the font size alone, growing with it: the first size's is the greatest.
    const least = labelSize(0, this.fonts[this.fonts.length - 1] as number).height
    const most = labelSize(0, this.fonts[0] as number).height
    this.rowOutlines = RowOutlines.of(boxes, W, H, least, most, this.lineWidth)
    // The thin rows are counted by `rowOutlines`, not read from the grid.
    this.boxGrid = new BoxGrid(W, H, boxCell(W, H, requests.length), boxes, this.rowOutlines?.kinds)
    this.textIndex = new SpatialIndex(W, H, 48)
    for (const rect of options.textBoxes ?? []) this.textIndex.add(rect)
    this.textBoxes = this.textIndex.rects
    this.occupied = new OccupancyGrid(W, H)
    this.stats = options.stats
    this.measure = options.measure
    this.finder = new FreeSpotFinder(W, H, this.placedIndex)
    this.widths = new Float64Array(this.fonts.length)
    this.fontMaps = new Array<FreeSpots | undefined>(this.fonts.length).fill(undefined)
    this.heights = new Float64Array(this.fonts.length)
  }

  /** Records a label just placed. */
  add(rect: Rect): void {
    this.placedIndex.add(rect)
    this.occupied.add(rect)
    this.finder.add(rect)
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
   * `free` for a w x h try at (x, y) that `map` (see `mapNear`: the free positions of the try's size or of a smaller
   * one, when step 5 made them) `holds`: one bit where `free` walks the labels near the try. On a crowded image the
   * labels that reach step 5 try every corner, every font size and every ring spot first, nearly all taken. A label
   * at (x, y) holds the smaller map's label at (x, y), so a position taken in the map is taken for the try too; one
   * free there proves the try free only when the map is of its size (else `free` decides). The callers test `holds`
   * and call `free` themselves otherwise, so `free` stays inlined where most tries go (a tall image, where the map's
   * rows are rarely made).
   */
  mapFree(map: FreeSpots, x: number, y: number, w: number, h: number): boolean {
    if (map.has(x, y) && (map.w !== w || map.h !== h)) return this.free(x, y, x + w, y + h)
    if (this.stats) this.stats.spotChecks++
    return map.has(x, y)
  }

  /**
   * Steps 1-2 for the label being placed, at w x h: the free candidate of least cost (rank plus penalties), or
   * undefined when none is free. A cost is at least its rank, and ranks only grow: once a rank reaches the best
   * cost, no later one can beat it.
   */
  bestAt(w: number, h: number, font = -1): Rect | undefined {
    if (this.finder.isFull(w, h)) return undefined
    const {candidates, boxGrid, textIndex, textBoxes, lineWidth, index, blockedAt, rowOutlines} = this
    // The best free candidate so far: its cost (Infinity: none yet) and position.
    let bestCost = Infinity
    let bestX = 0
    let bestY = 0
    cornerCandidates(this.box, w, h, this.stepX, this.stepY, candidates)
    const map = font >= 0 ? this.fontMaps[font] : this.mapNear(w, h)
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
      // The thin list rows the label crosses (anywhere across the image, as every candidate but a NaN one is), whose
      // outlines it hides: not in the grid.
      const thin = rowOutlines !== undefined && x >= 0 && w > 0 ? rowOutlines.thin(y, b, index) : 0
      // At least this many outlines hidden (with the tall rows' bands it crosses): losing already, the spot is not
      // checked.
      if (bestCost !== Infinity && rowOutlines !== undefined) {
        if (rank + OUTLINE_PENALTY * (thin + rowOutlines.bands(y, b, index)) >= bestCost) continue
      }
      if (!(map !== undefined && map.holds(x, y) ? this.mapFree(map, x, y, w, h) : this.free(x, y, r, b))) continue
      // Box outlines the label would hide (its own box's excepted), counted only while the cost stays below the best
      // one's: `most` more of them bring it there (whole numbers throughout), and a cost reaching it loses already.
      const most = bestCost === Infinity ? Infinity : Math.ceil((bestCost - rank) / OUTLINE_PENALTY) - thin
      let cost = rank + OUTLINE_PENALTY * (thin + boxGrid.outlinesHidden(x, y, r, b, index, lineWidth, most))
      // Text it would cover.
      if (textBoxes.length > 0 && cost < bestCost) {
        textIndex.walk(x, y, r, b)
        for (let j = textIndex.next(); j >= 0 && cost < bestCost; j = textIndex.next()) {
          const o = textBoxes[j] as Rect
          if (o[0] < r && x < o[2] && o[1] < b && y < o[3]) cost += TEXT_PENALTY
        }
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
    const map = this.fontMaps[f]
    return map !== undefined && map.holds(x, y) ? this.mapFree(map, x, y, w, h) : this.free(x, y, x + w, y + h)
  }

  /**
   * Which rows of ring spots (step 4) of the label being placed may hold a free one, into `ringRowOpen` (by dy, from
   * -RING_RADIUS): 0 where `map` proves every spot of the row taken, 1 where it may not; returns how many may. The
   * proof needs the spots whole pixels inside the image (a whole box, a label no larger than the image: each spot is
   * then a position of the map), the map's row made, and no free position in it between the least and the greatest x
   * of the spots (of the label's size, or of a smaller one: a label holds the smaller one at its corner). On a crowded
   * image most ring rows hold none: a label that reached step 5 had checked all 289 spots, one by one.
   */
  ringRows(map: FreeSpots | undefined, w: number, h: number): number {
    const {box, W, H, ringRowOpen} = this
    ringRowOpen.fill(1)
    if (map === undefined || w > W || h > H || !Number.isInteger(W) || !Number.isInteger(H)) return ringRowOpen.length
    if (!Number.isInteger(box[0]) || !Number.isInteger(box[1])) return ringRowOpen.length
    // Every spot's x, clamped, lies between the clamped extremes (clamping keeps order).
    const stepX = Math.ceil(w / 2)
    const x0 = clampInto(box[0] - RING_RADIUS * stepX, w, W)
    const x1 = clampInto(box[0] + RING_RADIUS * stepX, w, W)
    let open = 0
    for (let dy = -RING_RADIUS; dy <= RING_RADIUS; dy++) {
      if (map.takenBetween(clampInto(box[1] + dy * h, h, H), x0, x1)) ringRowOpen[dy + RING_RADIUS] = 0
      else open++
    }
    return open
  }

  /**
   * The map of free spots for a w x h try of the label being placed to read (see `mapFree`): of that size, else of the
   * largest size no wider and no taller that the search made (a label's first sizes have none: the search runs at the
   * least font size); only when the search made the rows at its box. On a tall image the search reads a few bands
   * around the boxes it ran for, and a check per try that finds the rows not made costs more than the walk it would
   * save.
   */
  mapNear(w: number, h: number): FreeSpots | undefined {
    const map = this.finder.mapWithin(w, h)
    return map !== undefined && map.madeAt(this.box[1]) ? map : undefined
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
      for (let f = 0; f < fonts.length; f++) this.fontMaps[f] = this.mapNear(widths[f] as number, heights[f] as number)
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
    const map = this.mapNear(w, h)
    const rings = finder.isFull(w, h) || this.ringRows(map, w, h) === 0 ? 0 : RING_ORDER.length
    const {ringRowOpen} = this
    for (let i = 0; i < rings; i += 2) {
      // A row of spots the map proves taken: no spot of it is checked.
      if (ringRowOpen[(RING_ORDER[i + 1] as number) + RING_RADIUS] === 0) continue
      const x = clampInto(box[0] + (RING_ORDER[i] as number) * stepX, w, W)
      const y = clampInto(box[1] + (RING_ORDER[i + 1] as number) * h, h, H)
      if (map !== undefined && map.holds(x, y) ? this.mapFree(map, x, y, w, h) : this.free(x, y, x + w, y + h)) {
        const ring: Rect = [x, y, x + w, y + h]
        return {rect: ring, fontPx, detached: !touches(ring, box)}
      }
    }
    // Step 5: the free spot nearest the box.
    const spot = finder.find(box, w, h)
    if (spot) return {rect: spot, fontPx, detached: !touches(spot, box)}
    // Step 6: the least overlap.
    const pile = (this.pile ??= new PileOverlaps(W, H, this.placedIndex, this.boxes.length, w, h))
    const {candidates, tried} = this
    // The least overlap so far (Infinity: none tried yet) and where.
    let least = Infinity
    let leastX = 0
    let leastY = 0
    cornerCandidates(box, w, h, shiftStep(box, w), h, candidates)
    if (pile.wholeSpots(box, w, h)) {
      // Every candidate is whole pixels inside the image (a whole box's, clamped), summed from the grid: no check per
      // candidate of where its overlap comes from. Candidates clamped onto an edge of the image often
      // coincide (a box as wide as the image has its left and right corners outside it): a spot tried already cannot
      // have strictly less overlap, so each edge spot is summed once (only an edge spot can repeat an edge spot).
      const maxX = W - w
      const maxY = H - h
      let edges = 0
      for (let rank = 0; rank < CANDIDATES; rank++) {
        const cx = candidates[2 * rank] as number
        const cy = candidates[2 * rank + 1] as number
        const x = cx < 0 ? 0 : cx > maxX ? maxX : cx
        const y = cy < 0 ? 0 : cy > maxY ? maxY : cy
        if (x === 0 || y === 0 || x === maxX || y === maxY) {
          let seen = false
          for (let j = 0; j < edges && !seen; j++) seen = tried[2 * j] === x && tried[2 * j + 1] === y
          if (seen) continue
          tried[2 * edges] = x
          tried[2 * edges + 1] = y
          edges++
        }
        const overlap = pile.wholeOverlap(x, y, x + w, y + h, least)
        if (overlap < least) {
          least = overlap
          leastX = x
          leastY = y
        }
      }
    } else {
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
    }
    const leastRect: Rect = [leastX, leastY, leastX + w, leastY + h]
    return {rect: leastRect, fontPx, detached: !touches(leastRect, box)}
  }
}

/**
 * The total overlap area of a label with the labels placed so far (step 6's cost). Whole-pixel labels inside the
 * image (all of them, when the boxes are whole pixels, as annotate rounds them) are filed in an `OverlapGrid`, which
 * sums a spot's overlaps from the few labels filed near it; any other label (a box at fractions of a pixel, a label
 * wider than the image) is summed pair by pair from a spatial index of its own, after the whole-pixel ones (a
 * whole-pixel label larger than the grid's limit too, from a third index, before those). A spot that is not whole
 * pixels inside the image is summed pair by pair against every placed label, as is every spot on an image too large
 * for the per-pixel counts step 6 used to keep (over MAX_COVERAGE_PIXELS: its sums there keep their order). The
 * whole-pixel part of a sum is of integers, exact in any order, and the other labels' products are added after it
 * in the same order as before, so every sum, and the spot of least overlap, is the same.
 */
class PileOverlaps {
  private readonly grid: OverlapGrid | undefined
  /** The whole-pixel placed labels too large for `grid`. */
  private readonly large: SpatialIndex
  /** The other placed labels `grid` does not hold. */
  private readonly others: SpatialIndex

  /**
   * For a placement whose first label to reach step 6 is w x h: the grid's cells are about that size and it holds
   * labels up to twice it (the larger fonts' labels of steps 1-3; a larger one goes to `large`).
   */
  constructor(
    width: number,
    height: number,
    private readonly placed: SpatialIndex,
    labels: number,
    w: number,
    h: number
  ) {
    this.grid =
      (width + 1) * height <= MAX_COVERAGE_PIXELS
        ? new OverlapGrid(width, height, 2 * w, 2 * h, cellShift(w), cellShift(h), labels)
        : undefined
    this.large = new SpatialIndex(width, height)
    this.others = new SpatialIndex(width, height)
    for (const rect of placed.rects) this.add(rect)
  }

  /** Adds a label just placed (it is in `placed` already). */
  add(rect: Rect): void {
    const {grid} = this
    if (!grid) return
    if (grid.fits(rect[0], rect[1], rect[2], rect[3])) grid.add(rect[0], rect[1], rect[2], rect[3])
    else if (grid.holds(rect[0], rect[1], rect[2], rect[3])) this.large.add(rect)
    else this.others.add(rect)
  }

  /**
   * Whether every candidate of a w x h label of `box` is whole pixels inside the image, so `wholeOverlap` sums it:
   * the box is whole pixels (so is every candidate, its corners and shifts by whole steps) and the label fits in the
   * image (so clamping keeps it inside).
   */
  wholeSpots(box: Rect, w: number, h: number): boolean {
    const {grid} = this
    return (
      grid !== undefined &&
      w <= grid.width &&
      h <= grid.height &&
      Number.isInteger(grid.width) &&
      Number.isInteger(grid.height) &&
      Number.isInteger(box[0]) &&
      Number.isInteger(box[1]) &&
      Number.isInteger(box[2]) &&
      Number.isInteger(box[3])
    )
  }

  /** `overlap` of a spot that `summed` (as every candidate `wholeSpots` says so of is). */
  wholeOverlap(l: number, t: number, r: number, b: number, least: number): number {
    let overlap = (this.grid as OverlapGrid).sum(l, t, r, b, least)
    if (this.large.rects.length > 0 && overlap < least) overlap = this.addPairs(this.large, l, t, r, b, overlap, least)
    const index = this.others
    if (index.rects.length === 0 || overlap >= least) return overlap
    return this.addPairs(index, l, t, r, b, overlap, least)
  }

  /** Whether the overlap of [l, r) x [t, b) comes from the grid (cheap), not pair by pair with every label. */
  summed(l: number, t: number, r: number, b: number): boolean {
    return this.grid !== undefined && this.grid.holds(l, t, r, b)
  }

  /**
   * The area of [l, r) x [t, b) shared with each placed label, summed; once the sum reaches `least`, it may stop
   * short (the caller keeps a spot only for strictly less).
   */
  overlap(l: number, t: number, r: number, b: number, least: number): number {
    if (this.summed(l, t, r, b)) return this.wholeOverlap(l, t, r, b, least)
    return this.addPairs(this.placed, l, t, r, b, 0, least)
  }

  /** `overlap` plus the area [l, r) x [t, b) shares with each label of `index`, stopping once it reaches `least`. */
  private addPairs(
    index: SpatialIndex,
    l: number,
    t: number,
    r: number,
    b: number,
    overlap: number,
    least: number
  ): number {
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

/**
 * Above this many pixels (a 2900 x 2900 image), step 6 sums overlaps pair by pair, as it did when the alternative was
 * a count per pixel (4 bytes each): `OverlapGrid` needs no such bound, but there the order of its sums stays as it was.
 */
const MAX_COVERAGE_PIXELS = 2 ** 23

/** A grid cell's side for labels `size` pixels wide (or tall): the largest power of two not above it, as a shift. */
function cellShift(size: number): number {
  return size >= 2 ? 31 - Math.clz32(size) : 0
}

/**
 * Which cells of a grid of small squares (OCCUPANCY_CELL pixels) some placed label overlaps (positive area). A try
 * holding a whole occupied cell overlaps that label, so it is not free: one array read says so for most tries on a
 * crowded screen. A cell not occupied proves nothing (the spatial index decides).
 */
class OccupancyGrid {
  readonly cols: number
  readonly rows: number
  readonly cells: Uint8Array

  constructor(width: number, height: number) {
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
  }
}

const OCCUPANCY_CELL = 4

/**
 * Finds the free w x h spot (overlapping no placed label) nearest a box's top-left corner: the least squared
 * distance, then the least y, then the least x, as a scan of every pixel position would choose. Each size searched
 * gets a map of its free positions (`FreeSpots`), made from the labels placed so far as the search first reads its
 * rows and kept up to date as labels are added (`add`): the search reads only rows that hold a free position, two
 * positions per row, and steps 1-4 read the same map (`mapOf`) to prove a try at that size taken with one bit. A size that found no room
 * once finds none later (labels are only added): `isFull` tells it with no search.
 */
class FreeSpotFinder {
  /** Label sizes that found no free spot: nothing at least as wide and as tall can fit any more. */
  private readonly full: Array<[number, number]> = []
  /** The maps made so far, one per size. */
  private readonly made: FreeSpots[] = []

  constructor(
    private readonly W: number,
    private readonly H: number,
    private readonly placed: SpatialIndex
  ) {}

  /** True when a w x h label is known to fit nowhere in the image (so it overlaps a placed label wherever it goes). */
  isFull(w: number, h: number): boolean {
    for (const [fw, fh] of this.full) if (w >= fw && h >= fh) return true
    return false
  }

  /**
   * The map of free w x h positions, when a search made one. A scan of the few made (a label's sizes at the least
   * font, a handful in all): asked at every try of the font bisection, where a Map keyed by a double hashes it.
   */
  mapOf(w: number, h: number): FreeSpots | undefined {
    const {made} = this
    for (let i = 0; i < made.length; i++) {
      const map = made[i] as FreeSpots
      if (map.w === w && map.h === h) return map
    }
    return undefined
  }

  /** The map made of the largest size (by area) no wider than w and no taller than h, if any. */
  mapWithin(w: number, h: number): FreeSpots | undefined {
    const {made} = this
    let best: FreeSpots | undefined
    for (let i = 0; i < made.length; i++) {
      const map = made[i] as FreeSpots
      if (map.w <= w && map.h <= h && (best === undefined || map.w * map.h > best.w * best.h)) best = map
    }
    return best
  }

  /** Records a label just placed (it is in `placed` already). */
  add(rect: Rect): void {
    const {made} = this
    for (let i = 0; i < made.length; i++) {
      const map = made[i] as FreeSpots
      // A map with no free position left has none to clear.
      if (!map.none()) map.block(rect)
    }
  }

  find(box: Rect, w: number, h: number): Rect | undefined {
    const {W, H} = this
    if (w > W || h > H) return undefined
    if (this.isFull(w, h)) return undefined
    let map = this.mapOf(w, h)
    if (!map) {
      map = new FreeSpots(W, H, w, h, this.placed)
      this.made.push(map)
    }
    if (map.nearest(box[0], box[1])) return [map.x, map.y, map.x + w, map.y + h]
    this.full.push([w, h])
    return undefined
  }
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
