/**
 * What `arc test` keeps of a step's stdout and stderr for its report: the first and the last KEPT_CHARS characters,
 * never the whole. The report reads only a step's first lines of stdout and the `Error` lines at the end of its
 * stderr, and a step may write hundreds of megabytes (`files pull … -o -`): kept whole, that much memory went to a
 * copy nobody reads, and past V8's longest string (about 512 MB) the step failed. Binary chunks are decoded only in
 * the parts kept; terminal control sequences are dropped (the copy goes into files).
 */
export const KEPT_CHARS = 64 * 1024

/** A terminal control sequence (colours, erasing a line): ESC [ parameters, intermediates, a final byte. */
const CSI = /\u001B\[[0-?]*[ -/]*[@-~]/g

export class KeptOutput {
  private head = ''
  private tail = ''
  private dropped = false

  add(chunk: string | Uint8Array): void {
    const size = typeof chunk === 'string' ? chunk.length : chunk.byteLength
    const part = (start: number, end: number) =>
      typeof chunk === 'string'
        ? chunk.slice(start, end)
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8', start, end)
    let from = 0
    if (this.head.length < KEPT_CHARS) {
      from = Math.min(size, KEPT_CHARS - this.head.length)
      this.head += part(0, from)
    }
    if (from >= size) return
    if (size - from > KEPT_CHARS) {
      this.dropped = true
      from = size - KEPT_CHARS
    }
    this.tail += part(from, size)
    if (this.tail.length > KEPT_CHARS) {
      this.dropped = true
      this.tail = this.tail.slice(-KEPT_CHARS)
    }
  }

  /** The kept text, plain: the head, a line saying what was left out where anything was, and the tail. */
  text(): string {
    return (this.head + (this.dropped ? '\n[… output left out …]\n' : '') + this.tail).replace(CSI, '')
  }
}
