/** A low-level MCP `Server` answering `tools/list` and `tools/call` from a ToolHost (cheap: one per HTTP request). */
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {CallToolRequestSchema, ListToolsRequestSchema} from '@modelcontextprotocol/sdk/types.js'

import type {ToolHost} from './tool-host.js'

export const SERVER_INFO = {name: 'arc', version: '0.1.0'}

/** A fresh server for one transport; the listing and the tools are shared. */
export function createMcpServer(host: ToolHost, signal?: AbortSignal): Server {
  const server = new Server(SERVER_INFO, {capabilities: {tools: {}}})
  server.setRequestHandler(ListToolsRequestSchema, () => host.listing)
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // The SDK aborts extra.signal on notifications/cancelled and when the transport closes; `signal` is the
    // HTTP request's own (the client went away).
    const signals = signal ? [extra.signal, signal] : [extra.signal]
    return host.call(request.params.name, request.params.arguments, AbortSignal.any(signals))
  })
  return server
}
