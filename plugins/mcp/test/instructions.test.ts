/**
 * What an agent learns from the server before its first call: the `instructions` of the initialize result (how to
 * look cheaply, act by id, what STALE_ELEMENT means), the default observation detail the server was started with
 * (`--detail`, `mcp.detail`), and field descriptions that say what each value does.
 */
import os from 'node:os'
import path from 'node:path'

import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {allTools, connect, ROOT, startServer} from './support.js'

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

async function withServer<T>(
  settings: Parameters<typeof startServer>[0],
  work: (server: StartedHttp) => Promise<T>
): Promise<T> {
  const server = await startServer(settings)
  try {
    return await work(server)
  } finally {
    await server.close()
  }
}

describe('arc mcp serve: instructions, default detail and descriptions', () => {
  it('sends short instructions: compact reads, changes diff, acting by id, STALE_ELEMENT, naming only listed tools', async () => {
    for (const settings of [{}, {devices: ['a=demo', 'b=demo']}, {devices: ['a=demo', 'b=demo'], slugNames: true}]) {
      await withServer(settings, async (server) => {
        const client = await connect(server.url)
        const instructions = client.getInstructions() ?? ''
        const listed = new Set((await client.listTools()).tools.map((t) => t.name))
        await client.close()
        expect(instructions).to.include('detail "compact"').and.include('changes "diff"').and.include('STALE_ELEMENT')
        // Which space x,y are in: an agent that looked at a scaled screenshot must not tap its pixels.
        if (settings.devices === undefined) expect(instructions).to.include('x,y are screen pixels')
        expect(instructions.length, 'short: paid for in every session').to.be.below(1200)
        // Tool names (android_<slug>_<name> names a pattern, not a tool).
        const named = [...instructions.matchAll(/android_[a-z_<>]+/g)]
          .map((m) => m[0])
          .filter((n) => !n.endsWith('_') && !n.endsWith('<name>'))
        expect(named.length).to.be.greaterThan(2)
        for (const name of named) {
          if (name.includes('<slug>')) {
            expect(listed, name).to.include(name.replace('<slug>', 'a'))
          } else {
            expect(listed, name).to.include(name)
          }
        }
        if (settings.devices) expect(instructions).to.match(/Devices.*\ba\b.*\bb\b/)
      })
    }
  })

  it('leaves out what is not served: no element tools, no acting advice', async () => {
    await withServer({readOnly: true}, async (server) => {
      const client = await connect(server.url)
      const instructions = client.getInstructions() ?? ''
      await client.close()
      expect(instructions).to.include('get_screen_state').and.not.include('click_element')
    })
  })

  it('--detail compact (or mcp.detail) is the default a get_screen_state call gets, and tools/list says so', async () => {
    const cases = [
      {settings: {detail: 'compact' as const}, expected: 'compact'},
      {settings: {config: {mcp: {detail: 'compact' as const}}}, expected: 'compact'},
      {settings: {config: {mcp: {detail: 'compact' as const}}, detail: 'full' as const}, expected: 'full'},
      {settings: {}, expected: 'full'},
    ]
    for (const {settings, expected} of cases) {
      await withServer(settings, async (server) => {
        const client = await connect(server.url)
        const state = (await client.listTools()).tools.find((t) => t.name === 'android_get_screen_state')!
        expect((state.inputSchema.properties?.detail as {default?: string}).default).to.equal(expected)
        const call = async (args: Record<string, unknown>) =>
          textOf((await client.callTool({name: 'android_get_screen_state', arguments: args})) as CallToolResult)
        const plain = await call({})
        const compact = await call({detail: 'compact'})
        const full = await call({detail: 'full'})
        expect(compact).to.not.equal(full)
        expect(plain, JSON.stringify(settings)).to.equal(expected === 'compact' ? compact : full)
        expect(client.getInstructions()).to.include(`this server's default: ${expected}`)
        await client.close()
      })
    }
  })

  it('lists the changes field with its whole description: what off, ack and diff each do', async () => {
    const tool = (await allTools()).find((t) => t.name === 'get_screen_state')!
    const whole = (tool.input.shape as Record<string, {description?: string}>).changes?.description
    await withServer({}, async (server) => {
      const client = await connect(server.url)
      const state = (await client.listTools()).tools.find((t) => t.name === 'android_get_screen_state')!
      await client.close()
      const listed = (state.inputSchema.properties?.changes as {description?: string}).description
      expect(listed).to.equal(whole)
      expect(listed).to.match(/ack: one line .* else the whole screen/)
      expect(listed).to.match(/diff: .*only what changed.*added.*changed.*removed/)
    })
  })

  it('lists descriptions cut whole: no bracket left open by the cut (list_files once read `… as JSON {files.`)', async () => {
    const open = (text: string) => {
      let depth = 0
      for (const ch of text) depth += '([{'.includes(ch) ? 1 : ')]}'.includes(ch) ? -1 : 0
      return depth
    }
    await withServer({apkFolder: os.tmpdir()}, async (server) => {
      const client = await connect(server.url)
      const {tools} = await client.listTools()
      await client.close()
      const found: string[] = []
      const walk = (node: unknown, where: string) => {
        if (!node || typeof node !== 'object') return
        const {description} = node as {description?: unknown}
        if (typeof description === 'string' && open(description) !== 0) found.push(`${where}: ${description}`)
        for (const [key, value] of Object.entries(node)) if (key !== 'description') walk(value, `${where}.${key}`)
      }
      for (const tool of tools) walk(tool, tool.name)
      expect(found).to.deep.equal([])
      const files = tools.find((t) => t.name === 'android_list_files')!
      expect(files.description).to.match(/alphabetically; page with offset and limit\.$/)
    })
  })

  it('lists no empty annotations and no screenrecord (it writes a host file and runs until stopped)', async () => {
    await withServer({}, async (server) => {
      const client = await connect(server.url)
      const {tools} = await client.listTools()
      await client.close()
      expect(tools.map((t) => t.name)).to.not.include('android_screenrecord')
      for (const tool of tools) {
        if (tool.annotations) expect(Object.keys(tool.annotations), tool.name).to.not.deep.equal([])
      }
    })
  })

  it('arc mcp serve --detail compact with two devices: the flags reach the server (a spawned arc, stdio)', async function () {
    this.timeout(60_000)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=arc-source',
        path.join(ROOT, 'bin', 'dev.js'),
        ...['mcp', 'serve', '--stdio', '--device', 'a=demo', '--device', 'b=demo', '--detail', 'compact'],
      ],
      cwd: ROOT,
      env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', NO_COLOR: '1'},
      stderr: 'pipe',
    })
    const client = new Client({name: 'arc-test', version: '0.0.0'})
    await client.connect(transport)
    try {
      const state = (await client.listTools()).tools.find((t) => t.name === 'android_get_screen_state')!
      expect(state.inputSchema.properties?.device).to.deep.equal({enum: ['a', 'b']})
      expect((state.inputSchema.properties?.detail as {default?: string}).default).to.equal('compact')
      const call = async (args: Record<string, unknown>) =>
        textOf((await client.callTool({name: 'android_get_screen_state', arguments: args})) as CallToolResult)
      expect(await call({device: 'b'})).to.equal(await call({device: 'b', detail: 'compact'}))
      expect(client.getInstructions()).to.include('Devices: a (demo), b (demo)')
    } finally {
      await client.close()
    }
  })
})
