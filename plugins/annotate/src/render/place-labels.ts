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
 * 5. a scan of the whole image for the free spot nearest the box (a summed-area table of the labels placed
 *    so far makes each test O(1));
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
  const placed = placedIndex.rects
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
      cornerCandidates(box, size.width, size.height).forEach(([x, y], rank) => {
        const rect = toRect(x, y, size.width, size.height)
        if (best && rank >= best.cost) return
        if (!free(rect)) return
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
      })
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
        finder ??= new FreeSpotFinder(W, H)
        const rect = finder.find(placed, box, size.width, size.height)
        if (rect) chosen = {rect, fontPx, detached: !touches(rect, box)}
      }
      if (!chosen) {
        let least: {rect: Rect; overlap: number} | undefined
        for (const [x, y] of cornerCandidates(box, size.width, size.height)) {
          const rect = toRect(x, y, size.width, size.height)
          const overlap = placed.reduce((sum, p) => sum + overlapArea(p, rect), 0)
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

let tables: {occupied: Uint8Array; sat: Int32Array} | undefined

/**
 * Finds the free w x h spot (overlapping no placed label) nearest a box's top-left corner, testing every pixel
 * position in O(1) with a summed-area table of the labels placed so far.
 */
class FreeSpotFinder {
  private readonly occupied: Uint8Array
  private readonly sat: Int32Array
  private painted = 0

  constructor(
    private readonly W: number,
    private readonly H: number,
  ) {
    // The tables are kept between calls (one image size at a time): a server annotating screen after screen
    // then allocates them once instead of a megabyte of garbage per image.
    if (!tables || tables.occupied.length !== W * H || tables.sat.length !== (W + 1) * (H + 1)) {
      tables = {occupied: new Uint8Array(W * H), sat: new Int32Array((W + 1) * (H + 1))}
    }
    this.occupied = tables.occupied
    this.occupied.fill(0)
    this.sat = tables.sat
  }

  find(placed: Rect[], box: Rect, w: number, h: number): Rect | undefined {
    const {W, H, occupied, sat} = this
    if (w > W || h > H) return undefined
    // Labels are only ever added, so paint the new ones and rebuild the table: sat[y*(W+1)+x] counts occupied
    // pixels in [0,x) x [0,y).
    for (; this.painted < placed.length; this.painted++) {
      const [l, t, r, b] = placed[this.painted] as Rect
      for (let y = Math.max(0, t); y < Math.min(H, b); y++) occupied.fill(1, y * W + Math.max(0, l), y * W + Math.min(W, r))
    }
    const stride = W + 1
    for (let y = 0; y < H; y++) {
      let row = 0
      for (let x = 0; x < W; x++) {
        row += occupied[y * W + x] as number
        sat[(y + 1) * stride + x + 1] = (sat[y * stride + x + 1] as number) + row
      }
    }
    const used = (x: number, y: number) =>
      (sat[(y + h) * stride + x + w] as number) -
      (sat[y * stride + x + w] as number) -
      (sat[(y + h) * stride + x] as number) +
      (sat[y * stride + x] as number)
    // Windows of doubling size around the anchor: once a spot at distance d is found inside a window of
    // radius R >= d, nothing outside the window can be nearer, so most searches stop after a small window.
    const [ax, ay] = [box[0], box[1]]
    let best: {x: number; y: number; d: number} | undefined
    for (let radius = 4 * h; ; radius *= 2) {
      const x0 = Math.max(0, ax - radius)
      const y0 = Math.max(0, ay - radius)
      const x1 = Math.min(W - w, ax + radius)
      const y1 = Math.min(H - h, ay + radius)
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          if (used(x, y) !== 0) continue
          const d = (x - ax) ** 2 + (y - ay) ** 2
          if (!best || d < best.d || (d === best.d && (y < best.y || (y === best.y && x < best.x)))) best = {x, y, d}
        }
      }
      const whole = x0 === 0 && y0 === 0 && x1 === W - w && y1 === H - h
      if ((best && best.d <= radius * radius) || whole) break
    }
    return best && [best.x, best.y, best.x + w, best.y + h]
  }
}

/** Pairs of label rectangles that overlap (positive area): the measure the issue asks for. */
export function countOverlaps(rects: Rect[]): number {
  let n = 0
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) if (intersects(rects[i] as Rect, rects[j] as Rect)) n++
  }
  return n
}
