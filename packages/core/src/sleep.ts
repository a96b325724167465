/**
 * A pause that a signal can cut short, shared by the tools that wait between device calls (wait, type).
 *
 * Resolves after `ms`, or rejects with the abort reason when `signal` aborts first; `cancel` (when given) ends the
 * wait early without settling it. The timer and the abort listener go either way: nothing is left to keep the
 * process alive or to pile up on a signal that a long wait hands to many sleeps.
 */
export function sleep(ms: number, signal?: AbortSignal, cancel?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const end = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      cancel?.removeEventListener('abort', end)
    }
    const onAbort = () => {
      end()
      reject(signal?.reason)
    }
    const timer = setTimeout(
      () => {
        end()
        resolve()
      },
      Math.max(0, ms)
    )
    signal?.addEventListener('abort', onAbort, {once: true})
    cancel?.addEventListener('abort', end, {once: true})
  })
}
