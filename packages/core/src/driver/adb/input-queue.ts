/**
 * Input actions on one device run one at a time within a process: when an MCP server serves several agents, or a
 * script fires taps concurrently, two `input swipe`s interleaving on the device would make a gesture nobody asked
 * for. Reads (dumps, screenshots, logs) are not queued.
 */
const tails = new Map<string, Promise<unknown>>()

/** Runs `action` after every action queued earlier for the same device key has settled. */
export function serialise<T>(key: string, action: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve()
  const run = previous.then(action, action)
  const tail = run.catch(() => undefined)
  tails.set(key, tail)
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key)
  })
  return run
}

/** How many devices have actions queued or running (for tests). */
export function queuedDevices(): number {
  return tails.size
}
