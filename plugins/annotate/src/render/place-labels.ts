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

function cornerCandidates(box: Rect, w: number, h: number): [number, number][] {
  const [l, t, r, b] = box
  const out: [number, number][] = [
    [l, t],
    [l, t - h],
    [r - w, t],
    [r - w, t - h],
    [l, b - h],
    [l, b],
    [r - w, b - h],
    [r - w, b],
    [l - w, t],
    [r, t],
    [l - w, b - h],
    [r, b - h],
  ]
  const stepX = Math.max(w, Math.ceil((r - l) / (SHIFT_STEPS + 1)))
  for (let k = 1; k <= SHIFT_STEPS; k++) {
    out.push([l + k * stepX, t], [l + k * stepX, t - h], [l, t + k * h], [l - w, t + k * h], [l + k * stepX, b])
  }
  return out
}

// Ring offsets (in half label widths and label heights) nearest first; the order does not depend on the label size.
const RING_ORDER: [number, number][] = (() => {
  const out: {dx: number; dy: number; d: number; i: number}[] = []
  let i = 0
  for (let dy = -RING_RADIUS; dy <= RING_RADIUS; dy++) {
    for (let dx = -RING_RADIUS; dx <= RING_RADIUS; dx++) out.push({dx, dy, d: dx * dx + 4 * dy * dy, i: i++})
  }
  return out.sort((a, b) => a.d - b.d || a.i - b.i).map((c) => [c.dx, c.dy])
})()

export function placeLabels(requests: LabelRequest[], options: PlacementOptions): LabelPlacement[] {
  const {imageWidth: W, imageHeight: H} = options
  // The labels placed so far (in placing order) and every box (in request order), each with its grid.
  const placedIndex = new SpatialIndex()
  const result: LabelPlacement[] = new Array(requests.length)
  const boxIndex = new SpatialIndex(48)
  for (const request of requests) boxIndex.add(request.box)
  const boxes = boxIndex.rects
  const textIndex = new SpatialIndex(48)
  for (const rect of options.textBoxes ?? []) textIndex.add(rect)
  const area = (r: Rect) => (r[2] - r[0]) * (r[3] - r[1])
  const order = requests.map((_, i) => i).sort((a, b) => area(boxes[a] as Rect) - area(boxes[b] as Rect) || a - b)

  const fonts: number[] = [options.fontPx]
  for (let f = Math.floor(options.fontPx) - 1; f >= options.minFontPx; f--) fonts.push(f)

  const toRect = (x: number, y: number, w: number, h: number): Rect => {
    const cx = clamp(x, 0, Math.max(0, W - w))
    const cy = clamp(y, 0, Math.max(0, H - h))
    return [cx, cy, cx + w, cy + h]
  }
  const free = (rect: Rect) => !placedIndex.intersectsAny(rect)
  // The whole-image scan (step 5) is set up only when a label needs it.
  let finder: FreeSpotFinder | undefined

  for (const index of order) {
    const {box, text} = requests[index] as LabelRequest
    let chosen: LabelPlacement | undefined

    for (const fontPx of fonts) {
      const size = labelSize(options.measure(text, fontPx), fontPx)
      let best: {rect: Rect; cost: number} | undefined
      const candidates = cornerCandidates(box, size.width, size.height)
      for (let rank = 0; rank < candidates.length; rank++) {
        // A cost is at least its rank, and ranks only grow: no later candidate can beat the best one.
        if (best && rank >= best.cost) break
        const [x, y] = candidates[rank] as [number, number]
        const rect = toRect(x, y, size.width, size.height)
        if (!free(rect)) continue
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
    }

    if (!chosen) {
      const fontPx = fonts[fonts.length - 1] as number
      const size = labelSize(options.measure(text, fontPx), fontPx)
      const stepX = Math.ceil(size.width / 2)
      for (const [dx, dy] of RING_ORDER) {
        const rect = toRect(box[0] + dx * stepX, box[1] + dy * size.height, size.width, size.height)
        if (free(rect)) {
          chosen = {rect, fontPx, detached: !touches(rect, box)}
          break
        }
      }
      if (!chosen) {
        finder ??= new FreeSpotFinder(W, H, placedIndex)
        const rect = finder.find(box, size.width, size.height)
        if (rect) chosen = {rect, fontPx, detached: !touches(rect, box)}
      }
      if (!chosen) {
        let least: {rect: Rect; overlap: number} | undefined
        for (const [x, y] of cornerCandidates(box, size.width, size.height)) {
          const rect = toRect(x, y, size.width, size.height)
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
    result[index] = chosen
  }
  return result
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
    private readonly placed: SpatialIndex
  ) {}

  find(box: Rect, w: number, h: number): Rect | undefined {
    const {W, H, placed} = this
    if (w > W || h > H) return undefined
    if (this.full.some(([fw, fh]) => w >= fw && h >= fh)) return undefined
    const maxX = W - w
    const maxY = H - h
    const [ax, ay] = [box[0], box[1]]
    const xs = new Set<number>([0, maxX, clamp(ax, 0, maxX)])
    const ys = new Set<number>([0, maxY, clamp(ay, 0, maxY)])
    for (const [l, t, r, b] of placed.rects) {
      if (l - w >= 0 && l - w <= maxX) xs.add(l - w)
      if (r <= maxX) xs.add(r)
      if (t - h >= 0 && t - h <= maxY) ys.add(t - h)
      if (b <= maxY) ys.add(b)
    }
    let best: {x: number; y: number; d: number} | undefined
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
