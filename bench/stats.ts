/** Small helpers shared by the benchmarks. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times, and returns the wall times in milliseconds. */
export async function timeRuns(fn: () => Promise<unknown> | unknown, runs: number, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return times
}

/**
 * Times several functions side by side: each round runs every one once, the order turning by one each round,
 * so a burst of load on a shared machine falls on all of them alike rather than on whichever ran in that stretch.
 * Returns the wall times in milliseconds, one list per function, after `warmup` unmeasured rounds.
 */
export async function timeAlternating(
  fns: Array<() => Promise<unknown> | unknown>,
  runs: number,
  warmup = 3
): Promise<number[][]> {
  const times = fns.map((): number[] => [])
  for (let round = 0; round < warmup + runs; round++) {
    for (let k = 0; k < fns.length; k++) {
      const index = (round + k) % fns.length
      const start = process.hrtime.bigint()
      await (fns[index] as () => Promise<unknown> | unknown)()
      if (round >= warmup) (times[index] as number[]).push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  }
  return times
}

export function fmt(ms: number): string {
  return `${ms.toFixed(2)} ms`
}
