import type {Rect} from './geometry.js'

/**
 * The boxes as wide as the image (list rows, the commonest crowded layout), as counts per pixel row, for what placement
 * asks of every free candidate: how many box outlines the label there would hide. Two kinds of box are kept:
 * - thin ones, too short to hold any label inside their inner rectangle (height < least label height + 2 line): a
 *   label anywhere across the image hides the outline of every one whose rows it meets, so `thin` counts them exactly
 *   and the box grid need not file them (a row as wide as the image lies in every column of its cells);
 * - tall ones, too tall for a label to meet both their top band [top, top + line) and bottom band [bottom - line,
 *   bottom) (height >= greatest label height + 2 line): a label whose rows meet a band hides the outline (it is not
 *   within the inner rows), so `bands` is a lower bound of theirs (a label at the image's edge may hide more).
 * Boxes between the two are left to the grid. Each count is of intervals meeting [t, b): those that start before b,
 * less those that end at or before t. With such a bound a candidate whose rank plus the outlines it surely hides
 * already reaches the best cost loses with no check of its spot and no walk over the boxes under it.
 */
export class RowOutlines {
  /** Per whole y in 0..H + 1, how many thin boxes start before y and how many end at or before y. */
  private readonly thinStarts: Int32Array
  private readonly thinEnds: Int32Array
  /** The same for the tall boxes' top and bottom bands. */
  private readonly bandStarts: Int32Array
  private readonly bandEnds: Int32Array
  /** The thin boxes' tops and bottoms, sorted: their count at rows that are not whole, by bisection. */
  private readonly tops: Float64Array
  private readonly bottoms: Float64Array
  /** Per box: 1 thin, 2 tall, 0 neither; and its top and bottom. */
  readonly kinds: Uint8Array
  private readonly ownTop: Float64Array
  private readonly ownBottom: Float64Array

  /**
   * The counts for `boxes` on a W x H image (H whole), labels `least` to `most` px tall, outlines `line` px wide; or
   * undefined when no box is counted.
   */
  static of(boxes: Rect[], W: number, H: number, least: number, most: number, line: number): RowOutlines | undefined {
    if (!(Number.isInteger(H) && H >= 1 && W > 0 && line > 0)) return undefined
    for (let i = 0; i < boxes.length; i++) {
      if (RowOutlines.kind(boxes[i] as Rect, W, least, most, line) !== 0) {
        return new RowOutlines(boxes, W, H, least, most, line)
      }
    }
    return undefined
  }

  /** 1: a thin box as wide as the image, 2: a tall one, 0: neither. */
  private static kind(o: Rect, W: number, least: number, most: number, line: number): number {
    if (!(o[0] <= 0 && o[2] >= W && o[1] < o[3] && Number.isFinite(o[1]) && Number.isFinite(o[3]))) return 0
    const height = o[3] - o[1]
    return height < least + 2 * line ? 1 : height >= most + 2 * line ? 2 : 0
  }

  private constructor(
    boxes: Rect[],
    W: number,
    private readonly H: number,
    least: number,
    most: number,
    private readonly line: number
  ) {
    this.thinStarts = new Int32Array(H + 2)
    this.thinEnds = new Int32Array(H + 2)
    this.bandStarts = new Int32Array(H + 2)
    this.bandEnds = new Int32Array(H + 2)
    const kinds = (this.kinds = new Uint8Array(boxes.length))
    this.ownTop = new Float64Array(boxes.length)
    this.ownBottom = new Float64Array(boxes.length)
    let thin = 0
    for (let i = 0; i < boxes.length; i++) {
      const o = boxes[i] as Rect
      const kind = RowOutlines.kind(o, W, least, most, line)
      if (kind === 0) continue
      this.ownTop[i] = o[1]
      this.ownBottom[i] = o[3]
      kinds[i] = kind
      if (kind === 1) {
        thin++
        this.count(this.thinStarts, this.thinEnds, o[1], o[3])
      } else {
        this.count(this.bandStarts, this.bandEnds, o[1], o[1] + line)
        this.count(this.bandStarts, this.bandEnds, o[3] - line, o[3])
      }
    }
    for (const counts of [this.thinStarts, this.thinEnds, this.bandStarts, this.bandEnds]) {
      for (let y = 1; y <= H + 1; y++) counts[y] = (counts[y] as number) + (counts[y - 1] as number)
    }
    this.tops = new Float64Array(thin)
    this.bottoms = new Float64Array(thin)
    for (let i = 0, k = 0; i < boxes.length; i++) {
      if (kinds[i] !== 1) continue
      this.tops[k] = (boxes[i] as Rect)[1]
      this.bottoms[k++] = (boxes[i] as Rect)[3]
    }
    this.tops.sort()
    this.bottoms.sort()
  }

  /** Counts the interval [a, z): it starts before whole y when floor(a) + 1 <= y, ends at or before y when ceil(z) <= y. */
  private count(starts: Int32Array, ends: Int32Array, a: number, z: number): void {
    const {H} = this
    const s = Math.floor(a) + 1
    const i = s < 0 ? 0 : s > H + 1 ? H + 1 : s
    starts[i] = (starts[i] as number) + 1
    const e = Math.ceil(z)
    const j = e < 0 ? 0 : e > H + 1 ? H + 1 : e
    ends[j] = (ends[j] as number) + 1
  }

  /** Exactly how many thin boxes other than number `except` a label across the image on rows [t, b) (t < b) meets. */
  thin(t: number, b: number, except: number): number {
    if (!(t < b)) return 0
    let n: number
    if (t >= 0 && b <= this.H && Number.isInteger(t) && Number.isInteger(b)) {
      n = (this.thinStarts[b] as number) - (this.thinEnds[t] as number)
    } else n = below(this.tops, b, false) - below(this.bottoms, t, true)
    if (this.kinds[except] === 1 && (this.ownTop[except] as number) < b && t < (this.ownBottom[except] as number)) n--
    return n
  }

  /**
   * At least how many outlines of the tall boxes other than number `except` a label across the image on rows [t, b)
   * hides, for a label `least` to `most` px tall (t, b whole, 0 <= t < b); 0 when not whole or past the last row.
   */
  bands(t: number, b: number, except: number): number {
    if (t < 0 || b > this.H || !Number.isInteger(t) || !Number.isInteger(b)) return 0
    let n = (this.bandStarts[b] as number) - (this.bandEnds[t] as number)
    if (this.kinds[except] === 2) {
      const top = this.ownTop[except] as number
      const bottom = this.ownBottom[except] as number
      if (top < b && t < top + this.line) n--
      if (bottom - this.line < b && t < bottom) n--
    }
    return n
  }
}

/** How many of `sorted` are below v (with `orAt`, at most v). */
function below(sorted: Float64Array, v: number, orAt: boolean): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const s = sorted[mid] as number
    if (s < v || (orAt && s === v)) lo = mid + 1
    else hi = mid
  }
  return lo
}
