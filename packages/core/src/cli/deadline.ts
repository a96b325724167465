import {TimeoutError} from '../errors/arc-error.js'

/** A whole command may take this many device-call time limits (adb.timeoutMs, default 20 s) in all. */
export const COMMAND_DEADLINE_FACTOR = 3

/**
 * Runs `work` under one deadline for the whole command, on top of each device call's own limit: a command
 * making many calls that each finish in time (annotate over a slow link) still ends. At the deadline the
 * signal handed to `work` is aborted and a TimeoutError naming the command and the limit is thrown; the caller's
 * `finally` then closes the driver, which ends any device call still running.
 */
export async function runWithDeadline<T>(what: string, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`${what} did not finish within ${ms / 1000} s (the whole-command limit: ${COMMAND_DEADLINE_FACTOR} x adb.timeoutMs)`, {
        details: {limitMs: ms},
        actions: ['Check the device and the link to it, or raise adb.timeoutMs in the config.'],
      })
      controller.abort(error)
      reject(error)
    }, ms)
    timer.unref()
  })
  try {
    return await Promise.race([work(controller.signal), expired])
  } finally {
    clearTimeout(timer)
  }
}
