/**
 * One tool set for any number of devices: 1, 2 and 5 virtual devices behind one `arc emulate` server, served by one
 * `arc mcp serve` each time. tools/list keeps the same tools whatever the number of devices; with several, every
 * device tool takes a `device` argument (an enum of the served devices, required) and a call runs on that device
 * alone. The spec's per-device names stay behind --slug-names.
 */
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {connect as connectTcp, createServer, type AddressInfo, type Server} from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {connect, startServer} from './support.js'

const SERIALS = ['emu-1', 'emu-2', 'emu-3', 'emu-4', 'emu-5']
const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text
const codeOf = (result: CallToolResult) => (result.structuredContent as {error?: {code?: string}}).error?.code

describe('arc mcp serve with 1, 2 and 5 devices: one tool set, a device argument (arc emulate)', () => {
  let emu: Emulator
  let folder: string
  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'arc-mcp-devices-'))
    const xml = await readFile(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8')
    const devices = []
    for (const serial of SERIALS) {
      // Each device shows its own serial as the first text, so a read tells which device answered.
      const snapshot = path.join(folder, `${serial}.xml`)
      await writeFile(snapshot, xml.replace(/text="[^"]+"/, `text="Screen of ${serial}"`))
      devices.push({serial, snapshot})
    }
    emu = await startEmulator({port: 0, devices})
  })
  after(async () => {
    await emu?.close()
    await rm(folder, {recursive: true, force: true})
  })

  const serve = (devices: string[], more: Record<string, unknown> = {}) =>
    startServer({devices, adbHost: '127.0.0.1', adbPort: emu.port, ...more})

  async function listed(server: StartedHttp): Promise<Tool[]> {
    const client = await connect(server.url)
    try {
      return (await client.listTools()).tools
    } finally {
      await client.close()
    }
  }

  it('lists the same tools, once each, for 1, 2 and 5 devices; with several each device tool takes device', async () => {
    const names: string[][] = []
    for (const count of [1, 2, 5]) {
      const served = SERIALS.slice(0, count)
      const server = await serve(served)
      try {
        const tools = await listed(server)
        names.push(tools.map((t) => t.name))
        const tap = tools.find((t) => t.name === 'android_tap')!
        const devices = tools.find((t) => t.name === 'android_list_devices')!
        expect(devices.inputSchema.properties ?? {}, 'a tool that needs no device').to.not.have.property('device')
        if (count === 1) {
          expect(tap.inputSchema.properties).to.not.have.property('device')
          continue
        }
        expect(tap.inputSchema.properties?.device).to.deep.equal({enum: served})
        expect(tap.inputSchema.required).to.deep.equal(['x', 'y', 'device'])
        for (const tool of tools.filter((t) => t !== devices)) {
          expect(tool.inputSchema.required, tool.name).to.include('device')
        }
      } finally {
        await server.close()
      }
    }
    expect(names[1]).to.deep.equal(names[0])
    expect(names[2]).to.deep.equal(names[0])
  })

  it('runs each call on the device it names, by serial or by slug, and on no other', async () => {
    const server = await serve(['emu-1', 'two=emu-2', 'emu-3', 'emu-4', 'emu-5'])
    const client = await connect(server.url)
    try {
      for (const [device, serial] of [
        ['emu-1', 'emu-1'],
        ['two', 'emu-2'],
        ['emu-2', 'emu-2'],
        ['emu-5', 'emu-5'],
      ]) {
        const result = (await client.callTool({
          name: 'android_get_screen_state',
          arguments: {device, detail: 'compact'},
        })) as CallToolResult
        expect(result.isError, textOf(result)).to.not.equal(true)
        expect(textOf(result)).to.include(`Screen of ${serial}`)
        for (const other of SERIALS.filter((s) => s !== serial)) expect(textOf(result)).to.not.include(`of ${other}"`)
      }
      const from = emu.commands.length
      const tap = (await client.callTool({
        name: 'android_tap',
        arguments: {x: 10, y: 20, device: 'emu-4'},
      })) as CallToolResult
      expect(tap.isError, textOf(tap)).to.not.equal(true)
      const taps = emu.commands.slice(from).filter((c) => c.argv.includes('tap'))
      expect(taps.map((c) => c.serial)).to.deep.equal(['emu-4'])
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('refuses a call without device, or naming a device it does not serve, listing the devices', async () => {
    const server = await serve(['emu-1', 'emu-2'])
    const client = await connect(server.url)
    try {
      const from = emu.commands.length
      const missing = (await client.callTool({name: 'android_tap', arguments: {x: 1, y: 2}})) as CallToolResult
      expect(missing.isError).to.equal(true)
      expect(codeOf(missing)).to.equal('INVALID_INPUT')
      expect(textOf(missing)).to.match(/device is required.*"emu-1", "emu-2"/)
      const wrong = (await client.callTool({
        name: 'android_tap',
        arguments: {x: 1, y: 2, device: 'emu-3'},
      })) as CallToolResult
      expect(codeOf(wrong)).to.equal('INVALID_INPUT')
      expect(textOf(wrong)).to.match(/device must be one of "emu-1", "emu-2" \(got "emu-3"\)/)
      expect(emu.commands.slice(from), 'nothing reached any device').to.deep.equal([])
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('one device: device may be left out, and is accepted when it names that device', async () => {
    const server = await serve(['emu-3'])
    const client = await connect(server.url)
    try {
      const plain = (await client.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
      expect(textOf(plain)).to.include('Screen of emu-3')
      const named = (await client.callTool({
        name: 'android_get_screen_state',
        arguments: {device: 'emu-3'},
      })) as CallToolResult
      expect(textOf(named)).to.include('Screen of emu-3')
      const other = (await client.callTool({
        name: 'android_get_screen_state',
        arguments: {device: 'emu-1'},
      })) as CallToolResult
      expect(codeOf(other)).to.equal('INVALID_INPUT')
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('no --device with several attached: the refusal tells how to start the server, not to pass device', async () => {
    // The server serves its one default device and refuses a `device` argument, so an agent told to pass one is
    // sent from DEVICE_AMBIGUOUS to INVALID_INPUT and back: the fix is the server's command line.
    const server = await serve([])
    const client = await connect(server.url)
    try {
      const ambiguous = (await client.callTool({name: 'android_tap', arguments: {x: 1, y: 2}})) as CallToolResult
      expect(codeOf(ambiguous)).to.equal('DEVICE_AMBIGUOUS')
      expect(textOf(ambiguous)).to.not.match(/`device` argument of an MCP tool call/)
      expect(textOf(ambiguous)).to.match(/arc mcp serve --device emu-1 --device emu-2/)
      const named = (await client.callTool({
        name: 'android_tap',
        arguments: {x: 1, y: 2, device: 'emu-1'},
      })) as CallToolResult
      expect(codeOf(named)).to.equal('INVALID_INPUT')
      expect(textOf(named)).to.match(/arc mcp serve --device/)
    } finally {
      await client.close()
      await server.close()
    }
  })

  it('--slug-names keeps the spec names, one tool set per device, without a device argument', async () => {
    const server = await serve(['a=emu-1', 'b=emu-2'], {slugNames: true})
    try {
      const tools = await listed(server)
      const names = tools.map((t) => t.name)
      expect(names).to.include('android_a_tap').and.include('android_b_tap').and.not.include('android_tap')
      expect(tools.find((t) => t.name === 'android_a_tap')!.inputSchema.properties).to.not.have.property('device')
    } finally {
      await server.close()
    }
  })

  it('refuses two devices under one name', async () => {
    let error: {code?: string; message?: string} | undefined
    try {
      await serve(['emu-1', 'emu-1'])
    } catch (caught) {
      error = caught as {code?: string}
    }
    expect(error?.code).to.equal('INVALID_INPUT')
    expect(error?.message).to.match(/"emu-1" names two devices/)
  })

  it('refuses a listed name that is the serial of another served device (one string would name two devices)', async () => {
    let error: {code?: string; message?: string} | undefined
    try {
      await (await serve(['x=phone2', 'phone2=emu-1'])).close()
    } catch (caught) {
      error = caught as {code?: string}
    }
    expect(error?.code).to.equal('INVALID_INPUT')
    expect(error?.message).to.match(/"phone2" is the name of one device and the serial of another/)
  })
})

/**
 * A server started without --device serves the default device, whichever that is at each call: the one attached. A
 * phone unplugged and another plugged in (a long-running server of an MCP client's configuration) made the second the
 * default, and the stores the server kept per served device, not per device, let an id read on the first act on the
 * second. Here the adb server the MCP server talks to is a relay switched from one arc emulate to another, as the
 * server sees a device unplugged and another attached.
 */
describe('arc mcp serve without --device: the default device changes (one unplugged, another plugged in)', () => {
  let first: Emulator
  let second: Emulator
  let relay: Server
  let to = 0
  before(async () => {
    first = await startEmulator({port: 0, devices: [{serial: 'phone-a', snapshot: DEMO_DIR}]})
    second = await startEmulator({port: 0, devices: [{serial: 'phone-b', snapshot: DEMO_DIR}]})
    to = first.port
    relay = createServer((socket) => {
      const upstream = connectTcp(to, '127.0.0.1')
      socket.on('error', () => upstream.destroy())
      upstream.on('error', () => socket.destroy())
      socket.pipe(upstream).pipe(socket)
    })
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  })
  after(async () => {
    relay?.close()
    await first?.close()
    await second?.close()
  })

  it('an id read on the first device is refused on the second (OTHER_DEVICE), and acts there once the second is read', async () => {
    const port = (relay.address() as AddressInfo).port
    const server = await startServer({devices: [], adbHost: '127.0.0.1', adbPort: port})
    const client = await connect(server.url)
    const taps = () => second.device('phone-b').inputEvents.filter((e) => e.type === 'tap').length
    try {
      const found = (await client.callTool({
        name: 'android_find_elements',
        arguments: {by: 'text', value: 'ADD'},
      })) as CallToolResult
      const id = /node_[a-z0-9]+/.exec(textOf(found))?.[0] as string
      expect(id, textOf(found)).to.be.a('string')
      to = second.port
      const clicked = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: id},
      })) as CallToolResult
      expect(clicked.isError, textOf(clicked)).to.equal(true)
      expect(textOf(clicked)).to.match(
        /^Error \[STALE_ELEMENT\]: element node_\w+ was shown for another device, never for phone-b/
      )
      expect(taps()).to.equal(0)
      await client.callTool({name: 'android_get_screen_state', arguments: {}})
      const again = (await client.callTool({
        name: 'android_click_element',
        arguments: {element_id: id},
      })) as CallToolResult
      expect(again.isError, textOf(again)).to.not.equal(true)
      expect(taps()).to.equal(1)
    } finally {
      await client.close()
      await server.close()
    }
  })
})
