import {inflateSync} from 'node:zlib'
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import type {StartedHttp} from '@arc-cli/plugin-mcp'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {connect, startServer} from './support.js'

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

/** True when every pixel of an 8-bit RGB/RGBA PNG whose rows are unfiltered is black (how the device writes one). */
function allBlack(png: Buffer): boolean {
  let at = 8
  const idat: Buffer[] = []
  let width = 0
  let channels = 3
  while (at < png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const data = png.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      channels = data[9] === 6 ? 4 : 3
    }
    if (type === 'IDAT') idat.push(data)
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const row = 1 + width * channels
  for (let i = 0; i < raw.length; i++) {
    const inRow = i % row
    if (inRow === 0) {
      if (raw[i] !== 0) return false
    } else if ((inRow - 1) % channels < 3 && raw[i] !== 0) return false
  }
  return true
}

/**
 * A sleeping display and a FLAG_SECURE window capture black, and a touch on a sleeping display reaches nothing: the
 * virtual device behaves so (screencap; dumpsys window policy's mAwake), and arc's warnings reach whoever reads the
 * result (MCP text and structured content, --json), not only a terminal's stderr.
 */
describe('dark and secure screens: black captures, and warnings that reach agents', function () {
  this.timeout(60_000)
  let emu: Emulator
  let phone: StartedHttp
  let bank: StartedHttp
  let toPhone: Client
  let toBank: Client
  let env: NodeJS.ProcessEnv
  let dir: string
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-dark-'))
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {phone: {screens: {main: DEMO_DIR}}, bank: {screens: {login: {snapshot: DEMO_DIR, secure: true}}}},
      },
    })
    phone = await startServer({devices: ['phone'], adbHost: '127.0.0.1', adbPort: emu.port})
    bank = await startServer({devices: ['bank'], adbHost: '127.0.0.1', adbPort: emu.port})
    toPhone = await connect(phone.url)
    toBank = await connect(bank.url)
    env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
  })
  after(async () => {
    for (const c of [toPhone, toBank]) await c?.close()
    for (const s of [phone, bank]) await s?.close()
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })
  afterEach(() => {
    emu.device('phone').keyEvent(224)
  })

  const shot = async (serial: string) => {
    const file = path.join(dir, `${serial}-${Date.now()}.png`)
    const run = await runArc(['screenshot', '-o', file, '--device', serial], {env})
    expect(run.code, run.stderr).to.equal(0)
    return readFile(file)
  }

  it('screencap of a sleeping display and of a FLAG_SECURE window is black; the awake plain screen is not', async () => {
    expect(allBlack(await shot('phone'))).to.equal(false)
    emu.device('phone').keyEvent(223)
    expect(allBlack(await shot('phone'))).to.equal(true)
    expect(allBlack(await shot('bank'))).to.equal(true)
  })

  it('a black annotated screenshot is said in the MCP text and structured content, and in --json', async () => {
    const mcp = (await toBank.callTool({
      name: 'android_get_screen_state',
      arguments: {include_screenshot: true},
    })) as CallToolResult
    expect(mcp.isError).to.equal(undefined)
    expect(textOf(mcp)).to.match(/\n\nWarning: the screenshot is entirely black \(a secure window/)
    expect((mcp.structuredContent as {warnings: string[]}).warnings[0]).to.match(/^the screenshot is entirely black/)
    const cli = await runArc(
      ['screen-state', '--device', 'bank', '--json', '--screenshot', path.join(dir, 'bank.jpg')],
      {env}
    )
    expect(cli.code, cli.stderr).to.equal(0)
    expect((JSON.parse(cli.stdout) as {warnings: string[]}).warnings[0]).to.match(/^the screenshot is entirely black/)
  })

  it('a plain screenshot that comes out black says why: FLAG_SECURE (display on), or the display is off', async () => {
    const json = async (serial: string) => {
      const run = await runArc(
        ['screenshot', '-o', path.join(dir, `${serial}-json-${Date.now()}.png`), '--device', serial, '--json'],
        {env}
      )
      expect(run.code, run.stderr).to.equal(0)
      return JSON.parse(run.stdout) as {black?: boolean; warnings?: string[]}
    }
    const secure = await json('bank')
    expect(secure.black).to.equal(true)
    expect(secure.warnings).to.deep.equal([
      'the screenshot of bank is entirely black while its display is on: a window with FLAG_SECURE (a password, banking or protected video screen) blocks capture, or the screen really is black; screen-state still reads its elements',
    ])
    const awake = await json('phone')
    expect(awake).not.to.have.property('black')
    expect(awake).not.to.have.property('warnings')
    emu.device('phone').keyEvent(223)
    const asleep = await json('phone')
    expect(asleep.black).to.equal(true)
    expect(asleep.warnings?.[0]).to.match(/^the display of phone is off \(asleep\)/)
    // --element judges the whole capture before it cuts the element out of it.
    const field = await runArc(['find', 'text', 'Add an item', '--device', 'bank', '--json'], {env})
    const id = (JSON.parse(field.stdout) as {elements: Array<{id: string}>}).elements[0]?.id as string
    const cut = await runArc(
      ['screenshot', '--element', id, '-o', path.join(dir, 'bank-element.png'), '--device', 'bank', '--json'],
      {env}
    )
    expect(cut.code, cut.stderr).to.equal(0)
    expect(JSON.parse(cut.stdout)).to.deep.include({black: true, warnings: secure.warnings})
    const mcp = (await toBank.callTool({name: 'android_screenshot', arguments: {}})) as CallToolResult
    expect(mcp.isError).to.equal(undefined)
    expect(JSON.stringify(mcp.content)).to.include('Warning: the screenshot of bank is entirely black')
    expect(mcp.structuredContent).to.deep.include({black: true})
  })

  it('a screen read of a sleeping display says so (MCP text, --json); a tap there is refused and nothing is sent', async () => {
    emu.device('phone').keyEvent(223)
    const read = (await toPhone.callTool({name: 'android_get_screen_state', arguments: {}})) as CallToolResult
    expect(textOf(read)).to.include('Warning: the display of phone is off (asleep)')
    const cli = await runArc(['screen-state', '--device', 'phone', '--json'], {env})
    expect((JSON.parse(cli.stdout) as {warnings: string[]}).warnings).to.deep.equal([
      'the display of phone is off (asleep): the screen read lists what the apps would draw, but a screenshot is black and a tap reaches nothing; wake it first (arc device unlock, or press key WAKEUP)',
    ])
    const before = emu.device('phone').inputEvents.length
    const tap = await runArc(['tap', '100', '100', '--device', 'phone'], {env})
    expect(tap.code).to.equal(8)
    expect(tap.stderr).to.include(
      'the display of phone is off (asleep): a tap would reach nothing, so nothing was sent'
    )
    const mcpTap = (await toPhone.callTool({name: 'android_tap', arguments: {x: 100, y: 100}})) as CallToolResult
    expect(mcpTap.isError).to.equal(true)
    expect(textOf(mcpTap)).to.include('a tap would reach nothing')
    expect(emu.device('phone').inputEvents.slice(before)).to.deep.equal([])
  })

  it('awake, the same read carries no warnings and the tap goes through', async () => {
    const cli = await runArc(['screen-state', '--device', 'phone', '--json'], {env})
    expect(JSON.parse(cli.stdout)).not.to.have.property('warnings')
    expect((await runArc(['tap', '100', '100', '--device', 'phone'], {env})).code).to.equal(0)
  })
})
