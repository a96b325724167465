/**
 * Rectangles (placed labels) filed by the grid cell of their top-left corner, so that the total overlap area of a
 * rectangle with every stored one (step 6's cost of a spot) reads only the few stored near it: the cells whose
 * rectangles can reach it, from the largest stored width and height left of and above it, to its own right and
 * bottom edge. Placement's last step scores dozens of spots per label this way on a full image, where a spot shares
 * pixels with two or three labels: filing a label is a write of its corners and a few of list links, where a count
 * per pixel (the sums step 6 read before) rewrote a few hundred entries per label and allocated 4 bytes per pixel.
 *
 * Only whole-pixel rectangles inside the image no larger than the limits are stored (`fits`); a caller keeps any
 * other elsewhere. The limits bound how far left of and above a query a stored corner can lie: one wide label would
 * otherwise widen every query. Integers throughout, so every sum is exact in any order: the sum of the pairwise
 * overlap areas.
 */
export class OverlapGrid {
  /**
   * Per cell (row by row), the offset in `entries` of the first rectangle of its row's list filed in that cell or a
   * later one of the row, or -1. Each row of cells keeps ONE list, in cell order, so a query walks a list per row
   * from its first cell and stops past its last: with a list per cell, the walk's branch at each cell (empty or
   * not, one rectangle or two: at random) cost more than the few rectangles it read.
   */
  private readonly heads: Int32Array
  /**
   * Per rectangle, ENTRY numbers: the offset of the next rectangle in its row's list (or -1), then its left, top,
   * right and bottom edge. One array, so a query's walk reads each rectangle where its link is.
   */
  private entries: Int32Array
  private used = 0
  private readonly cols: number
  /** The largest width and height stored so far: how far left of and above a query a corner that reaches it can lie. */
  private maxW = 0
  private maxH = 0

  /**
   * A grid over width x height in cells of 2^shiftX x 2^shiftY pixels, for rectangles up to limitW x limitH; room for
   * `expected` rectangles at first (it grows).
   */
  constructor(
    readonly width: number,
    readonly height: number,
    private readonly limitW: number,
    private readonly limitH: number,
    private readonly shiftX: number,
    private readonly shiftY: number,
    expected: number
  ) {
    this.cols = (Math.floor(width) >> shiftX) + 1
    this.heads = new Int32Array(this.cols * ((Math.floor(height) >> shiftY) + 1)).fill(-1)
    this.entries = new Int32Array(ENTRY * Math.max(1, expected))
  }

  /** Whether [l, r) x [t, b) can be queried: whole pixels, inside the image. */
  holds(l: number, t: number, r: number, b: number): boolean {
    return (
      l >= 0 &&
      t >= 0 &&
      r <= this.width &&
      b <= this.height &&
      l <= r &&
      t <= b &&
      Number.isInteger(l) &&
      Number.isInteger(t) &&
      Number.isInteger(r) &&
      Number.isInteger(b)
    )
  }

  /** Whether [l, r) x [t, b) can be stored: `holds` it, and it is no larger than the limits. */
  fits(l: number, t: number, r: number, b: number): boolean {
    return this.holds(l, t, r, b) && r - l <= this.limitW && b - t <= this.limitH
  }

  /** Stores [l, r) x [t, b), which `fits`. */
  add(l: number, t: number, r: number, b: number): void {
    // An empty rectangle overlaps nothing.
    if (r <= l || b <= t) return
    if (r - l > this.maxW) this.maxW = r - l
    if (b - t > this.maxH) this.maxH = b - t
    let {entries} = this
    const k = this.used
    if (k + ENTRY > entries.length) {
      entries = new Int32Array(2 * entries.length)
      entries.set(this.entries)
      this.entries = entries
    }
    this.used = k + ENTRY
    const {heads} = this
    const base = (t >> this.shiftY) * this.cols
    let c = l >> this.shiftX
    const old = heads[base + c] as number
    entries[k] = old
    entries[k + 1] = l
    entries[k + 2] = t
    entries[k + 3] = r
    entries[k + 4] = b
    // Cells up to c whose first entry (at or after them) was `old` now start at this one.
    while (c >= 0 && heads[base + c] === old) heads[base + c--] = k
    // The entry before `old` in the row's list, the last of cell c's (none when c < 0), now leads to this one.
    if (c >= 0) {
      let p = heads[base + c] as number
      while (entries[p] !== old) p = entries[p] as number
      entries[p] = k
    }
  }

  /**
   * The area [l, r) x [t, b) (which `holds`) shares with each stored rectangle, summed; a sum that reaches `atLeast`
   * may be returned before it is complete (as a number at least `atLeast`): the caller only needs to know it cannot
   * win.
   */
  sum(l: number, t: number, r: number, b: number, atLeast = Infinity): number {
    const {heads, entries, cols, shiftX, shiftY} = this
    // A stored rectangle reaching the query has its corner less than maxW left of l (and maxH above t), and left of
    // r (above b).
    const x0 = l - this.maxW + 1
    const y0 = t - this.maxH + 1
    const c0 = x0 > 0 ? x0 >> shiftX : 0
    const c1 = (r - 1) >> shiftX
    const r1 = (b - 1) >> shiftY
    let s = 0
    for (let row = y0 > 0 ? y0 >> shiftY : 0; row <= r1; row++) {
      for (let k = heads[row * cols + c0] as number; k >= 0; k = entries[k] as number) {
        const pl = entries[k + 1] as number
        if (pl >> shiftX > c1) break
        // Without branches: whether a label near the spot reaches it is a coin toss the CPU mispredicts, so the
        // extents are clamped with sign masks (whole pixels of the image, far inside 32 bits): min(a, b) = b + (d &
        // (d >> 31)) and max(a, b) = b + (d & ~(d >> 31)) for d = a - b, and a negative extent counts as 0.
        const dr = (entries[k + 3] as number) - r
        const dl = pl - l
        const ow = r + (dr & (dr >> 31)) - l - (dl & ~(dl >> 31))
        const db = (entries[k + 4] as number) - b
        const dt = (entries[k + 2] as number) - t
        const oh = b + (db & (db >> 31)) - t - (dt & ~(dt >> 31))
        s += (ow & ~(ow >> 31)) * (oh & ~(oh >> 31))
        if (s >= atLeast) return s
      }
    }
    return s
  }
}

/** Numbers per rectangle in `entries`: the link, then l, t, r, b. */
const ENTRY = 5
