import type {Rect} from './geometry.js'
import type {SpatialIndex} from './spatial-index.js'

/**
 * For one label size (w x h, whole pixels), which whole-pixel positions of its top-left corner inside the image are
 * free: a bit per position, 1 while the label there overlaps none of the labels placed so far. Placement's search
 * for the free spot nearest a box (step 5) and its proofs that a spot is taken (steps 1-4, on a crowded image) read it
 * instead of asking a spatial index which labels lie under each spot: on a full image nearly every spot is taken, and
 * a grid of whole cells only says where a free spot MAY be, so each candidate cost a walk over the labels near it.
 *
 * A label at (x, y) overlaps a rectangle o exactly when o.l < x + w, x < o.r, o.t < y + h and y < o.b (the predicate of
 * `free` in place-labels.ts), so blocking o clears the positions x in (o.l - w, o.r) by y in (o.t - h, o.b): a few
 * words per row of it. Labels only ever get added, so a bit only goes from 1 to 0; `live` keeps how many words of
 * each row are not 0, so a search skips the rows with no free position (most of a full image) with one read each.
 *
 * Rows are made in bands of BAND rows, from the placed labels, when first read (a search that finds room near its box
 * on a tall image reads a few bands, not the whole image); `block` clears only bands made already.
 */
export class FreeSpots {
  /** Positions per row (x = 0 .. cols - 1) and rows (y = 0 .. rows - 1): 0 when the label is larger than the image. */
  readonly cols: number
  readonly rows: number
  /** Per row, `words` 32-bit words: bit x & 31 of word x >> 5 is position x. */
  private readonly bits: Int32Array
  private readonly words: number
  /** Per row (of bands made), how many of its words are not 0. */
  private readonly live: Int32Array
  /** Per band: 1 once made. */
  private readonly made: Uint8Array
  /** Per band made, how many of its rows hold a free position: a search passes a band with none in one read. */
  private readonly bandLive: Int32Array
  /**
   * Per band made, `words` words: the OR of its rows, so every free position of the band is set in it (a search
   * passes a band whose free positions all lie too far across in one read of it). A `clear` leaves it set where it
   * emptied positions and marks it stale; `bandReach` renews it when a search next reads it.
   */
  private readonly bandOr: Int32Array
  private readonly bandStale: Uint8Array
  /** Bands not made yet, and rows made that hold a free position. */
  private unmade: number
  private liveRows = 0
  /** Rows whose positions `nearest` has read (a row with no free position, or passed with its band, is not read). */
  rowsRead = 0
  /** The position `nearest` found. */
  x = 0
  y = 0

  constructor(
    imageWidth: number,
    imageHeight: number,
    readonly w: number,
    readonly h: number,
    private readonly placed: SpatialIndex
  ) {
    this.cols = imageWidth >= w ? Math.floor(imageWidth - w) + 1 : 0
    this.rows = imageHeight >= h ? Math.floor(imageHeight - h) + 1 : 0
    this.words = (this.cols + 31) >>> 5
    this.bits = new Int32Array(this.words * this.rows)
    this.live = new Int32Array(this.rows)
    this.made = new Uint8Array(Math.ceil(this.rows / BAND))
    this.bandLive = new Int32Array(this.made.length)
    this.bandOr = new Int32Array(this.made.length * this.words)
    this.bandStale = new Uint8Array(this.made.length)
    this.unmade = this.cols === 0 ? 0 : this.made.length
  }

  /** No position is free anywhere. */
  none(): boolean {
    return this.unmade === 0 && this.liveRows === 0
  }

  /** Whether (x, y) is a whole-pixel position inside the image whose row is made (`has` may read it). */
  holds(x: number, y: number): boolean {
    // The band first: on a tall image most tries fall in bands no search has read (a fraction or a negative y reads
    // some band or none; the checks after it decide).
    return (
      this.made[y >> BAND_SHIFT] === 1 &&
      x >= 0 &&
      y >= 0 &&
      x < this.cols &&
      y < this.rows &&
      Number.isInteger(x) &&
      Number.isInteger(y)
    )
  }

  /** Whether the band of rows at y (clamped into the image) is made. */
  madeAt(y: number): boolean {
    if (this.rows === 0) return false
    const row = y < 0 ? 0 : y >= this.rows ? this.rows - 1 : Math.floor(y)
    return this.made[row >> BAND_SHIFT] === 1
  }

  /** Whether no position of rows y0..y1 (whole, inside the image) is free, as the bands made so far prove. */
  noneIn(y0: number, y1: number): boolean {
    const {made, bandLive} = this
    for (let k = y0 >> BAND_SHIFT, last = y1 >> BAND_SHIFT; k <= last; k++) {
      if (made[k] !== 1 || bandLive[k] !== 0) return false
    }
    return true
  }

  /**
   * Whether row y (whole, inside the image) is made and holds no free position from x0 to x1 (whole, x0 <= x1, inside
   * the image).
   */
  takenBetween(y: number, x0: number, x1: number): boolean {
    if (this.made[y >> BAND_SHIFT] !== 1) return false
    return this.live[y] === 0 || this.leftOf(y, x1) < x0
  }

  /** Whether position (x, y), which `holds`, is free. */
  has(x: number, y: number): boolean {
    return ((this.bits[y * this.words + (x >>> 5)] as number) & (1 << (x & 31))) !== 0
  }

  /** Marks every position whose label would overlap `o` (a label just placed) as taken, in the rows made. */
  block(o: Rect): void {
    this.clear(o, 0, this.rows - 1)
  }

  /** Clears the positions whose label would overlap `o`, in rows ya..yb (those of bands not made are skipped). */
  private clear(o: Rect, ya: number, yb: number): void {
    const {w, h, words, bits, live, made} = this
    // The least whole x with o.l < x + w is floor(o.l) - w + 1 (w is whole); the greatest with x < o.r, ceil(o.r) - 1.
    const x0 = Math.max(0, Math.floor(o[0]) - w + 1)
    const x1 = Math.min(this.cols - 1, Math.ceil(o[2]) - 1)
    const y0 = Math.max(ya, Math.floor(o[1]) - h + 1)
    const y1 = Math.min(yb, Math.ceil(o[3]) - 1)
    if (!(x0 <= x1 && y0 <= y1)) return
    const k0 = x0 >>> 5
    const k1 = x1 >>> 5
    const first = -1 << (x0 & 31)
    const last = -1 >>> (31 - (x1 & 31))
    for (let y = y0; y <= y1; y++) {
      if (made[y >> BAND_SHIFT] === 0) {
        // To the band's last row: the loop moves on to the next band.
        y |= BAND - 1
        continue
      }
      if (live[y] === 0) continue
      const row = y * words
      let emptied = 0
      for (let k = k0; k <= k1; k++) {
        let mask = -1
        if (k === k0) mask &= first
        if (k === k1) mask &= last
        const v = bits[row + k] as number
        if (v === 0 || (v & mask) === 0) continue
        const left = v & ~mask
        bits[row + k] = left
        this.bandStale[y >> BAND_SHIFT] = 1
        if (left === 0) emptied++
      }
      if (emptied > 0) {
        const now = (live[y] as number) - emptied
        live[y] = now
        if (now === 0) {
          this.liveRows--
          this.bandLive[y >> BAND_SHIFT] = (this.bandLive[y >> BAND_SHIFT] as number) - 1
        }
      }
    }
  }

  /**
   * Makes band `k`: every position of its rows free, then those the placed labels take cleared (whole words at once,
   * with no count kept per label as `clear` keeps for a label added later), then each row's count of words not 0. On
   * a full image a search makes every band of its size, each from the few dozen labels around it.
   */
  private make(k: number): void {
    const {words, bits, live, placed, w, h} = this
    this.made[k] = 1
    this.unmade--
    const y0 = k << BAND_SHIFT
    const y1 = Math.min(this.rows, y0 + BAND) - 1
    const tail = this.cols & 31
    bits.fill(-1, y0 * words, (y1 + 1) * words)
    if (tail !== 0) for (let y = y0; y <= y1; y++) bits[y * words + words - 1] = -1 >>> (32 - tail)
    // The labels that take a position of these rows: o.t < y1 + h and y0 < o.b, anywhere across.
    const n = placed.collect(0, y0, this.cols - 1 + w, y1 + h)
    const {rects, found} = placed
    for (let i = 0; i < n; i++) {
      const o = rects[found[i] as number] as Rect
      // The positions the label takes, as in `clear`.
      const x0 = Math.max(0, Math.floor(o[0]) - w + 1)
      const x1 = Math.min(this.cols - 1, Math.ceil(o[2]) - 1)
      const ya = Math.max(y0, Math.floor(o[1]) - h + 1)
      const yb = Math.min(y1, Math.ceil(o[3]) - 1)
      if (!(x0 <= x1 && ya <= yb)) continue
      const k0 = x0 >>> 5
      const k1 = x1 >>> 5
      const first = ~(-1 << (x0 & 31))
      const last = ~(-1 >>> (31 - (x1 & 31)))
      for (let y = ya; y <= yb; y++) {
        const row = y * words
        if (k0 === k1) {
          bits[row + k0] = (bits[row + k0] as number) & (first | last)
          continue
        }
        bits[row + k0] = (bits[row + k0] as number) & first
        for (let c = k0 + 1; c < k1; c++) bits[row + c] = 0
        bits[row + k1] = (bits[row + k1] as number) & last
      }
    }
    let liveRows = 0
    for (let y = y0; y <= y1; y++) {
      let n = 0
      for (let c = y * words, end = c + words; c < end; c++) if (bits[c] !== 0) n++
      live[y] = n
      if (n > 0) liveRows++
    }
    this.liveRows += liveRows
    this.bandLive[k] = liveRows
    this.renewOr(k)
  }

  /** Band k's OR of its rows (see `bandOr`), made anew. */
  private renewOr(k: number): void {
    const {words, bits, bandOr} = this
    const y0 = k << BAND_SHIFT
    const y1 = Math.min(this.rows, y0 + BAND) - 1
    const out = k * words
    for (let c = 0; c < words; c++) {
      let v = 0
      for (let y = y0; y <= y1; y++) v |= bits[y * words + c] as number
      bandOr[out + c] = v
    }
    this.bandStale[k] = 0
  }

  /**
   * The least squared distance across, (x - ax)², from ax to a free position x of band k (made), as `nearest` computes
   * it for a position: a position of the band at row y lies at least this plus (y - ay)² from (ax, ay). Infinity when
   * the band holds none.
   */
  private bandReach(k: number, ax: number): number {
    if (this.bandStale[k] === 1) this.renewOr(k)
    const {bandOr, words, cols} = this
    const left = leftIn(bandOr, k * words, cols, ax, 0)
    const right = rightIn(bandOr, k * words, words, cols, ax, Infinity)
    const dl = left >= 0 ? (left - ax) ** 2 : Infinity
    const dr = right >= 0 ? (right - ax) ** 2 : Infinity
    return dl < dr ? dl : dr
  }

  /**
   * The free position nearest (ax, ay), into `x` and `y`: the least (x - ax)² + (y - ay)², then the least y, then the
   * least x (as a scan of every position would choose); false when none is free. Rows are read outward from ay while
   * they can still hold a spot as near as the best, each with a free position at all; in a row the nearest free
   * positions left and right of ax are the only ones that can win (squared distances of whole positions on one side
   * differ by at least 1, far more than a double's rounding at image scale).
   */
  nearest(ax: number, ay: number): boolean {
    const {rows, live, made, bandLive} = this
    if (this.none()) return false
    let bestD = Infinity
    let bestX = 0
    let bestY = 0
    const start = Math.min(rows - 1, Math.max(0, Math.floor(ay)))
    let up = start
    let down = start + 1
    // The band last entered on each side and its `bandReach` (read once a spot is found: before, every band is read).
    let upBand = -1
    let upReach = 0
    let downBand = -1
    let downReach = 0
    while (up >= 0 || down < rows) {
      const du = up >= 0 ? (up - ay) ** 2 : Infinity
      const dd = down < rows ? (down - ay) ** 2 : Infinity
      const y = du <= dd ? up : down
      // Every row left lies farther than the best spot.
      if ((du <= dd ? du : dd) > bestD) break
      const band = y >> BAND_SHIFT
      if (made[band] === 0) this.make(band)
      if (bandLive[band] === 0) {
        // No row of the band holds a free position: on past it, on this side.
        if (y === up) up = (band << BAND_SHIFT) - 1
        else down = (band + 1) << BAND_SHIFT
        continue
      }
      if (bestD !== Infinity) {
        // Every free position of the band lies at least `reach` across: past the best, so is every row of the band
        // on this side (they only get farther from ay).
        let reach: number
        if (y === up) {
          if (band !== upBand) {
            upBand = band
            upReach = this.bandReach(band, ax)
          }
          reach = upReach
        } else {
          if (band !== downBand) {
            downBand = band
            downReach = this.bandReach(band, ax)
          }
          reach = downReach
        }
        if ((du <= dd ? du : dd) + reach > bestD) {
          if (y === up) up = (band << BAND_SHIFT) - 1
          else down = (band + 1) << BAND_SHIFT
          continue
        }
      }
      if (y === up) up--
      else down++
      if (live[y] === 0) continue
      this.rowsRead++
      // Only positions within the best distance so far can win: the words beyond it are not read (a margin of a
      // position against the square root's rounding; every position found is compared exactly below).
      const reach = bestD === Infinity ? Infinity : Math.sqrt(bestD - (y - ay) ** 2) + 1
      const left = this.leftOf(y, ax, ax - reach)
      if (left >= 0) {
        const d = (left - ax) ** 2 + (y - ay) ** 2
        if (d < bestD || (d === bestD && (y < bestY || (y === bestY && left < bestX)))) {
          bestD = d
          bestX = left
          bestY = y
        }
      }
      const right = this.rightOf(y, ax, ax + reach)
      if (right >= 0) {
        const d = (right - ax) ** 2 + (y - ay) ** 2
        if (d < bestD || (d === bestD && (y < bestY || (y === bestY && right < bestX)))) {
          bestD = d
          bestX = right
          bestY = y
        }
      }
    }
    if (bestD === Infinity) return false
    this.x = bestX
    this.y = bestY
    return true
  }

  /**
   * The greatest free x <= ax in row y, or -1; with `lo`, -1 also when none lies in the 32-position words from lo's
   * on (the words left of it are not read: a farther position cannot win).
   */
  private leftOf(y: number, ax: number, lo = 0): number {
    return leftIn(this.bits, y * this.words, this.cols, ax, lo)
  }

  /** The least free x >= ax in row y, or -1; with `hi`, -1 also when none lies in the words up to hi's. */
  private rightOf(y: number, ax: number, hi = Infinity): number {
    return rightIn(this.bits, y * this.words, this.words, this.cols, ax, hi)
  }
}

/** `leftOf` in the row of `cols` positions at offset `row` of `bits`. */
function leftIn(bits: Int32Array, row: number, cols: number, ax: number, lo: number): number {
  const from = Math.min(cols - 1, Math.floor(ax))
  if (from < 0) return -1
  const stop = lo > 0 ? Math.floor(lo) >>> 5 : 0
  let k = from >>> 5
  let v = (bits[row + k] as number) & (-1 >>> (31 - (from & 31)))
  while (v === 0) {
    if (--k < stop) return -1
    v = bits[row + k] as number
  }
  return (k << 5) + 31 - Math.clz32(v)
}

/** `rightOf` in the row of `words` words (`cols` positions) at offset `row` of `bits`. */
function rightIn(bits: Int32Array, row: number, words: number, cols: number, ax: number, hi: number): number {
  const from = Math.max(0, Math.ceil(ax))
  if (from >= cols) return -1
  const stop = hi >= cols ? words - 1 : hi > 0 ? Math.floor(hi) >>> 5 : 0
  let k = from >>> 5
  let v = (bits[row + k] as number) & (-1 << (from & 31))
  while (v === 0) {
    if (++k > stop) return -1
    v = bits[row + k] as number
  }
  return (k << 5) + 31 - Math.clz32(v & -v)
}

/** Rows per band made at once (a power of two). */
const BAND_SHIFT = 4
const BAND = 1 << BAND_SHIFT
