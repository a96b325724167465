import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {runArc} from '../../../test/support/run-arc.js'
import {ROOT} from './support.js'

describe('arc mcp serve --stdio (a spawned arc process)', () => {
  it('serves the same tools on stdin/stdout, with the CLI text, and ends when the client closes', async function () {
    this.timeout(60_000)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'mcp', 'serve', '--stdio', '--device', 'demo', '--slug', 'demo'],
      cwd: ROOT,
      env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', NO_COLOR: '1'},
      stderr: 'pipe',
    })
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
})
