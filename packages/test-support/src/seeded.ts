/**
 * mulberry32: a small deterministic generator, so a failing case reproduces. `next(n)` is a whole number from 0 to
 * n - 1.
 */
export function generator(seed: number): (n: number) => number {
  let a = seed
  return (n) => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) % n
  }
}
