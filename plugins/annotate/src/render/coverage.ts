/**
 * How many stored rectangles cover each pixel of an image, kept so that the sum over a rectangle (its total overlap
 * area with every stored rectangle, each counted once per pixel it shares) costs a few reads per pixel ROW of the
 * rectangle, however many rectangles are stored or overlap it. Placement's last step scores dozens of spots per
 * label by that sum on a full image, where enumerating the labels under each spot costs more the denser they pile.
 *
 * Only whole-pixel rectangles inside the image are stored (`fits`); a caller keeps any other elsewhere. Per pixel
 * row y, P(x) = the coverage summed over [0, x) of the row, for x in 0..width, is held as block[x >> shift] (P at the
 * block's first x) plus inner[x] (P(x) minus that): a query reads both at the rectangle's left and right edge on each
 * of its rows; adding a rectangle rewrites `inner` over its width (plus a block at each end) and `block` past its
 * left edge, on each of its rows. Integers throughout (sums stay exact in a double), so the sums equal those of
 * summing the pairwise overlaps.
 *
 * Both arrays are stored a column at a time (entry (x, y) at x * height + y): a query reads its rows of four columns,
 * four runs of adjacent entries, where a row at a time it read four entries a row apart on each row (a cache line
 * each); an add writes runs down each column it changes.
 */
export class CoverageSums {
  /** Per x in 0..width, `height` entries (one per row): P(x) minus P at the first x of x's block. */
  private readonly inner: Int32Array
  /** Per block, `height` entries: P at the block's first x. */
  private readonly block: Float64Array
  private readonly blocks: number
  /** Blocks of 2^shift pixels along a row: about the square root of the width, which makes `add` cheapest. */
  private readonly shift: number

  constructor(
    readonly width: number,
    readonly height: number
  ) {
    this.shift = Math.max(2, Math.round(Math.log2(width) / 2))
    this.blocks = (width >> this.shift) + 1
    this.inner = new Int32Array((width + 1) * height)
    this.block = new Float64Array(this.blocks * height)
  }

  /** Whether [l, r) x [t, b) can be stored or queried: whole pixels, inside the image. */
  fits(l: number, t: number, r: number, b: number): boolean {
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

  /** Adds one to the coverage of every pixel of [l, r) x [t, b), which `fits`. */
  add(l: number, t: number, r: number, b: number): void {
    const {inner, block, blocks, shift, height} = this
    const mask = (1 << shift) - 1
    const w = r - l
    if (w <= 0 || b <= t) return
    // P(x) grows by clamp(x - l, 0, w), the same on every row. Within a block holding neither l nor r, that growth
    // is the same at every x (0 before l, w past r), so `inner` changes only from l + 1 to the end of r's block (by
    // the growth at x minus the growth at the block's first x, `base`), and `block` past l's block: each column by
    // one amount on rows t..b - 1.
    const end = Math.min(this.width, r | mask)
    for (let x = l + 1; x <= end; x++) {
      const start = x & ~mask
      const grow = (x < r ? x - l : w) - (start <= l ? 0 : start < r ? start - l : w)
      // (Nothing from r on when r starts a block: the label's whole growth is in `block` from there.)
      if (grow === 0) continue
      for (let i = x * height + t, last = x * height + b; i < last; i++) inner[i] = (inner[i] as number) + grow
    }
    for (let k = (l >> shift) + 1; k < blocks; k++) {
      const start = k << shift
      const grow = start < r ? start - l : w
      for (let i = k * height + t, last = k * height + b; i < last; i++) block[i] = (block[i] as number) + grow
    }
  }

  /**
   * The coverage summed over [l, r) x [t, b), which `fits`; a sum that reaches `atLeast` may be returned before it
   * is complete (as a number at least `atLeast`): the caller only needs to know it cannot win.
   */
  sum(l: number, t: number, r: number, b: number, atLeast = Infinity): number {
    const {inner, block, shift, height} = this
    const il = l * height
    const ir = r * height
    const bl = (l >> shift) * height
    const br = (r >> shift) * height
    let s = 0
    for (let y = t; y < b && s < atLeast; y++) {
      s += (block[br + y] as number) + (inner[ir + y] as number) - (block[bl + y] as number) - (inner[il + y] as number)
    }
    return s
  }
}
