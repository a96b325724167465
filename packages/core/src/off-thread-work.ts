/**
 * Whether CPU-heavy tool work (an annotated screenshot's decode, label placement, drawing and encoding) runs on a
 * worker thread. A long-lived server (`arc mcp serve`) turns it on, so its event loop keeps answering other
 * requests while an image is made; a one-shot command leaves it off, as a worker would only add its start-up to
 * the one call. The result is the same either way: this says where the work runs, never what it does.
 *
 * Kept on globalThis, as the device section is, so every copy of this module in a process agrees.
 */
const KEY = Symbol.for('arc.offThreadWork')

type Holder = {[KEY]?: boolean}

export function setOffThreadWork(on: boolean): void {
  ;(globalThis as Holder)[KEY] = on
}

export function offThreadWork(): boolean {
  return (globalThis as Holder)[KEY] === true
}
