import {intersects, type Rect} from './geometry.js'

/**
 * A uniform grid over the image: each rectangle is filed under every cell it covers, so "what could touch this
 * rectangle" looks at a few cells instead of every label or box on a crowded screen. The cells are one flat array
 * over the image (parts of a rectangle outside it are filed under the border cells, which keeps every pair that
 * intersects in a shared cell), and a query walks them with numbers, never allocating: placement asks it tens of
 * times per label.
 */
export class SpatialIndex {
  private readonly cells: Array<number[] | undefined>
  private readonly cols: number
  private readonly rows: number
  readonly rects: Rect[] = []
  private stamp = new Uint32Array(64)
  private visit = 0

  constructor(
    width: number,
    height: number,
    private readonly cellSize = 24
  ) {
    this.cols = Math.max(1, Math.ceil(width / cellSize))
    this.rows = Math.max(1, Math.ceil(height / cellSize))
    this.cells = new Array<number[] | undefined>(this.cols * this.rows)
  }

  /** The cell column of x (a left edge, inclusive; with `end`, a right edge, exclusive). */
  private col(x: number, end = false): number {
    const c = end ? Math.ceil(x / this.cellSize) - 1 : Math.floor(x / this.cellSize)
    return c < 0 ? 0 : c >= this.cols ? this.cols - 1 : c
  }

  private row(y: number, end = false): number {
    const c = end ? Math.ceil(y / this.cellSize) - 1 : Math.floor(y / this.cellSize)
    return c < 0 ? 0 : c >= this.rows ? this.rows - 1 : c
  }

  add(r: Rect): void {
    const id = this.rects.push(r) - 1
    if (this.stamp.length < this.rects.length) {
      const grown = new Uint32Array(this.rects.length * 2)
      grown.set(this.stamp)
      this.stamp = grown
    }
    const x0 = this.col(r[0])
    const x1 = this.col(r[2], true)
    const y0 = this.row(r[1])
    const y1 = this.row(r[3], true)
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const key = cy * this.cols + cx
        const list = this.cells[key]
        if (list) list.push(id)
        else this.cells[key] = [id]
      }
    }
  }

  /** Calls `fn` once for each stored rectangle that may intersect `r` (same cells); stops when it returns true. */
  some(r: Rect, fn: (rect: Rect, id: number) => boolean): boolean {
    const visit = this.nextVisit()
    const x0 = this.col(r[0])
    const x1 = this.col(r[2], true)
    const y0 = this.row(r[1])
    const y1 = this.row(r[3], true)
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const list = this.cells[cy * this.cols + cx]
        if (!list) continue
        for (const id of list) {
          if (this.stamp[id] === visit) continue
          this.stamp[id] = visit
          if (fn(this.rects[id] as Rect, id)) return true
        }
      }
    }
    return false
  }

  /**
   * Ids of the stored rectangles that may intersect [l, r) x [t, b) (same cells), each once, into `found`; returns how
   * many. For the hottest callers (placement scores every free candidate against the boxes and text near it): a
   * loop over numbers, where `some` calls a closure per rectangle.
   */
  collect(l: number, t: number, r: number, b: number): number {
    const visit = this.nextVisit()
    const x0 = this.col(l)
    const x1 = this.col(r, true)
    const y0 = this.row(t)
    const y1 = this.row(b, true)
    const {cells, cols, stamp} = this
    let found = this.found
    let n = 0
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const list = cells[cy * cols + cx]
        if (!list) continue
        for (let i = 0; i < list.length; i++) {
          const id = list[i] as number
          if (stamp[id] === visit) continue
          stamp[id] = visit
          if (n === found.length) {
            const grown = new Int32Array(2 * n)
            grown.set(found)
            this.found = found = grown
          }
          found[n++] = id
        }
      }
    }
    return n
  }

  /** What the last `collect` found (its first n entries). */
  found = new Int32Array(64)

  /**
   * Starts a walk over the ids of the stored rectangles that may intersect [l, r) x [t, b) (same cells as `collect`),
   * each once: `next()` gives them one at a time. For a caller that may stop after a few (placement stops scoring a
   * spot once it costs more than the best one): on a crowded screen `collect` would gather dozens it never reads.
   * One walk at a time per index; `collect` and `some` end it.
   */
  walk(l: number, t: number, r: number, b: number): void {
    this.walkVisit = this.nextVisit()
    this.walkX0 = this.col(l)
    this.walkX1 = this.col(r, true)
    this.walkY1 = this.row(b, true)
    this.walkX = this.walkX0
    this.walkY = this.row(t)
    this.walkList = this.cells[this.walkY * this.cols + this.walkX]
    this.walkAt = 0
  }

  /** The walk's next id, or -1 when it has given them all. */
  next(): number {
    const {stamp, walkVisit} = this
    for (;;) {
      const list = this.walkList
      if (list) {
        while (this.walkAt < list.length) {
          const id = list[this.walkAt++] as number
          if (stamp[id] === walkVisit) continue
          stamp[id] = walkVisit
          return id
        }
      }
      if (this.walkX < this.walkX1) this.walkX++
      else if (this.walkY < this.walkY1) {
        this.walkX = this.walkX0
        this.walkY++
      } else {
        this.walkList = undefined
        return -1
      }
      this.walkList = this.cells[this.walkY * this.cols + this.walkX]
      this.walkAt = 0
    }
  }

  private walkVisit = 0
  private walkX0 = 0
  private walkX1 = -1
  private walkY1 = -1
  private walkX = 0
  private walkY = 0
  private walkList: number[] | undefined
  private walkAt = 0

  /**
   * The id of a stored rectangle overlapping [l, r) x [t, b) (positive area), or -1 when none does. Which one, when
   * several do, is unspecified.
   */
  firstIntersecting(l: number, t: number, r: number, b: number): number {
    const x0 = this.col(l)
    const x1 = this.col(r, true)
    const y0 = this.row(t)
    const y1 = this.row(b, true)
    const {rects, cells, cols} = this
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const list = cells[cy * cols + cx]
        if (!list) continue
        // A rectangle filed in several cells may be tested more than once: cheaper than marking it visited.
        for (let i = 0; i < list.length; i++) {
          const id = list[i] as number
          const o = rects[id] as Rect
          if (o[0] < r && l < o[2] && o[1] < b && t < o[3]) return id
        }
      }
    }
    return -1
  }

  intersectsAny(r: Rect): boolean {
    return this.some(r, (other) => intersects(other, r))
  }

  private nextVisit(): number {
    if (this.visit === 0xffffffff) {
      this.stamp.fill(0)
      this.visit = 0
    }
    return ++this.visit
  }
}
