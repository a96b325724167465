import {spawn} from 'node:child_process'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'
import {ROOT} from './support.js'

function spawnServer(args: string[], env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'mcp', 'serve', '--stdio', ...args],
    cwd: ROOT,
    env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', NO_COLOR: '1', ...env},
    stderr: 'pipe',
  })
}

describe('arc mcp serve --stdio (a spawned arc process)', () => {
  it('serves the same tools on stdin/stdout, with the CLI text, and ends when the client closes', async function () {
    this.timeout(60_000)
    const transport = spawnServer(['--device', 'demo', '--slug', 'demo'])
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      const names = (await client.listTools()).tools.map((t) => t.name)
      expect(names).to.include('android_demo_get_screen_state').and.include('android_demo_tap')
      const result = (await client.callTool({name: 'android_demo_get_screen_state', arguments: {}})) as CallToolResult
      const cli = await runArc(['screen-state', '--device', 'demo'])
      expect((result.content[0] as {text: string}).text).to.equal(cli.stdout.replace(/\n$/, ''))
      const invalid = (await client.callTool({name: 'android_demo_swipe', arguments: {}})) as CallToolResult
      expect(invalid.isError).to.equal(true)
      expect((invalid.content[0] as {text: string}).text).to.match(/^Error \[INVALID_INPUT\]/)
    } finally {
      await client.close()
    }
    expect(transport.pid).to.equal(null)
  })

  it('answers every request written before stdin ends, then exits 0 (printf … | arc mcp serve --stdio)', async function () {
    this.timeout(60_000)
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'pipe', version: '0'}},
      },
      {jsonrpc: '2.0', method: 'notifications/initialized'},
      {jsonrpc: '2.0', id: 2, method: 'tools/call', params: {name: 'android_get_screen_state', arguments: {}}},
      {jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'android_tap', arguments: {x: 1, y: 2}}},
      {jsonrpc: '2.0', id: 4, method: 'tools/list'},
    ]
    const child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'mcp', 'serve', '--stdio', '--device', 'demo'],
      {
        cwd: ROOT,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'},
      }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdin.end(requests.map((r) => `${JSON.stringify(r)}\n`).join(''))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code, stderr).to.equal(0)
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {id: number; result: {content?: Array<{text: string}>; isError?: boolean}})
    expect(answers.map((a) => a.id).sort()).to.deep.equal([1, 2, 3, 4])
    const byId = new Map(answers.map((a) => [a.id, a.result]))
    expect(byId.get(2)?.content?.[0]?.text).to.include('screen:1080x2400')
    expect(byId.get(3)?.isError).to.equal(true)
    expect(byId.get(3)?.content?.[0]?.text).to.match(/^Error \[DEVICE_READ_ONLY\]/)
  })

  it('stdout carries the protocol alone: console output and stdout writes of anything else while it serves go to stderr', async function () {
    // A library that logs (console.log in a dependency, a debug print left in a plugin) wrote into the JSON-RPC
    // stream, which a client cannot parse: stdio is the protocol's alone. Simulated by a module loaded first that,
    // once the server answered `initialize` (the test then makes the file `go`), prints through every route to
    // stdout until the process ends, while the calls run.
    this.timeout(60_000)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-stdio-noise-'))
    const go = path.join(dir, 'go')
    const chatty = [
      `import {existsSync} from 'node:fs';`,
      'const say = () => { console.log("noise: console.log"); console.info("noise: console.info");',
      'console.debug("noise: console.debug"); console.dir({noise: "console.dir"}); process.stdout.write("noise: write\\n") };',
      `const t = setInterval(() => { if (existsSync(${JSON.stringify(go)})) say() }, 5); t.unref()`,
    ].join(' ')
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {name: 'android_annotate_screenshot', arguments: {}},
    })
    const child = spawn(
      process.execPath,
      [
        '--conditions=arc-source',
        `--import=data:text/javascript,${encodeURIComponent(chatty)}`,
        path.join(ROOT, 'bin', 'dev.js'),
        'mcp',
        'serve',
        '--stdio',
        '--device',
        'demo',
      ],
      {cwd: ROOT, env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'}}
    )
    let stdout = ''
    let stderr = ''
    const answered = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('\n')) resolve()
      })
    )
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'pipe', version: '0'}},
    }
    try {
      child.stdin.write(`${JSON.stringify(initialize)}\n`)
      await answered
      await writeFile(go, '')
      const calls = [{jsonrpc: '2.0', method: 'notifications/initialized'}, ...[2, 3, 4, 5, 6, 7].map(call)]
      child.stdin.end(calls.map((r) => `${JSON.stringify(r)}\n`).join(''))
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect(code, stderr).to.equal(0)
      const lines = stdout.split('\n').filter((line) => line !== '')
      const noise = lines.filter((line) => !line.startsWith('{"'))
      expect(noise.length, `lines on stdout that are no JSON-RPC: ${JSON.stringify(noise.slice(0, 5))}`).to.equal(0)
      const ids = lines.map((line) => (JSON.parse(line) as {id: number}).id).sort((a, b) => a - b)
      expect(ids).to.deep.equal([1, 2, 3, 4, 5, 6, 7])
      // The noise did happen, on stderr.
      expect(stderr).to.include('noise: console.log').and.include('noise: write')
    } finally {
      child.kill()
      await rm(dir, {recursive: true, force: true})
    }
  })

  it('an MCP cancellation (notifications/cancelled) aborts the call: the device command is cut off', async function () {
    this.timeout(60_000)
    const emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    try {
      await client.connect(spawnServer(['--device', 'emu-1'], {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}))
      emu.device('emu-1').hangNext('input')
      const from = emu.commands.length
      const controller = new AbortController()
      const call = client.callTool({name: 'android_tap', arguments: {x: 1, y: 2}}, undefined, {
        signal: controller.signal,
        timeout: 60_000,
      })
      call.catch(() => undefined)
      const deadline = Date.now() + 30_000
      while (!emu.commands.slice(from).some((c) => c.argv[0] === 'input') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20))
      expect(emu.runningShells()).to.have.length(1)
      controller.abort()
      let rejected = false
      await call.catch(() => (rejected = true))
      expect(rejected).to.equal(true)
      // The device command would hang until the 20 s adb time limit; the cancellation ends it well before.
      const cut = Date.now() + 10_000
      while (emu.runningShells().length > 0 && Date.now() < cut) await new Promise((r) => setTimeout(r, 20))
      expect(emu.runningShells()).to.deep.equal([])
    } finally {
      await client.close()
      await emu.close()
    }
  })

  // The MCP spec's stdio shutdown: the client closes stdin, waits, then sends SIGTERM (the SDK's StdioClientTransport
  // waits 2 s for each step). A call still running then was cut off mid-way with the process: typing through
  // ADBKeyBoard left it as the phone's keyboard, the user's own gone.
  // SIGHUP: the terminal or SSH session arc was started from went away.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const)
    it(`${signal} (a client shutting down) cancels the calls in flight, answers them and undoes their device work, then exits 0`, async function () {
      this.timeout(60_000)
      const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-stdio-term-'))
      const note = path.join(dir, 'note.xml')
      await writeFile(
        note,
        dumpXml([
          {
            pkg: 'com.example',
            bounds: [0, 0, 1080, 2400],
            children: [
              {
                cls: 'android.widget.EditText',
                res: 'com.example:id/note',
                text: '',
                attrs: {clickable: 'true', focusable: 'true'},
                bounds: [0, 300, 1080, 400],
              },
            ],
          },
        ])
      )
      const emu = await startEmulator({
        port: 0,
        devices: [],
        scenario: {devices: {keyboard: {snapshot: note, adbKeyboard: true}}},
      })
      const device = emu.device('keyboard')
      const keyboard = () => device.settings.get('secure/default_input_method')
      const own = keyboard()
      const transport = spawnServer(['--device', 'keyboard'], {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`})
      const client = new Client({name: 'arc-test', version: '0.0.0'})
      try {
        await client.connect(transport)
        const found = (await client.callTool({
          name: 'android_find_elements',
          arguments: {by: 'resource_id', value: 'com.example:id/note'},
        })) as CallToolResult
        const id = (found.structuredContent as {elements: Array<{id: string}>}).elements[0]!.id
        const hang = device.hangNext('am broadcast')
        const call = client.callTool(
          {name: 'android_type_append_text', arguments: {element_id: id, text: 'café', typing_speed: 10}},
          undefined,
          {timeout: 60_000}
        ) as Promise<CallToolResult>
        call.catch(() => undefined)
        await hang.arrived
        expect(keyboard()).to.not.equal(own)
        const exited = new Promise<number | null>((resolve) => {
          const child = (transport as unknown as {_process: import('node:child_process').ChildProcess})._process
          child.once('exit', (code) => resolve(code))
        })
        process.kill(transport.pid!, signal)
        const result = await call
        expect(result.isError).to.equal(true)
        expect((result.structuredContent as {error: {code: string}}).error.code).to.equal('CANCELLED')
        expect(await exited).to.equal(0)
        // Set back before the process ended, not left to the phone.
        expect(keyboard()).to.equal(own)
        expect(device.inputEvents.filter((e) => e.type === 'commit')).to.deep.equal([])
      } finally {
        await client.close()
        await emu.close()
        await rm(dir, {recursive: true, force: true})
      }
    })
})
