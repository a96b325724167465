/**
 * Checks on what a client sends, before the MCP SDK sees it, so that every malformed message gets a JSON-RPC error
 * with a short message (and its id where it has one) instead of silence, a closed session or a raw validation dump.
 * Both transports use them: stdio (stdio-transport.ts) and HTTP (http-server.ts).
 */
import {ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

export type RpcId = string | number | null

export interface RpcErrorResponse {
  jsonrpc: '2.0'
  id: RpcId
  error: {code: number; message: string}
}

export function rpcError(id: RpcId, code: number, message: string): RpcErrorResponse {
  return {jsonrpc: '2.0', id, error: {code, message}}
}

/** What a value is, for a message that must not echo it (it may be huge, or a secret). */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The id of a message when it has a usable one (a string or a whole number), else null. */
export function idOf(value: unknown): RpcId {
  if (!isRecord(value)) return null
  const {id} = value
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null
}

export type Checked =
  | {message: JSONRPCMessage}
  /** `answer` false: a notification (no id), which JSON-RPC never answers, even when it is malformed. */
  | {error: RpcErrorResponse; answer: boolean}

/** One parsed JSON value as a JSON-RPC message, or the error that answers it. */
export function checkMessage(value: unknown): Checked {
  const id = idOf(value)
  const refuse = (code: number, message: string): Checked => ({
    error: rpcError(id, code, message),
    answer: !(isRecord(value) && typeof value.method === 'string' && !('id' in value)),
  })
  if (!isRecord(value))
    return refuse(ErrorCode.InvalidRequest, `Invalid Request: a JSON-RPC message is an object (got ${kindOf(value)})`)
  if (value.jsonrpc !== '2.0') return refuse(ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"')
  if ('method' in value) {
    if (typeof value.method !== 'string')
      return refuse(
        ErrorCode.InvalidRequest,
        `Invalid Request: "method" must be a string (got ${kindOf(value.method)})`
      )
    // JSON-RPC also allows an array; MCP's params are always an object.
    if ('params' in value && !isRecord(value.params))
      return refuse(ErrorCode.InvalidParams, `Invalid params: params must be an object (got ${kindOf(value.params)})`)
  }
  if ('id' in value && id === null && value.id !== null)
    return refuse(ErrorCode.InvalidRequest, `Invalid Request: "id" must be a string or an integer`)
  const parsed = JSONRPCMessageSchema.safeParse(value)
  if (!parsed.success)
    return refuse(ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC request, notification or response')
  return {message: parsed.data}
}

/**
 * The id of an oversized message from its first bytes, so its error can be matched to the request: the top-level
 * `"id"` before `"params"`, read only where nothing nested comes before it (a key inside params is never taken).
 */
export function idFromHead(head: string): RpcId {
  const params = head.indexOf('"params"')
  const before = params === -1 ? head : head.slice(0, params)
  if (!before.trimStart().startsWith('{') || /[[{]/.test(before.trimStart().slice(1))) return null
  const match = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")/.exec(before)
  if (!match) return null
  try {
    return JSON.parse(match[1] as string) as string | number
  } catch {
    return null
  }
}

/** `16,777,216` */
export const bytes = (n: number) => n.toLocaleString('en-US')

export function tooLarge(id: RpcId, size: number | undefined, limit: number): RpcErrorResponse {
  const what = size === undefined ? 'The message is' : `The message (${bytes(size)} bytes) is`
  return rpcError(
    id,
    ErrorCode.InvalidRequest,
    `${what} larger than the limit of ${bytes(limit)} bytes (--max-body or mcp.maxBodyBytes); nothing of it was run`
  )
}
