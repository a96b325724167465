/** Rectangles as [left, top, right, bottom], right and bottom exclusive, in one pixel space. */
export type Rect = [number, number, number, number]

/** Area of the overlap of two rectangles (0 when they only touch). */
export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0])
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1])
  return w > 0 && h > 0 ? w * h : 0
}

export function intersects(a: Rect, b: Rect): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/** True when `a` touches or overlaps `b` (shares at least an edge point). */
export function touches(a: Rect, b: Rect): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/** The part of `r` inside [0, w) x [0, h), or undefined when nothing of it is. */
export function clip(r: Rect, w: number, h: number): Rect | undefined {
  const out: Rect = [Math.max(0, r[0]), Math.max(0, r[1]), Math.min(w, r[2]), Math.min(h, r[3])]
  return out[2] > out[0] && out[3] > out[1] ? out : undefined
}

/** True when the outline (the 1-line border) of `box` passes through `r`. */
export function outlineCrosses(box: Rect, r: Rect, line: number): boolean {
  if (!intersects(box, r)) return false
  const inner: Rect = [box[0] + line, box[1] + line, box[2] - line, box[3] - line]
  // Inside the inner rectangle entirely: the label sits within the box without touching its border.
  return !(r[0] >= inner[0] && r[1] >= inner[1] && r[2] <= inner[2] && r[3] <= inner[3])
}

/** Nearest points of two rectangles, for a leader line from a label that does not touch its box. */
export function nearestPoints(a: Rect, b: Rect): [number, number, number, number] {
  const ax = clamp((b[0] + b[2]) / 2, a[0], a[2])
  const ay = clamp((b[1] + b[3]) / 2, a[1], a[3])
  const bx = clamp(ax, b[0], b[2])
  const by = clamp(ay, b[1], b[3])
  return [ax, ay, bx, by]
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v
}
