/**
 * What a caller remembers of a device is its own: the `changes` baseline is kept per MCP session (the
 * Mcp-Session-Id issued at `initialize` over HTTP; the one client of a stdio server), so a client's first read is
 * never "unchanged" about a screen it never saw, whatever other clients read before.
 */
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {buildHost, type ToolHost} from '@arc-cli/plugin-mcp'

import {allTools, connect, raw, ROOT, startServer, TOKEN} from './support.js'

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text
const ack = (client: Client) =>
  client.callTool({
    name: 'android_get_screen_state',
    arguments: {changes: 'ack', detail: 'compact'},
  }) as Promise<CallToolResult>
const UNCHANGED = /^unchanged since last read \(screen [0-9a-f]{12}\)$/

describe('arc mcp serve: the changes baseline belongs to one MCP session', function () {
  this.timeout(60_000)

  it('over HTTP each client (its Mcp-Session-Id) has its own: a new client is never told "unchanged" first', async () => {
    const server = await startServer()
    try {
      const a = await connect(server.url)
      const sessionA = (a.transport as StreamableHTTPClientTransport).sessionId
      expect(sessionA).to.be.a('string').with.length.greaterThan(0)
      expect(textOf(await ack(a))).to.not.match(UNCHANGED)
      expect(textOf(await ack(a))).to.match(UNCHANGED)
      const b = await connect(server.url)
      expect((b.transport as StreamableHTTPClientTransport).sessionId).to.not.equal(sessionA)
      expect(textOf(await ack(b))).to.not.match(UNCHANGED)
      expect(textOf(await ack(b))).to.match(UNCHANGED)
      expect(textOf(await ack(a))).to.match(UNCHANGED)
      await a.close()
      await b.close()
    } finally {
      await server.close()
    }
  })

  it('over HTTP a call that carries no session id has no baseline: never "unchanged"', async () => {
    const server = await startServer()
    try {
      const call = (id: number) =>
        raw(server.url, {
          headers: {authorization: `Bearer ${TOKEN}`},
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {name: 'android_get_screen_state', arguments: {changes: 'ack'}},
          }),
        })
      for (const id of [1, 2]) {
        const answer = await call(id)
        expect(answer.status).to.equal(200)
        const text = (JSON.parse(answer.body) as {result: CallToolResult}).result.content[0] as {text: string}
        expect(text.text, `call ${id}`).to.not.match(UNCHANGED)
      }
    } finally {
      await server.close()
    }
  })

  // MCP spec, Streamable HTTP, "Session Management": a server answers a request carrying a session id it does not
  // know (never issued, or ended) with 404, and the client then starts a new session with a fresh initialize.
  it('over HTTP a session id the server never issued, or one ended with DELETE, gets 404 and reaches no session', async () => {
    const server = await startServer()
    try {
      const a = await connect(server.url)
      const transport = a.transport as StreamableHTTPClientTransport
      const sessionA = transport.sessionId!
      expect(textOf(await ack(a))).to.not.match(UNCHANGED)
      const call = (session: string | undefined) =>
        raw(server.url, {
          headers: {authorization: `Bearer ${TOKEN}`, 'mcp-session-id': session},
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: {name: 'android_get_screen_state', arguments: {changes: 'ack', detail: 'compact'}},
          }),
        })
      for (const made of ['made-up', `${sessionA}x`, sessionA.toUpperCase(), '']) {
        const answer = await call(made)
        expect(answer.status, JSON.stringify(made)).to.equal(404)
        const {error} = JSON.parse(answer.body) as {error: {code: number; message: string}}
        expect(error.code).to.equal(-32001)
        expect(error.message)
          .to.match(/Session not found/)
          .and.match(/initialize/)
      }
      // The issued one is its session: its baseline is there.
      const own = await call(sessionA)
      expect(own.status).to.equal(200)
      const ownText = ((JSON.parse(own.body) as {result: CallToolResult}).result.content[0] as {text: string}).text
      expect(ownText).to.match(UNCHANGED)
      // A DELETE of an id never issued is 404 too, and ends nothing.
      expect(
        (
          await raw(server.url, {
            method: 'DELETE',
            headers: {authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'made-up'},
          })
        ).status
      ).to.equal(404)
      // The SDK client ends its session with DELETE: the id is then unknown, and a new initialize starts afresh.
      await transport.terminateSession()
      expect((await call(sessionA)).status).to.equal(404)
      const b = await connect(server.url)
      expect(textOf(await ack(b))).to.not.match(UNCHANGED)
      await a.close()
      await b.close()
    } finally {
      await server.close()
    }
  })

  it('over stdio the one client is one session: its second read is "unchanged"', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=arc-source',
        path.join(ROOT, 'bin', 'dev.js'),
        'mcp',
        'serve',
        '--stdio',
        '--device',
        'demo',
      ],
      cwd: ROOT,
      env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', NO_COLOR: '1'},
      stderr: 'pipe',
    })
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      expect(textOf(await ack(client))).to.not.match(UNCHANGED)
      expect(textOf(await ack(client))).to.match(UNCHANGED)
    } finally {
      await client.close()
    }
  })

  // A session whose records were dropped would have its clicks checked against the device's record, the last read by
  // any client: another client's "Following" would make this session's "Follow" id act. So it ends (404) instead.
  it('over HTTP a session dropped to keep within the memory budget is ended: its next request gets 404', async () => {
    const tools = await allTools()
    const probe = buildHost({tools, config: {}, devices: ['demo']})
    await probe.call('android_get_screen_state', {changes: 'ack', detail: 'compact'}, undefined, 'one')
    const server = await startServer({sessionBytes: Math.floor(probe.sessionBytes() * 1.5)})
    try {
      const a = await connect(server.url)
      expect(textOf(await ack(a))).to.not.match(UNCHANGED)
      const b = await connect(server.url)
      expect(textOf(await ack(b))).to.not.match(UNCHANGED)
      // Two sessions' records are over the budget: the older, a's, went.
      const sessionA = (a.transport as StreamableHTTPClientTransport).sessionId!
      const answer = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sessionA},
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: {name: 'android_get_screen_state', arguments: {changes: 'ack', detail: 'compact'}},
        }),
      })
      expect(answer.status).to.equal(404)
      expect(textOf(await ack(b))).to.match(UNCHANGED)
      await b.close()
      await a.close()
    } finally {
      await server.close()
    }
  })

  // Each session keeps its own records and baseline per device: some 120 KB after one read of a 200-element screen
  // (measured), so 1,000 sessions of a long-running server (one per agent run) held hundreds of MB.
  it('keeps the most recent sessions within a memory budget: an older one over it starts afresh', async () => {
    const tools = await allTools()
    const read = (host: ToolHost, session: string) =>
      host.call('android_get_screen_state', {changes: 'ack', detail: 'compact'}, undefined, session)
    const probe = buildHost({tools, config: {}, devices: ['demo']})
    await read(probe, 'one')
    const one = probe.sessionBytes()
    expect(one).to.be.greaterThan(0)
    const host = buildHost({tools, config: {}, devices: ['demo'], sessionBytes: Math.floor(one * 3.5)})
    for (let i = 0; i < 10; i++) expect(textOf(await read(host, `s${i}`))).to.not.match(UNCHANGED)
    expect(host.sessionBytes()).to.be.at.most(Math.floor(one * 3.5))
    // The three most recent kept their baseline; the first was dropped, so its next read is a whole screen.
    for (const session of ['s9', 's8', 's7']) expect(textOf(await read(host, session)), session).to.match(UNCHANGED)
    expect(textOf(await read(host, 's0'))).to.not.match(UNCHANGED)
  })
})
