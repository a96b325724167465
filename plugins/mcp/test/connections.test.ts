/**
 * A stranger who can reach the port but holds no token must not starve the client that holds it: connections that
 * have not yet sent a request with the token are few (the oldest goes past the limit, answered 503) and short-lived
 * (408 when their headers take too long, a slowloris trickling them), and a refusal closes its connection. The
 * client with the token gets in meanwhile, and its long calls are never cut off.
 */
import {connect as netConnect, type Socket} from 'node:net'

import type {StartedHttp} from '@arc-cli/plugin-mcp'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {LIST, raw, startServer, TOKEN} from './support.js'

/** A connection that starts a request and never finishes its headers; what it receives, and whether it closed. */
interface Trickler {
  socket: Socket
  received(): string
  closed: Promise<void>
  isClosed(): boolean
}

function trickle(server: StartedHttp): Promise<Trickler> {
  return new Promise((resolve, reject) => {
    let text = ''
    let gone = false
    const socket = netConnect(server.port, '127.0.0.1')
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('error', () => undefined)
    const closed = new Promise<void>((done) => socket.once('close', () => ((gone = true), done())))
    socket.once('error', reject)
    socket.once('connect', () => {
      socket.off('error', reject)
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: a`)
      resolve({socket, received: () => text, closed, isClosed: () => gone})
    })
  })
}

/** Resolves once the server has accepted `count` connections in all. */
async function accepted(server: StartedHttp, count: number): Promise<void> {
  for (;;) {
    const open = await new Promise<number>((resolve, reject) =>
      server.server.getConnections((error, n) => (error ? reject(error) : resolve(n)))
    )
    if (open >= count) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Whether `closed` settles before `ms`: a bound for the old code, whose connections stayed open. */
const closesWithin = (closed: Promise<void>, ms: number) =>
  Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))])

describe('arc mcp serve over HTTP: connections without the token', function () {
  this.timeout(30_000)

  it('past the limit of connections waiting to send a request, the oldest is answered 503 and closed; the client with the token gets in', async () => {
    const server = await startServer({waiting: {max: 3, ms: 60_000}})
    const held: Trickler[] = []
    try {
      for (let i = 0; i < 3; i++) {
        held.push(await trickle(server))
        await accepted(server, i + 1)
      }
      const fourth = await trickle(server)
      held.push(fourth)
      await accepted(server, 4)
      expect(await closesWithin(held[0]!.closed, 5000), 'the oldest is closed').to.equal(true)
      expect(held[0]!.received()).to.match(/^HTTP\/1\.1 503 /)
      expect(held[0]!.received()).to.match(/retry-after: 1/i)
      expect(held.slice(1).map((t) => t.isClosed())).to.deep.equal([false, false, false])
      // While three strangers hold their connections, the client with the token is served.
      const listed = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST})
      expect(listed.status).to.equal(200)
    } finally {
      for (const t of held) t.socket.destroy()
      await server.close()
    }
  })

  it('a connection whose headers do not arrive in time is answered 408 and closed; a long call with the token is not cut off', async () => {
    const server = await startServer({waiting: {max: 64, ms: 300}})
    try {
      const slow = await trickle(server)
      // Trickled: a byte now and then does not keep it open.
      slow.socket.write('b')
      expect(await closesWithin(slow.closed, 5000), 'closed').to.equal(true)
      expect(slow.received()).to.match(/^HTTP\/1\.1 408 /)
      // A call that outlasts the header time many times over, on a connection that sent the token.
      const answer = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`},
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'android_wait_for_element',
            arguments: {by: 'text', value: 'no-such-element-anywhere', timeout: 1500},
          },
        }),
      })
      expect(answer.status).to.equal(200)
      const result = (JSON.parse(answer.body) as {result: CallToolResult}).result
      expect(result.isError ?? false).to.equal(false)
      expect(result.structuredContent).to.include({found: false})
    } finally {
      await server.close()
    }
  })

  it('a request refused before the token (401, 403, 404) closes its connection', async () => {
    const server = await startServer()
    try {
      const refused = [
        await raw(server.url, {body: LIST}),
        await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example'}, body: LIST}),
        await raw(server.url.replace('/mcp', '/other'), {body: LIST}),
      ]
      expect(refused.map((r) => r.status)).to.deep.equal([401, 403, 404])
      for (const r of refused) expect(r.headers.connection, String(r.status)).to.equal('close')
      // Served with the token, the connection stays open for the next request.
      const ok = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST})
      expect(ok.headers.connection).to.not.equal('close')
    } finally {
      await server.close()
    }
  })
})
