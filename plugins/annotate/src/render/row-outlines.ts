import type {Rect} from './geometry.js'

/**
 * The boxes as wide as the image (list rows, the commonest crowded layout), as counts per pixel row, for a lower
 * bound of the box outlines a label would hide that costs a few array reads: placement scores every free candidate
 * by the outlines it hides, and a candidate whose rank plus that bound already reaches the best cost found loses with
 * no check of its spot and no walk over the boxes under it.
 *
 * A label anywhere across the image on rows [t, b) hides the outline (`line` wide) of such a box when it meets the
 * box's rows and does not lie within its inner rows (t >= top + line and b <= bottom - line): so when its rows meet the
 * box's top band [top, top + line) or bottom band [bottom - line, bottom). Two kinds of box are counted:
 * - thin ones, too short to hold any label (height < least label height + 2 line): every one the rows meet;
 * - tall ones, too tall for a label to meet both bands (height >= greatest label height + 2 line): the top bands and
 *   the bottom bands the rows meet, each a count of intervals.
 * Boxes between the two are left out (a bound, not the count). Each count is of intervals meeting [t, b): those that
 * start before b, less those that end at or before t.
 */
export class RowOutlines {
  /** Per whole y in 0..H + 1, how many intervals start before y ... */
  private readonly starts: Int32Array
  /** ... and how many end at or before y; three interval kinds (thin boxes, top bands, bottom bands) summed. */
  private readonly ends: Int32Array
  /** Per box: how many of the counted intervals are its own (0, 1 or 2). */
  private readonly own: Uint8Array
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
    const starts = (this.starts = new Int32Array(H + 2))
    const ends = (this.ends = new Int32Array(H + 2))
    this.own = new Uint8Array(boxes.length)
    this.ownTop = new Float64Array(boxes.length)
    this.ownBottom = new Float64Array(boxes.length)
    for (let i = 0; i < boxes.length; i++) {
      const o = boxes[i] as Rect
      const kind = RowOutlines.kind(o, W, least, most, line)
      if (kind === 0) continue
      this.ownTop[i] = o[1]
      this.ownBottom[i] = o[3]
      this.own[i] = kind
      if (kind === 1) this.count(o[1], o[3])
      else {
        this.count(o[1], o[1] + line)
        this.count(o[3] - line, o[3])
      }
    }
    for (let y = 1; y <= H + 1; y++) {
      starts[y] = (starts[y] as number) + (starts[y - 1] as number)
      ends[y] = (ends[y] as number) + (ends[y - 1] as number)
    }
  }

  /** Counts the interval [a, z): it starts before whole y when floor(a) + 1 <= y, ends at or before y when ceil(z) <= y. */
  private count(a: number, z: number): void {
    const {starts, ends, H} = this
    const s = Math.floor(a) + 1
    const i = s < 0 ? 0 : s > H + 1 ? H + 1 : s
    starts[i] = (starts[i] as number) + 1
    const e = Math.ceil(z)
    const j = e < 0 ? 0 : e > H + 1 ? H + 1 : e
    ends[j] = (ends[j] as number) + 1
  }

  /**
   * At most how many outlines of the boxes other than number `except` a label on rows [t, b) hides, for a label as
   * tall as `of`'s `least` to `most` (t, b whole, 0 <= t < b); 0 past the image's last row.
   */
  hidden(t: number, b: number, except: number): number {
    if (b > this.H || !Number.isInteger(t) || !Number.isInteger(b)) return 0
    let n = (this.starts[b] as number) - (this.ends[t] as number)
    const own = this.own[except]
    if (own === 1) {
      if ((this.ownTop[except] as number) < b && t < (this.ownBottom[except] as number)) n--
    } else if (own === 2) {
      const top = this.ownTop[except] as number
      const bottom = this.ownBottom[except] as number
      if (top < b && t < top + this.line) n--
      if (bottom - this.line < b && t < bottom) n--
    }
    return n
  }
}
