import {chmod, mkdtemp, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import type {HttpSettings, StartedHttp} from '@arc-cli/plugin-mcp'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {allTools, connect, jpegSize, LIST, raw, startServer, TOKEN} from './support.js'

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

describe('arc mcp serve over Streamable HTTP (the SDK client against the demo device)', () => {
  let server: StartedHttp
  const logs: string[] = []
  before(async () => {
    // With an APK folder, so every tool is served (install_app needs one).
    server = await startServer({log: (m) => logs.push(m), apkFolder: os.tmpdir()})
  })
  after(async () => server?.close())

  it('lists every registry tool as android_<name> with its schema and annotations from its kind', async () => {
    const client = await connect(server.url)
    const {tools} = await client.listTools()
    const expected = (await allTools()).filter((t) => t.cli.only === undefined).map((t) => `android_${t.name}`)
    expect(tools.map((t) => t.name).sort()).to.deep.equal([...new Set(expected)].sort())
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).to.equal('object')
      expect(tool.description, tool.name).to.be.a('string').and.not.equal('')
    }
    const tap = tools.find((t) => t.name === 'android_tap')!
    expect(tap.inputSchema.required).to.deep.equal(['x', 'y'])
    // Only what differs from MCP's defaults (readOnlyHint false, destructiveHint true, idempotentHint false).
    expect(tap.annotations).to.deep.equal({destructiveHint: false})
    expect(tools.find((t) => t.name === 'android_write_file')!.annotations ?? {}).to.deep.equal({})
    const state = tools.find((t) => t.name === 'android_get_screen_state')!
    expect(state.annotations).to.include({readOnlyHint: true, idempotentHint: true})
    expect(tools.map((t) => t.name)).to.not.include.members(['android_save_snapshot', 'android_wait_for_element_gone'])
    await client.close()
  })

  describe('a plain JSON client (the spec’s curl examples: no text/event-stream in Accept)', () => {
    const CALL = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {name: 'android_get_screen_state', arguments: {detail: 'compact'}},
    })
    for (const [what, accept] of [
      ['Accept: application/json', 'application/json'],
      ['curl’s default Accept: */*', '*/*'],
      ['no Accept header at all', undefined],
      ['Accept: application/*;q=0.5', 'application/*;q=0.5'],
    ] as const) {
      it(`is answered with one JSON body, not 406: ${what}`, async () => {
        const res = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, accept}, body: CALL})
        expect(res.status, res.body).to.equal(200)
        expect(res.headers['content-type']).to.match(/^application\/json/)
        const answer = JSON.parse(res.body) as {id: number; result: CallToolResult}
        expect(answer.id).to.equal(7)
        expect(answer.result.isError).to.equal(undefined)
        expect(textOf(answer.result)).to.be.a('string').and.not.equal('')
      })
    }

    it('a client that accepts no JSON still gets 406 (Accept: text/html, or application/json;q=0)', async () => {
      for (const accept of ['text/html', 'application/json;q=0']) {
        const res = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, accept}, body: LIST})
        expect(res.status, accept).to.equal(406)
      }
    })
  })

  it('answers get_screen_state with exactly the text the CLI prints, and the data as structured content', async () => {
    const client = await connect(server.url)
    const result = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
    const cli = await runArc(['screen-state', '--device', 'demo'])
    expect(result.isError).to.equal(undefined)
    expect(textOf(result)).to.equal(cli.stdout.replace(/\n$/, ''))
    expect(result.content).to.have.length(1)
    expect(result.structuredContent).to.have.property('windows')
    await client.close()
  })

  it('returns the annotated screenshot as JPEG image content of the expected size', async () => {
    const client = await connect(server.url)
    const state = (await client.callTool({
      name: 'android_get_screen_state',
      arguments: {include_screenshot: true},
    })) as CallToolResult
    const image = state.content[1] as {type: string; data: string; mimeType: string}
    expect(image.type).to.equal('image')
    expect(image.mimeType).to.equal('image/jpeg')
    // The demo screen is 1080x2400: the long side becomes 700 px.
    expect(jpegSize(Buffer.from(image.data, 'base64'))).to.deep.equal({width: 315, height: 700})
    const marked = (await client.callTool({
      name: 'android_annotate_screenshot',
      arguments: {max_size: 480},
    })) as CallToolResult
    expect(textOf(marked))
      .to.match(/^image: 216x480 jpeg/)
      .and.include('label\tid\tbounds')
    expect(jpegSize(Buffer.from((marked.content[1] as {data: string}).data, 'base64'))).to.deep.equal({
      width: 216,
      height: 480,
    })
    await client.close()
  })

  it('turns every failure into an isError result with the error code: invalid input, read-only device, unknown tool', async () => {
    const client = await connect(server.url)
    const invalid = (await client.callTool({name: 'android_tap', arguments: {x: -5, y: 'a'}})) as CallToolResult
    expect(invalid.isError).to.equal(true)
    // Named by field, in arc's words: what is allowed and what came, never zod's "Too small".
    expect(textOf(invalid)).to.match(
      /^Error \[INVALID_INPUT\]: x must be at least 0 \(got -5\): X coordinate.*; y must be a number \(got "a"\)/
    )
    expect(invalid.structuredContent).to.deep.include({
      error: {...(invalid.structuredContent as {error: object}).error, code: 'INVALID_INPUT', exitCode: 2},
    })
    const action = (await client.callTool({name: 'android_tap', arguments: {x: 5, y: 5}})) as CallToolResult
    expect(action.isError).to.equal(true)
    expect(textOf(action)).to.match(/^Error \[DEVICE_READ_ONLY\]: /)
    const unknown = (await client.callTool({name: 'android_nope', arguments: {}})) as CallToolResult
    expect(textOf(unknown)).to.match(/^Error \[INVALID_INPUT\]: unknown tool "android_nope"/)
    const missing = (await client.callTool({
      name: 'android_annotate_screenshot',
      arguments: {quality: 500},
    })) as CallToolResult
    expect(textOf(missing)).to.match(/^Error \[INVALID_INPUT\]: quality must be 1 to 100/)
    await client.close()
  })

  it('answers a wait that times out as the spec says: a normal result with found false, not isError', async () => {
    const client = await connect(server.url)
    const result = (await client.callTool({
      name: 'android_wait_for_element',
      arguments: {by: 'text', value: 'zzz', timeout: 600},
    })) as CallToolResult
    expect(result.isError).to.equal(undefined)
    expect(JSON.parse(textOf(result)))
      .to.have.keys('found', 'elapsedMs', 'attempts')
      .and.include({found: false})
    expect(result.structuredContent).to.include({found: false})
    const idle = (await client.callTool({name: 'android_wait_for_idle', arguments: {timeout: 300}})) as CallToolResult
    expect(idle.isError).to.equal(undefined)
    expect(textOf(idle)).to.match(/"message": "Operation timed out after \d+ms waiting for UI idle/)
    const capped = (await client.callTool({
      name: 'android_wait_for_element',
      arguments: {by: 'text', value: 'zzz', timeout: 30001},
    })) as CallToolResult
    expect(capped.isError).to.equal(true)
    expect(textOf(capped)).to.equal(
      'Error [INVALID_INPUT]: timeout must be at most 30000: a wait lasts 30 s at most; to wait longer, run it again'
    )
    await client.close()
  })

  it('answers 50 concurrent calls, all correct', async () => {
    const client = await connect(server.url)
    const expected = textOf(
      (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
    )
    const results = await Promise.all(
      Array.from({length: 50}, (_, i) =>
        i % 5 === 0
          ? client.callTool({name: 'android_tap', arguments: {x: i, y: i}})
          : client.callTool({name: 'android_get_screen_state', arguments: {}})
      )
    )
    results.forEach((result, i) => {
      if (i % 5 === 0) expect(textOf(result as CallToolResult)).to.match(/^Error \[DEVICE_READ_ONLY\]/)
      else expect(textOf(result as CallToolResult)).to.equal(expected)
    })
    await client.close()
  })

  describe('refuses before any tool runs', () => {
    const bad: Array<[string, Record<string, string>]> = [
      ['no Authorization header', {}],
      ['a wrong token', {authorization: 'Bearer wrong-token'}],
      ['a prefix of the token', {authorization: `Bearer ${TOKEN.slice(0, -1)}`}],
      ['the token with something appended', {authorization: `Bearer ${TOKEN}x`}],
      ['the Basic scheme', {authorization: `Basic ${Buffer.from(`arc:${TOKEN}`).toString('base64')}`}],
      ['the token without a scheme', {authorization: TOKEN}],
      ['an empty bearer', {authorization: 'Bearer '}],
    ]
    for (const [what, headers] of bad) {
      it(`401 with WWW-Authenticate: Bearer for ${what}`, async () => {
        const res = await raw(server.url, {headers, body: LIST})
        expect(res.status).to.equal(401)
        expect(res.headers['www-authenticate']).to.match(/^Bearer /)
        expect(res.body).to.not.include(TOKEN)
      })
    }

    it('the SDK client with a wrong token fails to connect', async () => {
      let error: unknown
      try {
        await connect(server.url, 'nope')
      } catch (caught) {
        error = caught
      }
      expect(String(error)).to.match(/Unauthorized|401/)
    })

    it('accepts the scheme in any case', async () => {
      const res = await raw(server.url, {headers: {authorization: `bearer ${TOKEN}`}, body: LIST})
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body).result.tools.length).to.be.greaterThan(10)
    })

    it('403 for a foreign Origin (DNS rebinding) even with the token; the server own origin is fine', async () => {
      const auth = {authorization: `Bearer ${TOKEN}`}
      const foreign = await raw(server.url, {headers: {...auth, origin: 'http://evil.example'}, body: LIST})
      expect(foreign.status).to.equal(403)
      const own = await raw(server.url, {headers: {...auth, origin: `http://127.0.0.1:${server.port}`}, body: LIST})
      expect(own.status).to.equal(200)
    })

    it('403 for a foreign Host header while bound to loopback', async () => {
      const res = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`, host: `evil.example:${server.port}`},
        body: LIST,
      })
      expect(res.status).to.equal(403)
    })

    it('405 with Allow: POST, DELETE for other methods; a DELETE without a session id is 400', async () => {
      for (const method of ['GET', 'PUT']) {
        const res = await raw(server.url, {method, headers: {authorization: `Bearer ${TOKEN}`}})
        expect(res.status, method).to.equal(405)
        expect(res.headers.allow).to.equal('POST, DELETE')
      }
      const del = await raw(server.url, {method: 'DELETE', headers: {authorization: `Bearer ${TOKEN}`}})
      expect(del.status).to.equal(400)
    })

    it('404 for another path, 400 for a body that is not JSON; /mcp/ is /mcp', async () => {
      expect(
        (await raw(server.url.replace('/mcp', '/other'), {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST}))
          .status
      ).to.equal(404)
      expect(
        (await raw(server.url.replace('/mcp', '/mcpx'), {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST}))
          .status
      ).to.equal(404)
      expect((await raw(`${server.url}/`, {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST})).status).to.equal(
        200
      )
      expect((await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`}, body: '{not json'})).status).to.equal(
        400
      )
    })

    it('never writes the token to its log', () => {
      expect(logs.join('\n')).to.not.include(TOKEN)
    })
  })
})

describe('arc mcp serve settings', () => {
  it('413 for a body over the limit (configurable), and an allow-listed Origin passes', async () => {
    const server = await startServer({maxBodyBytes: 2048, allowedOrigins: ['http://localhost:6274']})
    try {
      const auth = {authorization: `Bearer ${TOKEN}`}
      const big = JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list', params: {pad: 'x'.repeat(4096)}})
      expect((await raw(server.url, {headers: auth, body: big})).status).to.equal(413)
      expect(
        (await raw(server.url, {headers: {...auth, origin: 'http://localhost:6274'}, body: LIST})).status
      ).to.equal(200)
    } finally {
      await server.close()
    }
  })

  it('lets an allow-listed browser origin through CORS: the preflight (no token) and every answer, 401 and 405 too', async () => {
    const origin = 'http://localhost:6274'
    const server = await startServer({allowedOrigins: [origin]})
    try {
      // A browser sends the preflight without credentials, so it cannot carry the token.
      const preflight = await raw(server.url, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,mcp-protocol-version',
        },
      })
      expect(preflight.status).to.equal(204)
      expect(preflight.headers['access-control-allow-origin']).to.equal(origin)
      expect(String(preflight.headers['access-control-allow-methods'])).to.include('POST')
      for (const header of ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-session-id']) {
        expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).to.include(header)
      }
      const ok = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, origin}, body: LIST})
      expect(ok.status).to.equal(200)
      expect(ok.headers['access-control-allow-origin']).to.equal(origin)
      expect(String(ok.headers['access-control-expose-headers']).toLowerCase()).to.include('mcp-session-id')
      // The browser must be able to read a refusal too (the SDK client then knows it is a 401, or that GET has no stream).
      const unauthorized = await raw(server.url, {headers: {origin}, body: LIST})
      expect(unauthorized.status).to.equal(401)
      expect(unauthorized.headers['access-control-allow-origin']).to.equal(origin)
      const get = await raw(server.url, {method: 'GET', headers: {authorization: `Bearer ${TOKEN}`, origin}})
      expect(get.status).to.equal(405)
      expect(get.headers['access-control-allow-origin']).to.equal(origin)
      // Neither a foreign origin nor a request without one gets CORS headers, and a foreign preflight is refused.
      const foreign = await raw(server.url, {
        method: 'OPTIONS',
        headers: {origin: 'http://evil.example', 'access-control-request-method': 'POST'},
      })
      expect(foreign.status).to.equal(403)
      expect(foreign.headers['access-control-allow-origin']).to.equal(undefined)
      const plain = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST})
      expect(plain.headers['access-control-allow-origin']).to.equal(undefined)
      const noOrigin = await raw(server.url, {method: 'OPTIONS'})
      expect(noOrigin.status).to.equal(401)
    } finally {
      await server.close()
    }
  })

  it('--allow-origin takes an origin as a browser writes it, and refuses what no browser sends (*, null, a path)', async () => {
    // A trailing slash or capitals were kept as given and matched no browser's Origin: the page got 403 with no word
    // why. `*` and `null` read as "any page" and "sandboxed pages and file:// documents" to whoever wrote them.
    const server = await startServer({allowedOrigins: ['HTTP://LocalHost:6274/', 'https://example.com:443']})
    try {
      for (const origin of ['http://localhost:6274', 'https://example.com']) {
        const ok = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, origin}, body: LIST})
        expect(ok.status, origin).to.equal(200)
        expect(ok.headers['access-control-allow-origin']).to.equal(origin)
      }
    } finally {
      await server.close()
    }
    for (const given of [
      '*',
      'null',
      'localhost:6274',
      'http://localhost:6274/app',
      'http://user@localhost:6274',
      '',
    ]) {
      const cases: Array<[Partial<HttpSettings>, string, string]> = [
        [{allowedOrigins: [given]}, 'INVALID_INPUT', '--allow-origin'],
        [{config: {mcp: {allowedOrigins: ['http://localhost:1', given]}}}, 'INVALID_CONFIG', 'mcp.allowedOrigins[1]'],
      ]
      for (const [settings, code, name] of cases) {
        let error: {code?: string; message?: string} | undefined
        try {
          await (await startServer(settings)).close()
        } catch (caught) {
          error = caught as typeof error
        }
        expect(error?.code, `${name} ${JSON.stringify(given)}`).to.equal(code)
        expect(error?.message).to.include(`${name}: `).and.include('scheme://host')
      }
    }
  })

  it('warns at start-up when mcp.token sits in a config file other users may read, naming the file, never the token', async () => {
    // Every user of the machine can reach a loopback port: the token is the one thing between them and the phone.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-token-file-'))
    const file = path.join(dir, '.arcrc.json')
    const token = 'from-the-config-file-0123456789'
    await writeFile(file, JSON.stringify({mcp: {token}}))
    for (const [mode, warned] of [
      [0o644, true],
      [0o640, true],
      [0o600, false],
    ] as const) {
      await chmod(file, mode)
      const logs: string[] = []
      const server = await startServer({
        token: undefined,
        config: {mcp: {token}},
        configFile: file,
        log: (m) => logs.push(m),
      })
      await server.close()
      expect(logs.join('\n')).to.not.include(token)
      const warning = logs.find((l) => l.includes('other users'))
      expect(warning !== undefined, `mode ${mode.toString(8)}: ${logs.join(' | ')}`).to.equal(warned)
      if (warned) expect(warning).to.include(file).and.include(`chmod go-r ${file}`)
    }
  })

  it('refuses an empty or short token without echoing it', async () => {
    for (const token of ['', 'short-secret']) {
      let error: {code?: string; message?: string} | undefined
      try {
        await startServer({token})
      } catch (caught) {
        error = caught as {code?: string; message?: string}
      }
      expect(error?.code).to.equal('INVALID_INPUT')
      if (token) expect(error?.message).to.not.include(token)
    }
  })

  it('refuses a token no Authorization header carries as given (spaces, non-ASCII), without echoing it', async () => {
    // Each was accepted at start-up, then every request got 401: the header parser stops at a space, and clients
    // send non-ASCII as UTF-8 or Latin-1 bytes, so one client matched and another did not.
    for (const token of ['correct horse battery staple', 'tökentökentökentöken', `${TOKEN}\n`, ` ${TOKEN}`]) {
      let error: {code?: string; message?: string} | undefined
      try {
        await (await startServer({token})).close()
      } catch (caught) {
        error = caught as {code?: string; message?: string}
      }
      expect(error?.code, JSON.stringify(token)).to.equal('INVALID_INPUT')
      expect(error?.message).to.not.include(token.trim())
    }
  })

  it('bound to another loopback address (--host 127.0.0.2), answers at the URL it prints', async function () {
    // Its own address was missing from the Host names it takes: every request, at the printed URL, got 403.
    let server: StartedHttp
    try {
      server = await startServer({host: '127.0.0.2'})
    } catch (error) {
      // Only 127.0.0.1 is up on some systems' loopback (macOS).
      if ((error as {code?: string}).code === 'INVALID_INPUT') this.skip()
      throw error
    }
    try {
      expect(server.url).to.equal(`http://127.0.0.2:${server.port}/mcp`)
      const res = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`}, body: LIST})
      expect(res.status, res.body).to.equal(200)
      const foreign = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`, host: `evil.example:${server.port}`},
        body: LIST,
      })
      expect(foreign.status).to.equal(403)
    } finally {
      await server.close()
    }
  })

  it('on port 80 takes the Host a client sends for it, without the port (RFC 9110: the default port is left out)', async function () {
    // Every request to http://127.0.0.1/mcp came with `Host: 127.0.0.1` and got 403.
    let server: StartedHttp
    try {
      server = await startServer({port: 80})
    } catch {
      // Only root may listen on port 80, and only where it is free.
      this.skip()
    }
    try {
      expect(server.url).to.equal('http://127.0.0.1:80/mcp')
      for (const host of ['127.0.0.1', 'localhost', '127.0.0.1:80']) {
        const res = await raw(server.url, {headers: {authorization: `Bearer ${TOKEN}`, host}, body: LIST})
        expect(res.status, host).to.equal(200)
      }
      const origin = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`, origin: 'http://localhost'},
        body: LIST,
      })
      expect(origin.status).to.equal(200)
      const foreign = await raw(server.url, {
        headers: {authorization: `Bearer ${TOKEN}`, host: 'evil.example'},
        body: LIST,
      })
      expect(foreign.status).to.equal(403)
    } finally {
      await server.close()
    }
  })

  it('a port already in use, or a --host that is no address of this machine, is INVALID_INPUT naming it, not INTERNAL', async () => {
    // Both were `Error [INTERNAL]: internal error: listen EADDRINUSE …`, "a bug in arc", exit 1.
    const first = await startServer()
    try {
      const refusals: Array<[Partial<HttpSettings>, string, RegExp]> = [
        [{port: first.port}, 'port', new RegExp(`port ${first.port} on 127\\.0\\.0\\.1 is already in use`)],
        // TEST-NET-2 (RFC 5737): never an address of this machine.
        [{host: '198.51.100.7'}, 'host', /198\.51\.100\.7 is not an address of this machine/],
        [{host: 'no-such-host.invalid'}, 'host', /no-such-host\.invalid is not an address of this machine/],
      ]
      for (const [settings, input, message] of refusals) {
        let error: {code?: string; message?: string; details?: Record<string, unknown>} | undefined
        try {
          await (await startServer({port: 0, ...settings})).close()
        } catch (caught) {
          error = caught as typeof error
        }
        expect(error?.code, JSON.stringify(settings)).to.equal('INVALID_INPUT')
        expect(error?.message)
          .to.match(message)
          .and.match(new RegExp(`--${input}\\b`))
        expect(error?.details?.input).to.equal(input)
      }
      // The first server still serves.
      const client = await connect(first.url)
      expect((await client.listTools()).tools.length).to.be.greaterThan(10)
      await client.close()
    } finally {
      await first.close()
    }
  })

  it('generates a 256-bit token when none is given', async () => {
    const server = await startServer({token: undefined})
    try {
      expect(server.generated).to.equal(true)
      expect(Buffer.from(server.token, 'base64url')).to.have.length(32)
      const client = await connect(server.url, server.token)
      expect((await client.listTools()).tools.length).to.be.greaterThan(10)
      await client.close()
    } finally {
      await server.close()
    }
  })

  it('names tools android_<slug>_<name> with a slug, and refuses a bad slug', async () => {
    const server = await startServer({slug: 'pixel7'})
    try {
      const client = await connect(server.url)
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names)
        .to.include('android_pixel7_tap')
        .and.include('android_pixel7_get_screen_state')
        .and.include('android_pixel7_list_devices')
      expect(names.every((n) => n.startsWith('android_pixel7_'))).to.equal(true)
      await client.close()
    } finally {
      await server.close()
    }
    for (const slug of ['has-dash', 'a'.repeat(21), 'spa ce']) {
      let error: {code?: string} | undefined
      try {
        await startServer({slug})
      } catch (caught) {
        error = caught as {code?: string}
      }
      expect(error?.code, slug).to.equal('INVALID_INPUT')
    }
  })

  it('serves one tool set per device with --slug-names and --device slug=SERIAL, each on its own device', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'arc-mcp-snap-'))
    const {readFile} = await import('node:fs/promises')
    const xml = (await readFile(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8')).replace(
      /text="[^"]+"/,
      'text="Only on b"'
    )
    await writeFile(path.join(other, 'window_dump.xml'), xml)
    const server = await startServer({devices: ['a=demo', `b=${other}`], slugNames: true})
    try {
      const client = await connect(server.url)
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).to.include('android_a_tap').and.include('android_b_tap').and.include('android_list_devices')
      expect(names).to.not.include('android_tap')
      const a = textOf((await client.callTool({name: 'android_a_get_screen_state', arguments: {}})) as CallToolResult)
      const b = textOf((await client.callTool({name: 'android_b_get_screen_state', arguments: {}})) as CallToolResult)
      expect(b).to.include('Only on b')
      expect(a).to.not.include('Only on b')
      await client.close()
    } finally {
      await server.close()
    }
    let error: {code?: string} | undefined
    try {
      await startServer({devices: ['demo', 'b=demo'], slugNames: true})
    } catch (caught) {
      error = caught as {code?: string}
    }
    expect(error?.code).to.equal('INVALID_INPUT')
  })

  it('--tools (globs and groups) and --read-only serve fewer tools', async () => {
    const server = await startServer({toolPatterns: ['group:touch', 'press_*'], readOnly: false})
    const reads = await startServer({readOnly: true})
    try {
      const client = await connect(server.url)
      const names = (await client.listTools()).tools.map((t) => t.name).sort()
      expect(names).to.include.members(['android_tap', 'android_swipe', 'android_press_back', 'android_press_key'])
      expect(names).to.not.include('android_get_screen_state')
      await client.close()
      const readClient = await connect(reads.url)
      const readTools = (await readClient.listTools()).tools
      expect(readTools.every((t) => t.annotations?.readOnlyHint === true)).to.equal(true)
      expect(readTools.map((t) => t.name))
        .to.include('android_get_screen_state')
        .and.not.include('android_tap')
      await readClient.close()
    } finally {
      await server.close()
      await reads.close()
    }
    let error: {code?: string} | undefined
    try {
      await startServer({toolPatterns: ['group:nope']})
    } catch (caught) {
      error = caught as {code?: string}
    }
    expect(error?.code).to.equal('INVALID_INPUT')
  })
})
