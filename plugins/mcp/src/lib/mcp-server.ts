/** A low-level MCP `Server` answering `tools/list` and `tools/call` from a ToolHost (cheap: one per HTTP request). */
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js'

import type {ToolHost} from './tool-host.js'

export const SERVER_INFO = {name: 'arc', version: '0.1.0'}

/**
 * A server for one transport at a time; the listing and the tools are shared. `session`: the one MCP session the
 * transport carries (stdio: its one client); without it, each call's session is the `Mcp-Session-Id` the HTTP
 * server issued at `initialize` and the client sends back (http-server.ts), or none.
 */
export function createMcpServer(host: ToolHost, session?: string): Server {
  const server = new Server(SERVER_INFO, {capabilities: {tools: {}}, instructions: host.instructions})
  server.setRequestHandler(ListToolsRequestSchema, () => host.listing)
  // The SDK aborts extra.signal on notifications/cancelled and when the transport closes (the HTTP server closes
  // it when the client goes away), so both cancel the call.
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const header = extra.requestInfo?.headers['mcp-session-id']
    const given = session ?? extra.sessionId ?? (Array.isArray(header) ? header[0] : header)
    return host.call(request.params.name, request.params.arguments, extra.signal, given)
  })
  return server
}

/**
 * Servers for stateless HTTP: the SDK needs a fresh transport per request and a server connected to one transport
 * at a time, but building a server costs about 2 ms; a closed one connects again, so idle ones are kept.
 */
export class ServerPool {
  private readonly idle: Server[] = []

  constructor(
    private readonly host: ToolHost,
    private readonly keep = 32
  ) {}

  take(): Server {
    return this.idle.pop() ?? createMcpServer(this.host)
  }

  /** Back to the pool once closed (its transport gone). */
  give(server: Server): void {
    if (this.idle.length < this.keep) this.idle.push(server)
  }
}
