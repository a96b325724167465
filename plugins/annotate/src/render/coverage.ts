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
 */
export class CoverageSums {
  /** Per row, width + 1 entries: P(x) minus P at the first x of x's block. */
  private readonly inner: Int32Array
  /** Per row, `blocks` entries: P at each block's first x. */
  private readonly block: Float64Array
  private readonly stride: number
  private readonly blocks: number
  /** Blocks of 2^shift pixels along a row: about the square root of the width, which makes `add` cheapest. */
  private readonly shift: number

  constructor(
    readonly width: number,
    readonly height: number
  ) {
    this.stride = width + 1
    this.shift = Math.max(2, Math.round(Math.log2(width) / 2))
    this.blocks = (width >> this.shift) + 1
    this.inner = new Int32Array(this.stride * height)
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
    const {inner, block, stride, blocks, shift} = this
    const mask = (1 << shift) - 1
    const w = r - l
    if (w <= 0 || b <= t) return
    // P(x) grows by clamp(x - l, 0, w), the same on every row. Within a block holding neither l nor r, that growth
    // is the same at every x (0 before l, w past r), so `inner` changes only from l + 1 to the end of r's block (by
    // the growth at x minus the growth at the block's first x, `base`), and `block` past l's block. Each change is a
    // run of x + constant or of a constant: written straight into each row, with nothing read but the entry itself.
    const end = Math.min(this.width, r | mask)
    // The growth at the first x of r's block: the change from r to `end` is w minus it.
    const rStart = r & ~mask
    const tail = w - (rStart <= l ? 0 : rStart - l)
    const firstBlock = (l >> shift) + 1
    // Blocks starting before r grow by their start minus l; those from r on, by w.
    const lastPartial = Math.min(blocks - 1, (r - 1) >> shift)
    for (let y = t; y < b; y++) {
      const row = y * stride
      // x in (l, r), block by block: x - l - base, base 0 in l's own block.
      for (let x = l + 1; x < r;) {
        const start = x & ~mask
        const stop = Math.min(r - 1, x | mask)
        // inner[i] grows by x - l - base, with x = i - row.
        const d = row + l + (start <= l ? 0 : start - l)
        for (let i = row + x, last = row + stop; i <= last; i++) inner[i] = (inner[i] as number) + i - d
        x = stop + 1
      }
      // (Nothing when r starts a block: the whole label's growth is in `block` from there.)
      if (tail !== 0) for (let i = row + r, last = row + end; i <= last; i++) inner[i] = (inner[i] as number) + tail
      const brow = y * blocks
      for (let k = firstBlock; k <= lastPartial; k++) block[brow + k] = (block[brow + k] as number) + (k << shift) - l
      for (let k = Math.max(firstBlock, lastPartial + 1); k < blocks; k++)
        block[brow + k] = (block[brow + k] as number) + w
    }
  }

  /**
   * The coverage summed over [l, r) x [t, b), which `fits`; a sum that reaches `atLeast` may be returned before it
   * is complete (as a number at least `atLeast`): the caller only needs to know it cannot win.
   */
  sum(l: number, t: number, r: number, b: number, atLeast = Infinity): number {
    const {inner, block, stride, blocks, shift} = this
    const kl = l >> shift
    const kr = r >> shift
    let s = 0
    for (let y = t; y < b && s < atLeast; y++) {
      const row = y * stride
      const brow = y * blocks
      s +=
        (block[brow + kr] as number) +
        (inner[row + r] as number) -
        (block[brow + kl] as number) -
        (inner[row + l] as number)
    }
    return s
  }
}
