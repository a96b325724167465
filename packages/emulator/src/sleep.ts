/**
 * Waits `ms`, or less if the signal aborts. The abort listener goes when the wait ends either way: a program that
 * lives long on one signal (the helper's session, waiting between requests) would otherwise gather one per wait.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, {once: true})
  })
}
