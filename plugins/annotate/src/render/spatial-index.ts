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
    return cellAt(x, this.cellSize, this.cols, end)
  }

  private row(y: number, end = false): number {
    return cellAt(y, this.cellSize, this.rows, end)
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

/**
 * Rectangles known up front (placement's boxes), filed once in a grid packed into flat arrays, for the one question
 * placement asks of them for every free candidate: how many box outlines would a label there hide. Each rectangle
 * is filed under the same cells `SpatialIndex` files it under (the same `cellSize`, the same edges), and its
 * coordinates sit beside its id in the cell's run: a query reads runs of numbers, where a `SpatialIndex` walk reads
 * an id, then the rectangle's array, then a visit stamp. A rectangle filed in several cells the query covers counts
 * only in the first of them (the query's first column and row, or its own): no stamp is read or written. On a
 * crowded screen (a thousand list rows on a 315x700 image) a full-width row lies in every column of cells: the
 * rectangles a caller counts otherwise (`leave`, 1 per rectangle left out) are filed nowhere.
 */
export class BoxGrid {
  private readonly cols: number
  private readonly rows: number
  /** Per cell, where its run of entries starts (cell k's run ends where cell k + 1's starts). */
  private readonly starts: Int32Array
  /** Per entry: its rectangle's left, top, right and bottom. */
  private readonly edges: Float64Array
  /** Per entry: its rectangle's index, and the first cell column and row the rectangle is filed under. */
  private readonly ids: Int32Array
  private readonly firstCols: Int32Array
  private readonly firstRows: Int32Array

  constructor(
    width: number,
    height: number,
    private readonly cellSize: number,
    rects: Rect[],
    leave?: Uint8Array
  ) {
    const cols = (this.cols = Math.max(1, Math.ceil(width / cellSize)))
    this.rows = Math.max(1, Math.ceil(height / cellSize))
    const starts = (this.starts = new Int32Array(cols * this.rows + 1))
    // Counted per cell first (into the next cell's start), then laid out run after run.
    const spans = new Int32Array(4 * rects.length)
    for (let i = 0; i < rects.length; i++) {
      const r = rects[i] as Rect
      if (leave !== undefined && leave[i] === 1) continue
      const x0 = (spans[4 * i] = this.col(r[0]))
      const x1 = (spans[4 * i + 1] = this.col(r[2], true))
      const y0 = (spans[4 * i + 2] = this.row(r[1]))
      const y1 = (spans[4 * i + 3] = this.row(r[3], true))
      for (let cy = y0; cy <= y1; cy++) {
        for (let cx = x0; cx <= x1; cx++) starts[cy * cols + cx + 1] = (starts[cy * cols + cx + 1] as number) + 1
      }
    }
    for (let k = 1; k < starts.length; k++) starts[k] = (starts[k] as number) + (starts[k - 1] as number)
    const total = starts[starts.length - 1] as number
    this.edges = new Float64Array(4 * total)
    this.ids = new Int32Array(total)
    this.firstCols = new Int32Array(total)
    this.firstRows = new Int32Array(total)
    const fill = starts.slice(0, starts.length - 1)
    for (let i = 0; i < rects.length; i++) {
      if (leave !== undefined && leave[i] === 1) continue
      const r = rects[i] as Rect
      const x0 = spans[4 * i] as number
      const y0 = spans[4 * i + 2] as number
      for (let cy = y0; cy <= (spans[4 * i + 3] as number); cy++) {
        for (let cx = x0; cx <= (spans[4 * i + 1] as number); cx++) {
          const e = fill[cy * cols + cx] as number
          fill[cy * cols + cx] = e + 1
          this.edges[4 * e] = r[0]
          this.edges[4 * e + 1] = r[1]
          this.edges[4 * e + 2] = r[2]
          this.edges[4 * e + 3] = r[3]
          this.ids[e] = i
          this.firstCols[e] = x0
          this.firstRows[e] = y0
        }
      }
    }
  }

  /** As `SpatialIndex`'s: the cell column of x (a left edge, inclusive; with `end`, a right edge, exclusive). */
  private col(x: number, end = false): number {
    return cellAt(x, this.cellSize, this.cols, end)
  }

  private row(y: number, end = false): number {
    return cellAt(y, this.cellSize, this.rows, end)
  }

  /**
   * How many of the rectangles other than number `except` a label at [l, r) x [t, b) would hide part of the outline
   * of (`line` wide): it overlaps the rectangle (positive area) and does not lie wholly inside its inner rectangle.
   * Counting stops at `most` (the caller's label has lost by then).
   */
  outlinesHidden(l: number, t: number, r: number, b: number, except: number, line: number, most: number): number {
    const x0 = this.col(l)
    const x1 = this.col(r, true)
    const y0 = this.row(t)
    const y1 = this.row(b, true)
    const {cols, starts, edges, ids, firstCols, firstRows} = this
    let n = 0
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const cell = cy * cols + cx
        for (let e = starts[cell] as number, end = starts[cell + 1] as number; e < end; e++) {
          // Counted in the first cell of the query it is filed under.
          if ((cx > x0 && (firstCols[e] as number) < cx) || (cy > y0 && (firstRows[e] as number) < cy)) continue
          const ol = edges[4 * e] as number
          const ot = edges[4 * e + 1] as number
          const or = edges[4 * e + 2] as number
          const ob = edges[4 * e + 3] as number
          if (!(ol < r && l < or && ot < b && t < ob)) continue
          // Wholly inside the inner rectangle, the label does not touch the outline.
          if (l >= ol + line && t >= ot + line && r <= or - line && b <= ob - line) continue
          if (ids[e] === except) continue
          if (++n >= most) return n
        }
      }
    }
    return n
  }
}

/**
 * The cell, of `count` cells `size` wide along one axis, that coordinate v falls in: a left or top edge (inclusive),
 * or with `end` a right or bottom edge (exclusive), clamped into the grid.
 */
function cellAt(v: number, size: number, count: number, end: boolean): number {
  const c = end ? Math.ceil(v / size) - 1 : Math.floor(v / size)
  return c < 0 ? 0 : c >= count ? count - 1 : c
}
