import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {connect, startServer} from './support.js'

/**
 * An agent learns from the structured content which backend served a read or a screenshot (arc's on-device helper or
 * ADB) and how long it took; the spec's text is left as it is. With the helper off there is no choice to report.
 */
describe('MCP results say which backend served a read and a screenshot, and how long it took', function () {
  this.timeout(60_000)
  let emu: Emulator
  let server: StartedHttp
  let client: Client
  const mode = process.env.ARC_HELPER
  before(async () => {
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, windowsDump: true}}},
    })
    server = await startServer({devices: ['emu-1'], adbHost: '127.0.0.1', adbPort: emu.port})
    client = await connect(server.url)
  })
  after(async () => {
    if (mode === undefined) delete process.env.ARC_HELPER
    else process.env.ARC_HELPER = mode
    await client?.close()
    await server?.close()
    await emu?.close()
  })

  it('get_screen_state and screenshot through the helper carry backend {by, ms}; the text stays the spec’s', async () => {
    process.env.ARC_HELPER = 'auto'
    const read = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
    expect(read.isError).to.equal(undefined)
    const backend = (read.structuredContent as {backend?: Record<string, {by: string; ms: number}>}).backend
    expect(backend?.screen?.by).to.equal('helper')
    expect(backend?.screen?.ms).to.be.a('number')
    expect((read.content[0] as {text: string}).text).not.to.include('backend')
    const shot = (await client.callTool({name: 'android_screenshot', arguments: {}})) as CallToolResult
    expect((shot.structuredContent as {backend: Record<string, {by: string}>}).backend.screenshot?.by).to.equal(
      'helper'
    )
  })

  it('with the helper off the results carry no backend', async () => {
    process.env.ARC_HELPER = 'off'
    const read = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
    expect(read.structuredContent).not.to.have.property('backend')
  })
})
