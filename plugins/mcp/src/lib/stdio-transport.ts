/**
 * MCP over stdio: one JSON-RPC message per line. The SDK's StdioServerTransport closes the session on a line over its
 * fixed 10 MiB buffer and drops, unanswered, every line it cannot parse or validate; this one answers them all:
 *
 * - a line over `maxBytes` (`--max-body`, the HTTP body limit too) is skipped to its end without being kept, and
 *   answered with a JSON-RPC error carrying its id when its first bytes name one; the session goes on;
 * - a line that is not JSON gets -32700, one that is no JSON-RPC message -32600, params that are no object -32602
 *   (messages.ts), with the id where there is one;
 * - a batch (an array: MCP removed JSON-RPC batching in 2025-06-18) gets an array of errors, one per request in it.
 */
import type {Readable, Writable} from 'node:stream'

import {ErrorCode, type JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'

import {checkMessage, idFromHead, idOf, rpcError, tooLarge, type RpcErrorResponse} from './messages.js'

const NEWLINE = 0x0a
/** How much of an oversized line is kept to find its id. */
const HEAD_BYTES = 1024

export interface LineTransportOptions {
  /** Largest line accepted, in bytes (without its newline). */
  maxBytes: number
  /** Where refusals are noted (the server's stderr); never with the message's content. */
  log?(message: string): void
}

export class LineTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  private chunks: Buffer[] = []
  private size = 0
  /** Bytes of the current line while it is being skipped (over the limit); 0 otherwise. */
  private skipped = 0
  private head = ''
  private started = false

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions
  ) {}

  start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started')
    this.started = true
    this.input.on('data', this.ondata)
    this.input.on('error', this.oninputError)
    return Promise.resolve()
  }

  private readonly oninputError = (error: Error) => this.onerror?.(error)

  private readonly ondata = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let at = 0
    while (at < data.length) {
      const newline = data.indexOf(NEWLINE, at)
      const piece = data.subarray(at, newline === -1 ? data.length : newline)
      this.take(piece)
      if (newline === -1) break
      this.endLine()
      at = newline + 1
    }
  }

  /** Adds part of the current line: kept while within the limit, else counted and dropped. */
  private take(piece: Buffer): void {
    if (this.skipped > 0) {
      this.skipped += piece.length
      return
    }
    if (this.size + piece.length <= this.options.maxBytes) {
      this.chunks.push(piece)
      this.size += piece.length
      return
    }
    this.head = Buffer.concat([...this.chunks, piece.subarray(0, HEAD_BYTES)])
      .subarray(0, HEAD_BYTES)
      .toString('utf8')
    this.skipped = this.size + piece.length
    this.chunks = []
    this.size = 0
  }

  private endLine(): void {
    if (this.skipped > 0) {
      const size = this.skipped
      this.skipped = 0
      this.options.log?.(`refused a message of ${size} bytes: over the limit of ${this.options.maxBytes} (--max-body)`)
      this.reply(tooLarge(idFromHead(this.head), size, this.options.maxBytes))
      this.head = ''
      return
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '')
    this.chunks = []
    this.size = 0
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      this.reply(rpcError(null, ErrorCode.ParseError, 'Parse error: not JSON'))
      return
    }
    if (Array.isArray(value)) {
      this.refuseBatch(value)
      return
    }
    const checked = checkMessage(value)
    if ('message' in checked) {
      this.onmessage?.(checked.message)
      return
    }
    this.options.log?.(`refused a message: ${checked.error.error.message}`)
    if (checked.answer) this.reply(checked.error)
  }

  private refuseBatch(batch: unknown[]): void {
    const message =
      'Invalid Request: JSON-RPC batches are not supported over stdio (MCP removed them in 2025-06-18); send one message per line'
    this.options.log?.('refused a JSON-RPC batch')
    const requests = batch.filter((m) => idOf(m) !== null)
    if (requests.length === 0) {
      this.reply(rpcError(null, ErrorCode.InvalidRequest, message))
      return
    }
    this.reply(requests.map((m) => rpcError(idOf(m), ErrorCode.InvalidRequest, message)))
  }

  private reply(message: RpcErrorResponse | RpcErrorResponse[]): void {
    this.write(`${JSON.stringify(message)}\n`).catch((error: unknown) => this.onerror?.(error as Error))
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(text, (error?: Error | null) => (error ? reject(error) : resolve()))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`)
  }

  close(): Promise<void> {
    this.input.off('data', this.ondata)
    this.input.off('error', this.oninputError)
    if (this.input.listenerCount('data') === 0) this.input.pause()
    this.chunks = []
    this.size = 0
    this.onclose?.()
    return Promise.resolve()
  }
}
