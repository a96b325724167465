/** A low-level MCP `Server` answering `tools/list` and `tools/call` from a ToolHost (cheap: one per HTTP request). */
import {z} from '@arc-cli/core'
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {Protocol, type RequestHandlerExtra} from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js'

import {kindOf} from './messages.js'
import type {ToolHost} from './tool-host.js'

export const SERVER_INFO = {name: 'arc', version: '0.1.0'}

/**
 * `tools/call` as the SDK's protocol layer checks it before the handler runs: only the method. The SDK's own schema
 * would refuse malformed params with -32603 and a raw validation dump; callParams refuses them with -32602 and a
 * sentence.
 */
const ANY_CALL = z.object({method: z.literal('tools/call'), params: z.unknown().optional()})

/**
 * A JSON-RPC error the SDK answers with as it is: its `code` and its message alone (McpError would prefix the message
 * with `MCP error <code>: `).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

/** A tool call's name and arguments, or -32602 saying what is wrong without echoing what was sent. */
export function callParams(params: unknown): {name: string; args: Record<string, unknown> | undefined} {
  const record = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>
  const {name, arguments: args} = record
  if (typeof name !== 'string' || name === '')
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: tools/call needs "name", a tool's name from tools/list (got ${name === '' ? 'an empty string' : kindOf(name)})`
    )
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: tools/call "arguments" must be an object of the tool's inputs by name (got ${kindOf(args)})`
    )
  return {name, args: args as Record<string, unknown> | undefined}
}

/**
 * Calls running over stateless HTTP, by MCP session and request id, so that a `notifications/cancelled` arriving in
 * a later POST (the SDK's HTTP client cancels that way, keeping the call's own connection open) reaches the call
 * it names. Only the session that made a call can name it: request ids repeat across clients, session ids do not.
 */
export class SessionCalls {
  private readonly calls = new Map<string, AbortController>()

  private static key(session: string, id: string | number): string {
    return `${session}\n${typeof id}:${id}`
  }

  /** A signal for the call that also aborts on its cancellation by id; `done` when it ends. */
  track(session: string, id: string | number, signal: AbortSignal): {signal: AbortSignal; done(): void} {
    const key = SessionCalls.key(session, id)
    // The same id twice at once in one session cannot be told apart: neither can be cancelled by id.
    if (this.calls.has(key)) return {signal, done: () => undefined}
    const controller = new AbortController()
    this.calls.set(key, controller)
    return {
      signal: AbortSignal.any([signal, controller.signal]),
      done: () => {
        if (this.calls.get(key) === controller) this.calls.delete(key)
      },
    }
  }

  /** Cancels the session's call with this id; false when there is none running. */
  cancel(session: string, id: string | number): boolean {
    const controller = this.calls.get(SessionCalls.key(session, id))
    controller?.abort()
    return controller !== undefined
  }

  get size(): number {
    return this.calls.size
  }
}

/**
 * A server for one transport at a time; the listing and the tools are shared. `session`: the one MCP session the
 * transport carries (stdio: its one client); without it, each call's session is the `Mcp-Session-Id` the HTTP
 * server issued at `initialize` and the client sends back (http-server.ts), or none. `calls`: where HTTP calls are
 * registered for cancellation by a later request.
 */
export function createMcpServer(host: ToolHost, session?: string, calls?: SessionCalls): Server {
  const server = new Server(SERVER_INFO, {capabilities: {tools: {}}, instructions: host.instructions})
  server.setRequestHandler(ListToolsRequestSchema, () => host.listing)
  // The SDK aborts extra.signal on notifications/cancelled (over stdio) and when the transport closes (the HTTP
  // server closes it when the client goes away); `calls` adds a cancellation sent in another HTTP request.
  const call = async (
    request: z.infer<typeof ANY_CALL>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>
  ): Promise<CallToolResult> => {
    const {name, args} = callParams(request.params)
    const header = extra.requestInfo?.headers['mcp-session-id']
    const given = session ?? extra.sessionId ?? (Array.isArray(header) ? header[0] : header)
    const tracked = calls && given !== undefined ? calls.track(given, extra.requestId, extra.signal) : undefined
    try {
      return await host.call(name, args, tracked?.signal ?? extra.signal, given)
    } finally {
      tracked?.done()
    }
  }
  // Past Server.setRequestHandler, whose wrapper for tools/call validates params with the SDK's schema first.
  Protocol.prototype.setRequestHandler.call(server, ANY_CALL, call as never)
  return server
}

/**
 * Servers for stateless HTTP: the SDK needs a fresh transport per request and a server connected to one transport
 * at a time, but building a server costs about 2 ms; a closed one connects again, so idle ones are kept.
 */
export class ServerPool {
  private readonly idle: Server[] = []
  /** Every call running through the pool's servers, for cancellation by session and id. */
  readonly calls = new SessionCalls()

  constructor(
    private readonly host: ToolHost,
    private readonly keep = 32
  ) {}

  take(): Server {
    return this.idle.pop() ?? createMcpServer(this.host, undefined, this.calls)
  }

  /** Back to the pool once closed (its transport gone). */
  give(server: Server): void {
    if (this.idle.length < this.keep) this.idle.push(server)
  }
}
