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
    // the growth at x minus the growth at the block's first x), and `block` past l's block. Both changes are worked
    // out once, then added to each row.
    const end = Math.min(this.width, r | mask)
    const span = end - l
    let grow = this.grow
    if (grow.length < span) this.grow = grow = new Int32Array(2 * span)
    for (let x = l + 1; x <= end; x++) {
      const start = x & ~mask
      grow[x - l - 1] = (x < r ? x - l : w) - (start <= l ? 0 : start < r ? start - l : w)
    }
    const firstBlock = (l >> shift) + 1
    let growBlock = this.growBlock
    if (growBlock.length < blocks) this.growBlock = growBlock = new Int32Array(blocks)
    for (let k = firstBlock; k < blocks; k++) {
      const start = k << shift
      growBlock[k] = start < r ? start - l : w
    }
    for (let y = t; y < b; y++) {
      const at = y * stride + l + 1
      for (let i = 0; i < span; i++) inner[at + i] = (inner[at + i] as number) + (grow[i] as number)
      const brow = y * blocks
      for (let k = firstBlock; k < blocks; k++) block[brow + k] = (block[brow + k] as number) + (growBlock[k] as number)
    }
  }

  /** Scratch for `add`: the growth of `inner` from l + 1 on, and of `block` per block. */
  private grow = new Int32Array(64)
  private growBlock = new Int32Array(0)

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
