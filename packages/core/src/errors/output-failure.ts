/**
 * A failed stdout or stderr, said once. The stream reports one error object twice: to the write that met it (a
 * command's own write path turns it into OUTPUT_FAILED and says it) and as the stream's 'error' event, which
 * bin/main.js says for the writes that have no path of their own (oclif's console writes swallow the throw).
 * Whichever meets the object first says it, the other stays silent. Kept on globalThis under a registered symbol:
 * bin/main.js reads the same set without loading core.
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

/**
 * For a command that serves until stopped (`arc server`, `arc emulate`, `arc mcp serve`): its stdout and stderr carry
 * a log, or a channel whose peer's end shows elsewhere (MCP over stdio ends with its stdin), so a write error on them
 * drops what was written instead of ending the process, and with it the devices, sessions or commands it serves
 * (bin/main.js ends a one-shot command there: OUTPUT_FAILED). A reader that goes away (`arc emulate … | grep -m1
 * listening`) leaves it serving.
 */
export function serveDespiteOutputErrors(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.removeAllListeners('error')
    stream.on('error', () => undefined)
  }
}
