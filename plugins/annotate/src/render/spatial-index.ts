import {intersects, type Rect} from './geometry.js'

/**
 * A uniform grid over the image: each rectangle is filed under every cell it covers, so "what could touch this
 * rectangle" looks at a few cells instead of every label or box on a crowded screen.
 */
export class SpatialIndex {
  private readonly cells = new Map<number, number[]>()
  readonly rects: Rect[] = []
  private stamp = new Uint32Array(0)
  private visit = 0

  constructor(private readonly cellSize = 24) {}

  private range(r: Rect): [number, number, number, number] {
    const s = this.cellSize
    return [Math.floor(r[0] / s), Math.floor(r[1] / s), Math.floor((r[2] - 1) / s), Math.floor((r[3] - 1) / s)]
  }

  add(r: Rect): void {
    const id = this.rects.push(r) - 1
    const [x0, y0, x1, y1] = this.range(r)
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const key = cy * 65536 + cx
        const list = this.cells.get(key)
        if (list) list.push(id)
        else this.cells.set(key, [id])
      }
    }
  }

  /** Calls `fn` once for each stored rectangle that may intersect `r` (same cells); stops when it returns true. */
  some(r: Rect, fn: (rect: Rect, id: number) => boolean): boolean {
    if (this.stamp.length < this.rects.length) {
      const grown = new Uint32Array(Math.max(64, this.rects.length * 2))
      grown.set(this.stamp)
      this.stamp = grown
    }
    const visit = ++this.visit
    const [x0, y0, x1, y1] = this.range(r)
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const list = this.cells.get(cy * 65536 + cx)
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

  intersectsAny(r: Rect): boolean {
    return this.some(r, (other) => intersects(other, r))
  }
}
