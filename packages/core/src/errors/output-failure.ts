/**
 * A failed stdout or stderr, said once. The stream reports one error object twice: to the write that met it (a
 * command's own write path turns it into OUTPUT_FAILED and says it) and as the stream's 'error' event, which
 * bin/run.js says for the writes that have no path of their own (oclif's console writes swallow the throw).
 * Whichever meets the object first says it, the other stays silent. Kept on globalThis under a registered symbol:
 * bin/run.js reads the same set without loading core.
 */
const SAID = Symbol.for('arc.output-errors-said')

type SaidHolder = {[SAID]?: WeakSet<object>}

/** True for the first caller with this error object (it says it); false for any later one, and for non-objects. */
export function firstToSay(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const said = ((globalThis as SaidHolder)[SAID] ??= new WeakSet<object>())
  if (said.has(error)) return false
  said.add(error)
  return true
}
