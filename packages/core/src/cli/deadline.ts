import {TimeoutError} from '../errors/arc-error.js'

/** A whole command may take this many device-call time limits (adb.timeoutMs, default 20 s) in all. */
export const COMMAND_DEADLINE_FACTOR = 3

/** How long work told to stop at the deadline may take to wind up (close the device, put back what it changed). */
export const DEADLINE_GRACE_MS = 5_000

/**
 * Tells the deadline that the work still to do will take about `ms` more (typing paced over many calls, a long
 * gesture, a device whose every `input` starts a VM): the deadline moves out to at least `ms` plus the base limit
 * from now. It never moves in.
 */
export type ExpectWork = (ms: number) => void

/**
 * Runs `work` under one deadline for the whole command, on top of each device call's own limit: a command
 * making many calls that each finish in time (annotate over a slow link) still ends. The deadline is `ms` from the
 * start, moved out by what `work` says it still has to do (`expectWork`): the limit grows with the work asked, not
 * with how long the device takes to answer. At the deadline the signal handed to `work` is aborted, and once `work`
 * has wound up (at most DEADLINE_GRACE_MS: closing the driver ends any device call still running and puts back what
 * a cut-off action changed, such as the keyboard switched for typing) a TimeoutError naming the command and the
 * limit is thrown.
 */
export async function runWithDeadline<T>(
  what: string,
  ms: number,
  work: (signal: AbortSignal, expectWork: ExpectWork) => Promise<T>
): Promise<T> {
  const controller = new AbortController()
  const started = Date.now()
  let deadline = started + ms
  let timer: NodeJS.Timeout | undefined
  let grace: NodeJS.Timeout | undefined
  let fire: () => void = () => undefined
  let expectWork: ExpectWork = () => undefined
  const expired = new Promise<TimeoutError>((resolve) => {
    fire = () => {
      const limit = deadline - started
      const grown =
        limit > ms
          ? `: ${ms / 1000} s (${COMMAND_DEADLINE_FACTOR} x adb.timeoutMs) plus ${((limit - ms) / 1000).toFixed(1)} s for the work it was given`
          : ''
      const error = new TimeoutError(
        `${what} did not finish within ${Number((limit / 1000).toFixed(1))} s (the whole-command limit${grown || `: ${COMMAND_DEADLINE_FACTOR} x adb.timeoutMs`})`,
        {
          details: {limit_ms: limit},
          actions: ['Check the device and the link to it, or raise adb.timeoutMs in the config.'],
        }
      )
      controller.abort(error)
      resolve(error)
    }
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(() => (Date.now() >= deadline ? fire() : arm()), Math.max(0, deadline - Date.now()))
      timer.unref()
    }
    arm()
    expectWork = (more: number) => {
      if (controller.signal.aborted || !(more > 0)) return
      const wanted = Date.now() + more + ms
      if (wanted > deadline) deadline = wanted
    }
  })
  const running = work(controller.signal, (more) => expectWork(more))
  const settled = running.then(
    () => undefined,
    () => undefined
  )
  try {
    const first = await Promise.race([settled.then(() => undefined), expired])
    if (first === undefined) return await running
    await Promise.race([
      settled,
      new Promise<void>((resolve) => (grace = setTimeout(resolve, DEADLINE_GRACE_MS)).unref()),
    ])
    throw first
  } finally {
    clearTimeout(timer)
    clearTimeout(grace)
  }
}
