/**
 * An MCP client as agents run one: the SDK's own, over Streamable HTTP with the server's bearer token. For every
 * suite that talks to `arc mcp serve` over HTTP (plugins/mcp's and the root's tool suites).
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'

export async function connectMcp(url: string, token: string): Promise<Client> {
  const client = new Client({name: 'arc-test', version: '0.0.0'})
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {requestInit: {headers: {Authorization: `Bearer ${token}`}}})
  )
  return client
}
