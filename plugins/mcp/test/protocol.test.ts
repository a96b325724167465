/**
 * What a client that breaks the protocol gets: an answer, never silence or a dead session. Over stdio through a raw
 * pipe to a spawned `arc mcp serve --stdio` (what the SDK client would never send), over HTTP through raw requests
 * and sockets.
 */
import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {connect as connectSocket} from 'node:net'
import path from 'node:path'

import {expect} from 'chai'

import {connect, LIST, raw, ROOT, startServer, TOKEN} from './support.js'

interface Reply {
  jsonrpc: string
  id: string | number | null
  result?: {content?: Array<{text: string}>; isError?: boolean; tools?: unknown[]}
  error?: {code: number; message: string}
}

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'pipe', version: '0'}},
}

/** A spawned stdio server read line by line: `send` writes one line, `next` takes the next answer. */
class StdioPipe {
  readonly child: ChildProcessWithoutNullStreams
  stderr = ''
  private buffered = ''
  private readonly lines: string[] = []
  private waiting?: () => void
  readonly exited: Promise<number | null>

  constructor(args: string[]) {
    this.child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'mcp', 'serve', '--stdio', ...args],
      {cwd: ROOT, env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'}}
    )
    this.exited = new Promise((resolve) => this.child.once('exit', resolve))
    void this.exited.then(() => this.waiting?.())
    this.child.stdin.on('error', () => undefined)
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()))
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffered += d.toString()
      let nl: number
      while ((nl = this.buffered.indexOf('\n')) !== -1) {
        this.lines.push(this.buffered.slice(0, nl))
        this.buffered = this.buffered.slice(nl + 1)
      }
      this.waiting?.()
    })
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`)
  }

  /** The next line the server wrote, parsed; fails when the server exits first. */
  async next(): Promise<Reply | Reply[]> {
    while (this.lines.length === 0) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`the server exited (${this.child.exitCode}) without answering; stderr:\n${this.stderr}`)
      await new Promise<void>((resolve) => (this.waiting = resolve))
    }
    return JSON.parse(this.lines.shift() as string) as Reply | Reply[]
  }

  async close(): Promise<number | null> {
    this.child.stdin.end()
    return this.exited
  }
}

const call = (id: number, params: unknown) => ({jsonrpc: '2.0', id, method: 'tools/call', params})

describe('arc mcp serve: protocol errors get answers', function () {
  this.timeout(120_000)

  describe('over stdio (a raw pipe)', () => {
    let pipe: StdioPipe
    before(async () => {
      pipe = new StdioPipe(['--device', 'demo'])
      pipe.send(INIT)
      expect(((await pipe.next()) as Reply).id).to.equal(0)
      pipe.send({jsonrpc: '2.0', method: 'notifications/initialized'})
    })
    after(async () => {
      expect(await pipe.close(), pipe.stderr).to.equal(0)
      // One line per call on stderr, never with an argument's value.
      expect(pipe.stderr).to.match(/^arc mcp: call android_write_file device=demo \d+ ms error DEVICE_READ_ONLY$/m)
      expect(pipe.stderr).to.not.include('xxxxxxxx')
    })

    it('answers a message of 10 MiB and more (under --max-body, 16 MiB by default) and the session goes on', async () => {
      // Read-only demo: the write is refused by the tool, but the message itself is read whole and answered.
      const content = 'x'.repeat(10.5 * 1024 * 1024)
      pipe.send(call(1, {name: 'android_write_file', arguments: {location_id: 'downloads', path: 'a.txt', content}}))
      const reply = (await pipe.next()) as Reply
      expect(reply.id).to.equal(1)
      expect(reply.result?.isError).to.equal(true)
      expect(reply.result?.content?.[0]?.text).to.not.include('xxxxxxxxxxxxxxxx')
      pipe.send({jsonrpc: '2.0', id: 2, method: 'tools/list'})
      expect(((await pipe.next()) as Reply).result?.tools).to.be.an('array').that.is.not.empty
    })

    it('refuses a message over --max-body with a JSON-RPC error naming the limit, its id, and goes on', async () => {
      const content = 'y'.repeat(17 * 1024 * 1024)
      pipe.send(call(3, {name: 'android_write_file', arguments: {location_id: 'downloads', path: 'a.txt', content}}))
      const reply = (await pipe.next()) as Reply
      expect(reply.id).to.equal(3)
      expect(reply.error?.code).to.equal(-32600)
      expect(reply.error?.message).to.match(/larger than the limit of 16,777,216 bytes.*--max-body/)
      expect(reply.error?.message.length).to.be.below(300)
      pipe.send({jsonrpc: '2.0', id: 4, method: 'tools/list'})
      expect(((await pipe.next()) as Reply).id).to.equal(4)
    })

    it('answers a request whose params are a string with -32602 and its id', async () => {
      pipe.send({jsonrpc: '2.0', id: 5, method: 'tools/call', params: 'android_tap'})
      const reply = (await pipe.next()) as Reply
      expect(reply).to.deep.equal({
        jsonrpc: '2.0',
        id: 5,
        error: {code: -32602, message: 'Invalid params: params must be an object (got a string)'},
      })
    })

    it('answers a JSON-RPC batch with an error for each of its requests (MCP has no batches since 2025-06-18)', async () => {
      pipe.send([
        {jsonrpc: '2.0', id: 6, method: 'tools/list'},
        {jsonrpc: '2.0', method: 'notifications/initialized'},
        {jsonrpc: '2.0', id: 7, method: 'tools/list'},
      ])
      const reply = (await pipe.next()) as Reply[]
      expect(reply.map((r) => r.id)).to.deep.equal([6, 7])
      for (const r of reply) {
        expect(r.error?.code).to.equal(-32600)
        expect(r.error?.message).to.match(/batch/)
      }
    })

    it('answers a line that is not JSON, or not a JSON-RPC message, with an error of id null', async () => {
      pipe.send('{"jsonrpc":"2.0","id":8,')
      expect(await pipe.next()).to.deep.include({id: null, error: {code: -32700, message: 'Parse error: not JSON'}})
      pipe.send('"hello"')
      const reply = (await pipe.next()) as Reply
      expect(reply.id).to.equal(null)
      expect(reply.error?.code).to.equal(-32600)
    })

    it('answers malformed tools/call params with -32602 and a short message', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [
          {name: 'android_tap', arguments: 'x=1'},
          /^Invalid params: tools\/call "arguments" must be an object .*\(got a string\)$/,
        ],
        [{name: 'android_tap', arguments: [1, 2]}, /\(got an array\)$/],
        [{arguments: {x: 1}}, /^Invalid params: tools\/call needs "name".*\(got nothing\)$/],
        [{name: 42}, /\(got a number\)$/],
      ]
      let id = 10
      for (const [params, message] of cases) {
        pipe.send(call(++id, params))
        const reply = (await pipe.next()) as Reply
        expect(reply.id).to.equal(id)
        expect(reply.error?.code, JSON.stringify(reply)).to.equal(-32602)
        expect(reply.error?.message).to.match(message)
        expect(reply.error?.message.length).to.be.below(200)
      }
    })
  })

  it('over stdio --max-body sets the line limit (the same flag as the HTTP body limit)', async () => {
    const small = new StdioPipe(['--device', 'demo', '--max-body', '2048'])
    try {
      small.send(INIT)
      expect(((await small.next()) as Reply).id).to.equal(0)
      small.send({jsonrpc: '2.0', id: 'big', method: 'tools/list', params: {pad: 'p'.repeat(3000)}})
      const reply = (await small.next()) as Reply
      expect(reply.id).to.equal('big')
      expect(reply.error?.message).to.match(/^The message \(3,\d{3} bytes\) is larger than the limit of 2,048 bytes/)
      small.send({jsonrpc: '2.0', id: 'small', method: 'tools/list'})
      expect(((await small.next()) as Reply).id).to.equal('small')
    } finally {
      expect(await small.close(), small.stderr).to.equal(0)
    }
    expect(small.stderr).to.match(
      /^arc mcp: refused a message of 3,?\d{3} bytes: over the limit of 2048 \(--max-body\)$/m
    )
  })

  describe('over HTTP', () => {
    const auth = {authorization: `Bearer ${TOKEN}`}

    it('logs one line per call: tool, device, milliseconds, ok or the error code; never an argument', async () => {
      const logs: string[] = []
      const server = await startServer({log: (m) => logs.push(m)})
      try {
        const client = await connect(server.url)
        await client.callTool({name: 'android_get_screen_state', arguments: {detail: 'compact'}})
        await client.callTool({name: 'android_type_append_text', arguments: {element_id: 'node_a', text: 'hunter2'}})
        await client.callTool({name: 'android_no_such_tool_hunter2', arguments: {}})
        await client.close()
        const calls = logs.filter((l) => l.startsWith('call '))
        expect(calls).to.have.length(3)
        expect(calls[0]).to.match(/^call android_get_screen_state device=demo \d+ ms ok$/)
        expect(calls[1]).to.match(/^call android_type_append_text device=demo \d+ ms error DEVICE_READ_ONLY$/)
        expect(calls[2]).to.match(/^call \(unknown tool\) device=- \d+ ms error INVALID_INPUT$/)
        expect(logs.join('\n')).to.not.include('hunter2')
      } finally {
        await server.close()
      }
      // --quiet: no line per call (the server's other lines stay).
      const quietLogs: string[] = []
      const quiet = await startServer({quiet: true, log: (m) => quietLogs.push(m)})
      try {
        const client = await connect(quiet.url)
        await client.callTool({name: 'android_get_screen_state', arguments: {detail: 'compact'}})
        await client.close()
        expect(quietLogs.filter((l) => l.startsWith('call '))).to.deep.equal([])
      } finally {
        await quiet.close()
      }
    })

    it('answers malformed tools/call params with -32602 and a short message (the SDK client sees an McpError)', async () => {
      const server = await startServer()
      try {
        for (const [params, message] of [
          [{name: 'android_tap', arguments: 'x=1'}, /"arguments" must be an object .*\(got a string\)$/],
          [{name: 'android_tap', arguments: []}, /\(got an array\)$/],
          [{arguments: {}}, /needs "name"/],
        ] as Array<[unknown, RegExp]>) {
          const answer = await raw(server.url, {headers: auth, body: JSON.stringify(call(9, params))})
          const reply = JSON.parse(answer.body) as Reply
          expect(reply.id).to.equal(9)
          expect(reply.error?.code, answer.body).to.equal(-32602)
          expect(reply.error?.message).to.match(message)
        }
        const answer = await raw(server.url, {
          headers: auth,
          body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'android_tap'}),
        })
        expect(answer.status).to.equal(400)
        expect(JSON.parse(answer.body)).to.deep.include({
          error: {code: -32602, message: 'Invalid params: params must be an object (got a string)'},
        })
        const client = await connect(server.url)
        const refused = await client.callTool({name: 'android_tap', arguments: 'x' as never}).then(
          () => undefined,
          (error: {code?: number}) => error
        )
        expect(refused?.code).to.equal(-32602)
        await client.close()
      } finally {
        await server.close()
      }
    })

    it('413 for a body far over --max-body, read to its end: the answer arrives and the connection serves again', async () => {
      const server = await startServer({maxBodyBytes: 4096})
      try {
        const url = new URL(server.url)
        const big = Buffer.alloc(8 * 1024 * 1024, 'z')
        const head = (framing: string, close = false) =>
          [
            'POST /mcp HTTP/1.1',
            `Host: ${url.host}`,
            `Authorization: Bearer ${TOKEN}`,
            'Content-Type: application/json',
            'Accept: application/json, text/event-stream',
            framing,
            ...(close ? ['Connection: close'] : []),
            '',
            '',
          ].join('\r\n')
        for (const chunked of [false, true]) {
          // One keep-alive connection: the oversized request, its answer, then a tools/list on the same socket.
          const answers = await new Promise<string>((resolve, reject) => {
            const socket = connectSocket(Number(url.port), url.hostname)
            let text = ''
            let second = false
            socket.on('data', (d) => {
              text += d.toString()
              if (!second && text.includes('nothing of it was run"')) {
                second = true
                socket.end(`${head(`Content-Length: ${Buffer.byteLength(LIST)}`, true)}${LIST}`)
              }
            })
            socket.on('end', () => resolve(text))
            socket.on('error', (error) => reject(new Error(`${error.message}; read so far: ${JSON.stringify(text)}`)))
            socket.write(head(chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${big.length}`))
            if (chunked) socket.write(`${big.length.toString(16)}\r\n`)
            socket.write(big)
            if (chunked) socket.write('\r\n0\r\n\r\n')
          })
          expect(answers, `chunked: ${chunked}`).to.match(/^HTTP\/1\.1 413 /)
          expect(answers).to.include('larger than the limit of 4,096 bytes (--max-body or mcp.maxBodyBytes)')
          expect(answers.slice(answers.indexOf('nothing of it was run'))).to.match(/HTTP\/1\.1 200 [^]*"tools":\[/)
        }
      } finally {
        await server.close()
      }
    })
  })
})
