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

/**
 * `arc mcp serve` is a resident host: its helper's start is paid once, so touches go through the helper from the
 * first call on (one request each, no device command), where a one-shot `arc tap` would send `input tap`.
 */
describe('MCP touches go through the on-device helper (a resident host)', function () {
  this.timeout(60_000)
  let emu: Emulator
  let server: StartedHttp
  let client: Client
  const mode = process.env.ARC_HELPER
  before(async () => {
    emu = await startEmulator({port: 0, devices: [], scenario: {devices: {'emu-7': {snapshot: DEMO_DIR}}}})
    server = await startServer({devices: ['emu-7'], adbHost: '127.0.0.1', adbPort: emu.port})
    client = await connect(server.url)
  })
  after(async () => {
    if (mode === undefined) delete process.env.ARC_HELPER
    else process.env.ARC_HELPER = mode
    await client?.close()
    await server?.close()
    await emu?.close()
  })

  it('android_tap as the first call starts the helper and taps through it; later taps send no device command', async () => {
    process.env.ARC_HELPER = 'auto'
    const device = emu.device('emu-7')
    const tap = async (x: number) => {
      const from = emu.commands.length
      const result = (await client.callTool({name: 'android_tap', arguments: {x, y: 20}})) as CallToolResult
      expect(result.isError, JSON.stringify(result.content)).to.equal(undefined)
      expect((result.structuredContent as {backend?: Record<string, {by: string}>}).backend?.touch?.by).to.equal(
        'helper'
      )
      return emu.commands.slice(from).map((c) => c.argv.slice(0, 2).join(' '))
    }
    const first = await tap(10)
    expect(first).to.include('app_process /')
    expect(first.filter((p) => p.startsWith('input'))).to.deep.equal([])
    expect(await tap(11)).to.deep.equal([])
    expect(device.helperRequests.filter((r) => r[0] === 'tap')).to.deep.equal([
      ['tap', '10', '20'],
      ['tap', '11', '20'],
    ])
    expect(device.inputEvents.filter((e) => e.type === 'tap')).to.deep.equal([
      {type: 'tap', x: 10, y: 20},
      {type: 'tap', x: 11, y: 20},
    ])
  })
})
