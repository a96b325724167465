import {clamp, intersects, outlineCrosses, overlapArea, touches, type Rect} from './geometry.js'
import {SpatialIndex} from './spatial-index.js'

/**
 * Label placement. Labels are placed one by one, smallest box first (small boxes have the fewest good spots),
 * each at the cheapest candidate that overlaps no label placed before it:
 *
 * 1. the box's corners, inside and just outside (top-left first, as spec 000 draws it), then beside it;
 * 2. the same corners shifted along the box's top and left edges;
 * 3. the same again with the font stepped down to `minFontPx` (never smaller, so labels stay legible);
 * 4. a search on rings around the box, nearest first, with a leader line back to the box;
 * 5. the free spot nearest the box anywhere in the image (FreeSpotFinder: found on the borders of the placed
 *    labels, never by a scan of the image's pixels);
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

interface PlacementOptions {
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
 * The candidate positions (top-left corners, best first) for a w x h label of `box`, as x, y pairs into `out`.
 * Most are anchored: a corner or an edge of the label sits on a point that does not move with the label's size
 * (see `anchored`).
 */
function cornerCandidates(box: Rect, w: number, h: number, out: Float64Array): void {
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
  const stepX = shiftStep(box, w)
  let i = 24
  for (let k = 1; k <= SHIFT_STEPS; k++) {
    const x = l + k * stepX
    const y = t + k * h
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

/** The step of the shifted candidates along the box's edges: a label width, or a seventh of a wide box. */
function shiftStep(box: Rect, w: number): number {
  return Math.max(w, Math.ceil((box[2] - box[0]) / (SHIFT_STEPS + 1)))
}

/**
 * Whether candidate `rank` is anchored: its label, clamped into the image, holds the same candidate's label of any
 * smaller size (no wider, no taller) wherever the box is. The twelve corners are; the shifts along the top and
 * bottom edges are while their step is a seventh of the box (`fixedStep`: the same for every size that small);
 * the shifts down the left edge never are (they move with the label's height). So a try of an anchored candidate
 * that is blocked at a small size is blocked at every larger one, and need not be made.
 */
function anchored(rank: number, fixedStep: boolean): boolean {
  if (rank < 12) return true
  const kind = (rank - 12) % 5
  return fixedStep && (kind === 0 || kind === 1 || kind === 4)
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
  const {imageWidth: W, imageHeight: H} = options
  // The labels placed so far (in placing order) and every box (in request order), each with its grid.
  const placedIndex = new SpatialIndex(W, H)
  const placed = placedIndex.rects
  const result: LabelPlacement[] = new Array(requests.length)
  const boxIndex = new SpatialIndex(W, H, 48)
  for (const request of requests) boxIndex.add(request.box)
  const boxes = boxIndex.rects
  const textIndex = new SpatialIndex(W, H, 48)
  for (const rect of options.textBoxes ?? []) textIndex.add(rect)
  const area = (r: Rect) => (r[2] - r[0]) * (r[3] - r[1])
  const order = requests.map((_, i) => i).sort((a, b) => area(boxes[a] as Rect) - area(boxes[b] as Rect) || a - b)

  const fonts: number[] = [options.fontPx]
  for (let f = Math.floor(options.fontPx) - 1; f >= options.minFontPx; f--) fonts.push(f)

  const clampX = (x: number, w: number) => clamp(x, 0, Math.max(0, W - w))
  const clampY = (y: number, h: number) => clamp(y, 0, Math.max(0, H - h))
  const toRect = (x: number, y: number, w: number, h: number): Rect => {
    const cx = clampX(x, w)
    const cy = clampY(y, h)
    return [cx, cy, cx + w, cy + h]
  }
  // Free: overlapping no label placed so far. On a crowded screen most tries are not, and proving it must cost
  // little, or a label that finds no room near its box (every font size, every candidate: a thousand tries) costs
  // what a hundred labels that fit at once do. So, before the grid: the occupancy of the small cell at the try's
  // centre (a cell wholly inside the try that a label overlaps proves the try blocked), then the label that blocked
  // the last try (a neighbour of the same box, at the next font size or the next position).
  const occupied = new OccupancyGrid(W, H)
  let blocker = -1
  const free = (l: number, t: number, r: number, b: number): boolean => {
    if (occupied.coversCentre(l, t, r, b)) return false
    if (blocker >= 0) {
      const o = placed[blocker] as Rect
      if (o[0] < r && l < o[2] && o[1] < b && t < o[3]) return false
    }
    const id = placedIndex.firstIntersecting(l, t, r, b)
    if (id < 0) return true
    blocker = id
    return false
  }
  const candidates = new Float64Array(2 * CANDIDATES)
  const blockedSmall = new Uint8Array(CANDIDATES)
  // The whole-image scan (step 5) is set up only when a label needs it.
  let finder: FreeSpotFinder | undefined

  for (const index of order) {
    const {box, text} = requests[index] as LabelRequest
    let chosen: LabelPlacement | undefined

    // Once the first size found no room: which anchored candidates are blocked at the smallest size (so at every
    // size at least as wide and as tall), and that size.
    let smallest: {w: number; h: number} | undefined
    for (let f = 0; f < fonts.length; f++) {
      const fontPx = fonts[f] as number
      const {width: w, height: h} = labelSize(options.measure(text, fontPx), fontPx)
      let best: {rect: Rect; cost: number} | undefined
      cornerCandidates(box, w, h, candidates)
      const prune = smallest !== undefined && w >= smallest.w && h >= smallest.h
      const fixedStep = shiftStep(box, w) > w
      for (let rank = 0; rank < CANDIDATES; rank++) {
        // A cost is at least its rank, and ranks only grow: no later candidate can beat the best one.
        if (best && rank >= best.cost) break
        if (prune && blockedSmall[rank] === 1 && anchored(rank, fixedStep)) continue
        const x = clampX(candidates[2 * rank] as number, w)
        const y = clampY(candidates[2 * rank + 1] as number, h)
        if (!free(x, y, x + w, y + h)) continue
        const rect: Rect = [x, y, x + w, y + h]
        let cost = rank
        boxIndex.some(rect, (other, j) => {
          if (j !== index && outlineCrosses(other, rect, options.lineWidth)) cost += OUTLINE_PENALTY
          return best !== undefined && cost >= best.cost
        })
        textIndex.some(rect, (other) => {
          if (intersects(other, rect)) cost += TEXT_PENALTY
          return best !== undefined && cost >= best.cost
        })
        if (!best || cost < best.cost) best = {rect, cost}
      }
      if (best) {
        chosen = {rect: best.rect, fontPx, detached: !touches(best.rect, box)}
        break
      }
      if (f === 0 && fonts.length > 1) {
        const minPx = fonts[fonts.length - 1] as number
        const {width: sw, height: sh} = labelSize(options.measure(text, minPx), minPx)
        smallest = {w: sw, h: sh}
        cornerCandidates(box, sw, sh, candidates)
        for (let rank = 0; rank < CANDIDATES; rank++) {
          const x = clampX(candidates[2 * rank] as number, sw)
          const y = clampY(candidates[2 * rank + 1] as number, sh)
          blockedSmall[rank] = free(x, y, x + sw, y + sh) ? 0 : 1
        }
      }
    }

    if (!chosen) {
      const fontPx = fonts[fonts.length - 1] as number
      const size = labelSize(options.measure(text, fontPx), fontPx)
      const {width: w, height: h} = size
      const stepX = Math.ceil(w / 2)
      for (let i = 0; i < RING_ORDER.length; i += 2) {
        const x = clampX(box[0] + (RING_ORDER[i] as number) * stepX, w)
        const y = clampY(box[1] + (RING_ORDER[i + 1] as number) * h, h)
        if (free(x, y, x + w, y + h)) {
          const rect: Rect = [x, y, x + w, y + h]
          chosen = {rect, fontPx, detached: !touches(rect, box)}
          break
        }
      }
      if (!chosen) {
        finder ??= new FreeSpotFinder(W, H, placedIndex, occupied)
        const rect = finder.find(box, w, h)
        if (rect) chosen = {rect, fontPx, detached: !touches(rect, box)}
      }
      if (!chosen) {
        let least: {rect: Rect; overlap: number} | undefined
        cornerCandidates(box, w, h, candidates)
        for (let rank = 0; rank < CANDIDATES; rank++) {
          const rect = toRect(candidates[2 * rank] as number, candidates[2 * rank + 1] as number, w, h)
          let overlap = 0
          placedIndex.some(rect, (p) => {
            overlap += overlapArea(p, rect)
            return false
          })
          if (!least || overlap < least.overlap) least = {rect, overlap}
        }
        const rect = (least as {rect: Rect}).rect
        chosen = {rect, fontPx, detached: !touches(rect, box)}
      }
    }
    placedIndex.add(chosen.rect)
    occupied.add(chosen.rect)
    result[index] = chosen
  }
  return result
}

/**
 * Which cells of a grid of small squares (OCCUPANCY_CELL pixels) some placed label overlaps (positive area). A try
 * holding a whole occupied cell overlaps that label, so it is not free: one array read says so for most tries on a
 * crowded screen. A cell not occupied proves nothing (the spatial index decides).
 */
class OccupancyGrid {
  private readonly cols: number
  private readonly rows: number
  private readonly cells: Uint8Array

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
    for (let y = y0; y <= y1; y++) this.cells.fill(1, y * this.cols + x0, y * this.cols + x1 + 1)
  }

  /**
   * False when no w x h spot inside the image can be free: every spot that size holds a block of whole cells inside
   * the image (at least `wholeCells(w)` by `wholeCells(h)`), all unoccupied where the spot is free, and no such block
   * is. True says only that one may be. One pass over the cells.
   */
  mayFit(w: number, h: number, width: number, height: number): boolean {
    return this.firstBlock(wholeCells(w), wholeCells(h), width, height, () => true) !== undefined
  }

  /**
   * A w x h spot inside the image that is certainly free (all its cells unoccupied, so no label overlaps it), its
   * top-left corner on a cell corner, the nearest such one to (ax, ay); undefined when there is none. One pass over
   * the cells.
   */
  freeSpotNear(
    ax: number,
    ay: number,
    w: number,
    h: number,
    width: number,
    height: number
  ): [number, number] | undefined {
    const s = OCCUPANCY_CELL
    let best: [number, number] | undefined
    let bestD = Infinity
    this.firstBlock(Math.ceil(w / s), Math.ceil(h / s), width, height, (px, py) => {
      const d = (px - ax) ** 2 + (py - ay) ** 2
      if (d < bestD) {
        bestD = d
        best = [px, py]
      }
      return false
    })
    return best
  }

  /**
   * Calls `found` with the pixel top-left corner of each a x b block of unoccupied whole cells inside the image,
   * row by row, until it returns true; returns that corner (undefined when it never did). a or b below 1: every
   * spot is such a block, and the answer is (0, 0).
   */
  private firstBlock(
    a: number,
    b: number,
    width: number,
    height: number,
    found: (x: number, y: number) => boolean
  ): [number, number] | undefined {
    if (a < 1 || b < 1) return [0, 0]
    const s = OCCUPANCY_CELL
    const cols = Math.min(this.cols, Math.floor(width / s))
    const rows = Math.min(this.rows, Math.floor(height / s))
    // Per column: how many rows in a row, ending at this one, have `a` unoccupied cells in a row ending there.
    const tall = new Uint32Array(Math.max(0, cols))
    for (let y = 0; y < rows; y++) {
      let run = 0
      for (let x = 0; x < cols; x++) {
        run = this.cells[y * this.cols + x] === 1 ? 0 : run + 1
        const t = run >= a ? (tall[x] as number) + 1 : 0
        tall[x] = t
        if (t >= b) {
          const corner: [number, number] = [(x - a + 1) * s, (y - b + 1) * s]
          if (found(corner[0], corner[1])) return corner
        }
      }
    }
    return undefined
  }

  /** True when the cell holding the centre of [l, r) x [t, b) lies wholly inside it and is occupied. */
  coversCentre(l: number, t: number, r: number, b: number): boolean {
    const s = OCCUPANCY_CELL
    const cx = Math.floor((l + r) / 2 / s)
    const cy = Math.floor((t + b) / 2 / s)
    if (cx < 0 || cy < 0 || cx >= this.cols || cy >= this.rows) return false
    if (cx * s < l || (cx + 1) * s > r || cy * s < t || (cy + 1) * s > b) return false
    return this.cells[cy * this.cols + cx] === 1
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
 * one. A label at x is kept off a placed label [l, r) exactly while l - w < x < r, so the free positions are the
 * image minus a union of such open rectangles, and the nearest free position is the anchor itself or lies on the
 * border of that union: on a line x = l - w or x = r of some placed label (or an image edge), at the y nearest the
 * anchor's on that line, or on a line y = t - h or y = b, likewise. Those lines are tried nearest first, each by
 * the labels the spatial index finds across it, and the search stops at a line farther than the best spot found.
 * A size that found no room once finds none later (labels are only added), so larger ones are not searched again.
 * Cost per search: the lines within the answer's distance, each a few index cells; never the image's pixels.
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

  find(box: Rect, w: number, h: number): Rect | undefined {
    const {W, H, placed} = this
    if (w > W || h > H) return undefined
    if (this.full.some(([fw, fh]) => w >= fw && h >= fh)) return undefined
    // A full image is told by its cells in one pass, not by a search along every label's edges.
    if (!this.occupied.mayFit(w, h, W, H)) {
      this.full.push([w, h])
      return undefined
    }
    const maxX = W - w
    const maxY = H - h
    const [ax, ay] = [box[0], box[1]]
    let best: {x: number; y: number; d: number} | undefined
    // A spot the occupancy grid proves free bounds the answer's distance D, so only the lines of the labels within
    // D of the anchor (each nearest spot is next to a label that blocks the spot beside it towards the anchor) and
    // spans within D along them need searching, never every placed label's.
    let nearby = placed.rects
    const seed = this.occupied.freeSpotNear(ax, ay, w, h, W, H)
    if (seed) {
      const [x, y] = seed
      best = {x, y, d: (x - ax) ** 2 + (y - ay) ** 2}
      const D = Math.ceil(Math.sqrt(best.d))
      nearby = []
      placed.some([ax - D - w, ay - D - h, ax + D + w + 1, ay + D + h + 1], (rect) => {
        nearby.push(rect)
        return false
      })
    }
    const xs = new Set<number>([0, maxX, clamp(ax, 0, maxX)])
    const ys = new Set<number>([0, maxY, clamp(ay, 0, maxY)])
    for (const [l, t, r, b] of nearby) {
      if (l - w >= 0 && l - w <= maxX) xs.add(l - w)
      if (r <= maxX) xs.add(r)
      if (t - h >= 0 && t - h <= maxY) ys.add(t - h)
      if (b <= maxY) ys.add(b)
    }
    const offer = (x: number, y: number) => {
      const d = (x - ax) ** 2 + (y - ay) ** 2
      if (!best || d < best.d || (d === best.d && (y < best.y || (y === best.y && x < best.x)))) best = {x, y, d}
    }
    // How far along a line at `offset` from the anchor a spot can still beat the best one (everything, before one).
    const reach = (offset: number) =>
      best ? Math.floor(Math.sqrt(Math.max(0, best.d - offset * offset))) + 1 : Infinity
    type Line = {c: number; vertical: boolean; offset: number}
    const all: Line[] = []
    for (const c of xs) all.push({c, vertical: true, offset: c - ax})
    for (const c of ys) all.push({c, vertical: false, offset: c - ay})
    // Nearest lines first, in rings of doubling width, so a search that ends near the anchor sorts only those.
    const order = (a: Line, b: Line) =>
      Math.abs(a.offset) - Math.abs(b.offset) || Number(b.vertical) - Number(a.vertical) || a.c - b.c
    let inner = -1
    let lines: Line[] = []
    let next = 0
    const nextLine = (): Line | undefined => {
      while (next >= lines.length) {
        if (inner >= Math.max(W, H) + Math.abs(ax) + Math.abs(ay)) return undefined
        const outer = inner < 0 ? 4 * h : inner * 2
        lines = all.filter((l) => Math.abs(l.offset) > inner && Math.abs(l.offset) <= outer).sort(order)
        next = 0
        inner = outer
      }
      return lines[next++]
    }
    for (let line = nextLine(); line; line = nextLine()) {
      const {c, vertical, offset} = line
      if (best && offset * offset > best.d) break
      const span = reach(offset)
      if (vertical) {
        // x = c: the labels across the strip [c, c + w) block y in (t - h, b).
        const top = span === Infinity ? 0 : Math.max(0, ay - span)
        const bottom = span === Infinity ? H : Math.min(H, ay + span + h)
        const y = nearestOpen(ay, maxY, (blocked) =>
          placed.some([c, top, c + w, bottom], (p) => {
            if (p[0] < c + w && p[2] > c) blocked.push([p[1] - h + 1, p[3] - 1])
            return false
          })
        )
        if (y !== undefined) offer(c, y)
      } else {
        // y = c: the labels across the band [c, c + h) block x in (l - w, r).
        const left = span === Infinity ? 0 : Math.max(0, ax - span)
        const right = span === Infinity ? W : Math.min(W, ax + span + w)
        const x = nearestOpen(ax, maxX, (blocked) =>
          placed.some([left, c, right, c + h], (p) => {
            if (p[1] < c + h && p[3] > c) blocked.push([p[0] - w + 1, p[2] - 1])
            return false
          })
        )
        if (x !== undefined) offer(x, c)
      }
    }
    if (!best) {
      this.full.push([w, h])
      return undefined
    }
    const {x, y} = best as {x: number; y: number}
    return [x, y, x + w, y + h]
  }
}

/**
 * The whole number in [0, max] nearest `anchor` outside every blocked interval (inclusive bounds) that `collect`
 * gathers; the smaller one on a tie; undefined when all of [0, max] is blocked.
 */
function nearestOpen(
  anchor: number,
  max: number,
  collect: (blocked: Array<[number, number]>) => void
): number | undefined {
  const blocked: Array<[number, number]> = []
  collect(blocked)
  const start = clamp(anchor, 0, max)
  blocked.sort((a, b) => a[0] - b[0])
  // Merge into disjoint runs (touching whole numbers join), stopping at the run that holds `start`.
  let run: [number, number] | undefined
  for (const [a, b] of blocked) {
    if (b < a) continue
    if (run && a <= run[1] + 1) {
      if (b > run[1]) run[1] = b
      continue
    }
    if (run && run[0] <= start && start <= run[1]) break
    run = [a, b]
  }
  if (!run || start < run[0] || start > run[1]) return start
  const [lo, hi] = run
  const below = lo - 1
  const above = hi + 1
  const candidates = [below, above].filter((v) => v >= 0 && v <= max)
  if (candidates.length === 0) return undefined
  return candidates.sort((a, b) => Math.abs(a - anchor) - Math.abs(b - anchor) || a - b)[0]
}

/** Pairs of label rectangles that overlap (positive area): the measure the issue asks for. */
export function countOverlaps(rects: Rect[]): number {
  let n = 0
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) if (intersects(rects[i] as Rect, rects[j] as Rect)) n++
  }
  return n
}
