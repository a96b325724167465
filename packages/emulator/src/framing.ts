import type {Socket} from 'node:net'

/** Thrown by SocketReader when the peer closed before the bytes asked for arrived. */
export class EndOfStream extends Error {
  constructor() {
    super('connection closed')
    this.name = 'EndOfStream'
  }
}

/**
 * Buffers a socket's incoming bytes so a protocol handler can `await read(n)` exact-length fields, then hand
 * the rest of the stream to a raw consumer (a shell's stdin) with `readSome()`.
 */
export class SocketReader {
  private chunks: Buffer[] = []
  private buffered = 0
  private ended = false
  private wake?: () => void

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk)
      this.buffered += chunk.length
      this.notify()
    })
    const finish = () => {
      this.ended = true
      this.notify()
    }
    socket.on('end', finish)
    socket.on('close', finish)
    socket.on('error', finish)
  }

  private notify(): void {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  private wait(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve
    })
  }

  /** Exactly `n` bytes; rejects with EndOfStream when the peer closes first. */
  async read(n: number): Promise<Buffer> {
    while (this.buffered < n) {
      if (this.ended) throw new EndOfStream()
      await this.wait()
    }
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)
    const out = all.subarray(0, n)
    const rest = all.subarray(n)
    this.chunks = rest.length > 0 ? [rest] : []
    this.buffered = rest.length
    return out
  }

  /** Whatever is buffered (waiting for at least one byte), or undefined at end of stream. */
  async readSome(): Promise<Buffer | undefined> {
    while (this.buffered === 0) {
      if (this.ended) return undefined
      await this.wait()
    }
    const out = Buffer.concat(this.chunks)
    this.chunks = []
    this.buffered = 0
    return out
  }
}

/** `XXXX` = the byte length of `payload` as 4 hex digits, then the payload: the smart-socket value encoding. */
export function encodeValue(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'latin1'), body])
}

export const OKAY = Buffer.from('OKAY', 'latin1')

/** `FAIL` + hex4 length + message, as the adb server reports an error. */
export function failReply(message: string): Buffer {
  return Buffer.concat([Buffer.from('FAIL', 'latin1'), encodeValue(message)])
}

/** `OKAY` + hex4 length + value, the reply of one-shot host queries (version, devices, features…). */
export function okayValue(value: string): Buffer {
  return Buffer.concat([OKAY, encodeValue(value)])
}

/** Reads one `hex4 + payload` request; undefined when the client closed cleanly between requests. */
export async function readRequest(reader: SocketReader): Promise<string | undefined> {
  let head: Buffer
  try {
    head = await reader.read(4)
  } catch (error) {
    if (error instanceof EndOfStream) return undefined
    throw error
  }
  const text = head.toString('latin1')
  if (!/^[0-9a-fA-F]{4}$/.test(text)) throw new ProtocolError(`bad request length ${JSON.stringify(text)}`)
  const length = Number.parseInt(text, 16)
  if (length === 0) throw new ProtocolError('bad size: empty request')
  return (await reader.read(length)).toString('utf8')
}

/** The client broke the framing; the connection is answered with FAIL and closed. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProtocolError'
  }
}

/** Writes and resolves once the bytes are handed to the kernel (or the socket is gone). */
export function writeAsync(socket: Socket, data: Buffer | string): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed || !socket.writable) return resolve()
    socket.write(data, () => resolve())
  })
}
