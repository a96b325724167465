import {TimeoutError} from '../errors/arc-error.js'

/** A whole command may take this many device-call time limits (adb.timeoutMs, default 20 s) in all. */
export const COMMAND_DEADLINE_FACTOR = 3

/** How long work told to stop at the deadline may take to wind up (close the device, put back what it changed). */
export const DEADLINE_GRACE_MS = 5_000

/**
 * Runs `work` under one deadline for the whole command, on top of each device call's own limit: a command
 * making many calls that each finish in time (annotate over a slow link) still ends. At the deadline the
 * signal handed to `work` is aborted, and once `work` has wound up (at most DEADLINE_GRACE_MS: closing the driver
 * ends any device call still running and puts back what a cut-off action changed, such as the keyboard switched
 * for typing) a TimeoutError naming the command and the limit is thrown.
 */
export async function runWithDeadline<T>(what: string, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  let grace: NodeJS.Timeout | undefined
  const expired = new Promise<TimeoutError>((resolve) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`${what} did not finish within ${ms / 1000} s (the whole-command limit: ${COMMAND_DEADLINE_FACTOR} x adb.timeoutMs)`, {
        details: {limitMs: ms},
        actions: ['Check the device and the link to it, or raise adb.timeoutMs in the config.'],
      })
      controller.abort(error)
      resolve(error)
    }, ms)
    timer.unref()
  })
  const running = work(controller.signal)
  const settled = running.then(
    () => undefined,
    () => undefined,
  )
  try {
    const first = await Promise.race([settled.then(() => undefined), expired])
    if (first === undefined) return await running
    await Promise.race([settled, new Promise<void>((resolve) => (grace = setTimeout(resolve, DEADLINE_GRACE_MS)).unref())])
    throw first
  } finally {
    clearTimeout(timer)
    clearTimeout(grace)
  }
}
