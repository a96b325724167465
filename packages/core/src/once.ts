/**
 * A value made on its first use, then kept. The core's bundle runs each of its modules at every start-up, so a zod
 * schema built at a module's top (an object for each `.optional()`, `.min()`, `.describe()`…) was paid by `arc
 * --version`, and by every command that never reads a config file or a snapshot's meta.json, for nothing.
 */
export function once<T>(make: () => T): () => T {
  let made = false
  let value: T | undefined
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value as T
  }
}
