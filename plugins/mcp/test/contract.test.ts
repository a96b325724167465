/**
 * The contract between the two surfaces: every tool run through the CLI adapter (the oclif command, in process)
 * and through the MCP server (the SDK client over HTTP) against the same `arc emulate` device gives the same text
 * and sends the device the same commands. A new tool joins with one row.
 */
import {request} from 'node:http'

import {DEMO_DIR} from '@arc-cli/core'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {runCommand} from '@oclif/test'
import {expect} from 'chai'

import {connect, ROOT, startServer, TOKEN} from './support.js'

interface Row {
  /** The spec name (MCP: android_<name>). */
  tool: string
  args: Record<string, unknown>
  /** The same call as CLI words. */
  cli: string[]
}

const ROWS: Row[] = [
  {tool: 'get_screen_state', args: {}, cli: ['screen-state']},
  {tool: 'list_devices', args: {}, cli: ['devices']},
  {tool: 'tap', args: {x: 500, y: 1000}, cli: ['tap', '500', '1000']},
  {tool: 'long_press', args: {x: 5, y: 6, duration: 2000}, cli: ['long-press', '5', '6', '--duration', '2000']},
  {tool: 'double_tap', args: {x: 7, y: 8}, cli: ['double-tap', '7', '8']},
  {tool: 'swipe', args: {x1: 500, y1: 1500, x2: 500, y2: 500}, cli: ['swipe', '500', '1500', '500', '500']},
  {tool: 'scroll', args: {direction: 'down', amount: 'large'}, cli: ['scroll', 'down', '--amount', 'large']},
  {tool: 'press_back', args: {}, cli: ['press', 'back']},
  {tool: 'press_home', args: {}, cli: ['press', 'home']},
  {tool: 'press_recents', args: {}, cli: ['press', 'recents']},
  {tool: 'press_key', args: {key: 'ENTER'}, cli: ['press', 'key', 'ENTER']},
  {tool: 'open_notifications', args: {}, cli: ['notifications']},
  {tool: 'open_quick_settings', args: {}, cli: ['quick-settings']},
  {tool: 'open_app', args: {package_id: 'com.android.settings'}, cli: ['app', 'open', 'com.android.settings']},
  {tool: 'close_app', args: {package_id: 'com.android.settings'}, cli: ['app', 'close', 'com.android.settings']},
  {tool: 'list_apps', args: {filter: 'system', name_query: 'settings'}, cli: ['app', 'list', '--filter', 'system', '--name-query', 'settings']},
  {tool: 'get_device_logs', args: {last_lines: 5, level: 'I'}, cli: ['logs', '--last-lines', '5', '--level', 'I']},
  // Failures match too: the same message, and nothing sent to the device.
  {tool: 'tap', args: {x: -1, y: 5}, cli: ['tap', '--', '-1', '5']},
  {tool: 'open_app', args: {package_id: 'not a package'}, cli: ['app', 'open', 'not a package']},
]

/** Tools without a row, and why: nothing else may be missing. */
const NO_ROW: Record<string, string> = {
  annotate_screenshot: 'the CLI writes the image to a file and prints its path; server.test.ts checks the inline image',
}

describe('CLI and MCP give the same text and the same device commands (arc emulate)', () => {
  let emu: Emulator
  let server: StartedHttp
  let client: Client
  const saved = {socket: process.env.ADB_SERVER_SOCKET, serial: process.env.ANDROID_SERIAL, env: process.env.NODE_ENV}

  before(async () => {
    emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    server = await startServer({devices: [], adbHost: '127.0.0.1', adbPort: emu.port})
    client = await connect(server.url)
    process.env.ADB_SERVER_SOCKET = `tcp:127.0.0.1:${emu.port}`
    delete process.env.ANDROID_SERIAL
    process.env.NODE_ENV = 'development'
  })
  after(async () => {
    for (const [key, value] of [['ADB_SERVER_SOCKET', saved.socket], ['ANDROID_SERIAL', saved.serial], ['NODE_ENV', saved.env]] as const) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await client?.close()
    await server?.close()
    await emu?.close()
  })

  it('has a row for every tool the server offers', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name.replace(/^android_/, ''))
    const covered = new Set([...ROWS.map((r) => r.tool), ...Object.keys(NO_ROW)])
    expect(names.filter((n) => !covered.has(n)), 'add a row to ROWS for these').to.deep.equal([])
  })

  const argvSince = (from: number) => emu.commands.slice(from).map((c) => c.argv)

  it('a client that disconnects mid-call cancels it: the device command is cut off', async () => {
    emu.device('emu-1').hangNext('input')
    const from = emu.commands.length
    const body = JSON.stringify({jsonrpc: '2.0', id: 7, method: 'tools/call', params: {name: 'android_tap', arguments: {x: 1, y: 2}}})
    const req = request(server.url, {
      method: 'POST',
      headers: {authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream'},
    })
    req.on('error', () => undefined)
    req.end(body)
    const deadline = Date.now() + 10_000
    while (!argvSince(from).some((a) => a[0] === 'input') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(emu.runningShells()).to.have.length(1)
    req.destroy()
    while (emu.runningShells().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(emu.runningShells()).to.deep.equal([])
  })

  for (const row of ROWS) {
    it(`${row.tool} ${JSON.stringify(row.args)} = arc ${row.cli.join(' ')}`, async () => {
      let from = emu.commands.length
      const cli = await runCommand(row.cli, {root: ROOT})
      const cliArgv = argvSince(from)
      from = emu.commands.length
      const mcp = (await client.callTool({name: `android_${row.tool}`, arguments: row.args})) as CallToolResult
      const mcpArgv = argvSince(from)
      const mcpText = (mcp.content[0] as {text: string}).text
      if (cli.error) {
        // The CLI prints `Error [CODE]: message` on stderr; MCP returns the same as an isError result (it names
        // fields as the agent sent them, the CLI as flags or arguments).
        expect(mcp.isError, mcpText).to.equal(true)
        const code = /\[([A-Z_]+)\]/.exec(cli.stderr)?.[1]
        expect(mcpText).to.match(new RegExp(`^Error \\[${code}\\]: `))
      } else {
        expect(mcp.isError, mcpText).to.equal(undefined)
        expect(mcpText).to.equal(cli.stdout.replace(/\n$/, ''))
      }
      // A screen capture runs its device commands in parallel, so their order varies; the set must not.
      const sorted = (argv: string[][]) => argv.map((a) => JSON.stringify(a)).sort()
      expect(sorted(mcpArgv)).to.deep.equal(sorted(cliArgv))
    })
  }
})
