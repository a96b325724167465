/**
 * `npm run bench -- agent-task`: one scripted agent task through MCP, arc against mobile-mcp, on `arc emulate`'s live
 * demo app at a phone's own times (ARC_EMULATE_TIME_SCALE 1: a uiautomator dump waits for the idle UI as on a
 * phone). The task: read the screen, type "Apples" into the new-item field, tap ADD, read the screen to find the new
 * row's check box, tap it, read the screen to see it checked. Each agent decides from its own server's answers
 * (arc: the structured content of get_screen_state; mobile-mcp: its element list, refs and coordinates), and each
 * runs on a fresh device of its own. Per step: the time of the call as the client sees it, and the o200k tokens of
 * the text the model reads (the result's text content); and the tokens of each server's tools/list, which every
 * prompt carries. mobile-mcp (1.0.4, installed on demand: bench/support/peer.ts) runs where `adb` is installed.
 */
import {spawnSync} from 'node:child_process'
import path from 'node:path'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {fmt} from './stats.js'
import {mcpStdioCommand, startEmulate} from './support/arc-processes.js'
import {peerRequire} from './support/peer.js'

const MOBILE_MCP_VERSION = '1.0.4'
const ITEM = 'Apples'

interface Step {
  step: string
  tool: string
  ms: number
  tokens: number
}

const tokens = (text: string) => (text === '' ? 0 : encode(text).length)
const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')

/** Calls a tool, timing it and counting the tokens of what it returns; fails the run on an error result. */
function recorder(client: Client, steps: Step[]) {
  return async (step: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const t = performance.now()
    const result = (await client.callTool({name, arguments: args})) as CallToolResult
    const ms = performance.now() - t
    const text = textOf(result)
    steps.push({step, tool: name, ms, tokens: tokens(text)})
    if (result.isError) throw new Error(`${step}: ${name} failed: ${text.slice(0, 300)}`)
    return result
  }
}

interface Element {
  id: string
  text: string | null
  res_id: string | null
  bounds: {left: number; top: number; right: number; bottom: number}
  flags: string[]
}

const elementsOf = (result: CallToolResult) =>
  ((result.structuredContent as {windows: Array<{elements: Element[]}>}).windows ?? []).flatMap((w) => w.elements)

/** The check box in the same row as the element whose text is `text`. */
function checkBoxBeside(elements: Element[], text: string): Element | undefined {
  const row = elements.find((e) => e.text === text)
  if (!row) return undefined
  const y = (row.bounds.top + row.bounds.bottom) / 2
  return elements.find((e) => e.res_id?.endsWith(':id/item_done') && e.bounds.top <= y && y <= e.bounds.bottom)
}

async function arcAgent(
  port: number,
  serial: string,
  detail: 'full' | 'compact'
): Promise<{steps: Step[]; listTokens: number}> {
  const client = new Client({name: 'bench-agent', version: '0'})
  await client.connect(
    new StdioClientTransport({
      ...mcpStdioCommand(['--device', serial]),
      env: {...(process.env as Record<string, string>), NODE_OPTIONS: '', ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`},
      stderr: 'ignore',
    })
  )
  try {
    const listTokens = tokens(JSON.stringify((await client.listTools()).tools))
    const steps: Step[] = []
    const call = recorder(client, steps)
    const read = (step: string) => call(step, 'android_get_screen_state', {detail})
    const first = elementsOf(await read('read the screen'))
    const field = first.find((e) => e.res_id?.endsWith(':id/new_item'))
    const add = first.find((e) => e.res_id?.endsWith(':id/add_button'))
    if (!field || !add) throw new Error('arc: no new-item field or ADD button on the first screen')
    await call('type the item', 'android_type_append_text', {element_id: field.id, text: ITEM})
    await call('tap ADD', 'android_click_element', {element_id: add.id})
    const box = checkBoxBeside(elementsOf(await read('find the new row')), ITEM)
    if (!box) throw new Error(`arc: no check box beside ${ITEM}`)
    await call('tap its check box', 'android_click_element', {element_id: box.id})
    const after = checkBoxBeside(elementsOf(await read('see it checked')), ITEM)
    if (!after?.flags.includes('chk')) throw new Error(`arc: ${ITEM} is not checked at the end`)
    return {steps, listTokens}
  } finally {
    await client.close()
  }
}

/** One line of mobile-mcp's element list: `@e40 EditText text="…" id="…" at=42,231 size=738x126 …`. */
interface Listed {
  ref: string
  text?: string
  id?: string
  x: number
  y: number
  w: number
  h: number
  line: string
}

function listed(text: string): Listed[] {
  return text.split('\n').flatMap((line) => {
    const m = /^(@e\d+) .*?at=(\d+),(\d+) size=(\d+)x(\d+)/.exec(line)
    if (!m) return []
    return [
      {
        ref: m[1] as string,
        text: /text="((?:[^"\\]|\\.)*)"/.exec(line)?.[1],
        id: /id="([^"]*)"/.exec(line)?.[1],
        x: Number(m[2]),
        y: Number(m[3]),
        w: Number(m[4]),
        h: Number(m[5]),
        line,
      },
    ]
  })
}

function mmCheckBoxBeside(elements: Listed[], text: string): Listed | undefined {
  const row = elements.find((e) => e.text === text)
  if (!row) return undefined
  const y = row.y + row.h / 2
  return elements.find((e) => e.id?.endsWith(':id/item_done') && e.y <= y && y <= e.y + e.h)
}

async function mobileMcpAgent(port: number, serial: string): Promise<{steps: Step[]; listTokens: number} | string> {
  if (spawnSync('adb', ['version']).status !== 0) return 'adb is not installed (apt-get install -y adb)'
  const require = peerRequire('@mobilenext/mobile-mcp', MOBILE_MCP_VERSION)
  if (typeof require === 'string') return require
  // mobile-mcp reaches devices through mobilecli's resident daemon, which keeps the adb server it started with: one
  // already running would look at another adb server. The one started here is stopped at the end.
  const daemon = mobilecli(require)
  if (daemon && /"running":\s*true/.test(daemon('status'))) {
    return 'a mobilecli daemon is already running and would use its own adb server (mobilecli daemon stop, then run again)'
  }
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`,
  }
  delete env.ANDROID_HOME
  const client = new Client({name: 'bench-agent', version: '0'})
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [require.resolve('@mobilenext/mobile-mcp/lib/index.js')],
      env,
      stderr: 'ignore',
    })
  )
  try {
    const listTokens = tokens(JSON.stringify((await client.listTools()).tools))
    const steps: Step[] = []
    const call = recorder(client, steps)
    const device = {device: serial}
    const read = async (step: string) => listed(textOf(await call(step, 'mobile_list_elements_on_screen', device)))
    const first = await read('read the screen')
    const field = first.find((e) => e.id?.endsWith(':id/new_item'))
    const add = first.find((e) => e.id?.endsWith(':id/add_button'))
    if (!field || !add) throw new Error('mobile-mcp: no new-item field or ADD button on the first screen')
    // No typing into an element: focus the field with a tap, then type where the focus is.
    await call('focus the field', 'mobile_click_on_screen_at_coordinates', {...device, ref: field.ref})
    await call('type the item', 'mobile_type_keys', {...device, text: ITEM, submit: false})
    await call('tap ADD', 'mobile_click_on_screen_at_coordinates', {...device, ref: add.ref})
    const box = mmCheckBoxBeside(await read('find the new row'), ITEM)
    if (!box) throw new Error(`mobile-mcp: no check box beside ${ITEM}`)
    await call('tap its check box', 'mobile_click_on_screen_at_coordinates', {...device, ref: box.ref})
    if (!mmCheckBoxBeside(await read('see it checked'), ITEM)) throw new Error(`mobile-mcp: ${ITEM} is gone at the end`)
    // Its list does not say whether a box is checked: arc's own read of the device checks the task's end.
    if (!(await checkedOnDevice(port, serial, ITEM))) throw new Error(`mobile-mcp: ${ITEM} is not checked at the end`)
    return {steps, listTokens}
  } finally {
    await client.close()
    daemon?.('stop')
  }
}

/** Whether the device's check box beside `text` is checked, from a uiautomator dump read by arc's driver. */
async function checkedOnDevice(port: number, serial: string, text: string): Promise<boolean> {
  const driver = await connectAdbDriver({serial, port, host: '127.0.0.1', env: {}})
  const xml = (await driver.captureScreen()).xml
  await driver.close()
  const nodes = [...xml.matchAll(/<node [^>]*>/g)].map((m) => m[0])
  const attr = (node: string, name: string) => new RegExp(` ${name}="([^"]*)"`).exec(node)?.[1]
  const span = (node: string) => (attr(node, 'bounds') ?? '').match(/\d+/g)?.map(Number) ?? []
  const row = nodes.find((n) => attr(n, 'text') === text)
  if (!row) return false
  const [, top = 0, , bottom = 0] = span(row)
  const y = (top + bottom) / 2
  return nodes.some((n) => {
    const [, t = 0, , b = 0] = span(n)
    return attr(n, 'resource-id')?.endsWith(':id/item_done') && t <= y && y <= b && attr(n, 'checked') === 'true'
  })
}

/** Runs `mobilecli daemon <command>` from mobile-mcp's own install, where its binary for this platform is. */
function mobilecli(require: NodeJS.Require): ((command: string) => string) | undefined {
  const name = `@mobilenext/mobilecli-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  let binary: string
  try {
    binary = path.join(path.dirname(require.resolve(`${name}/package.json`)), name.split('/')[1] as string)
  } catch {
    return undefined
  }
  return (command) => spawnSync(binary, ['daemon', command], {encoding: 'utf8'}).stdout ?? ''
}

function report(name: string, run: {steps: Step[]; listTokens: number}): void {
  const ms = run.steps.reduce((s, x) => s + x.ms, 0)
  const toks = run.steps.reduce((s, x) => s + x.tokens, 0)
  console.log(
    `${name}: ${run.steps.length} calls, ${fmt(ms)} in all, ${toks} result tokens (tools/list: ${run.listTokens} tokens, in every prompt)`
  )
  console.log('| step | tool | ms | result tokens |')
  console.log('| --- | --- | ---: | ---: |')
  for (const s of run.steps) console.log(`| ${s.step} | \`${s.tool}\` | ${s.ms.toFixed(0)} | ${s.tokens} |`)
}

export default async function bench(): Promise<void> {
  const emulator = await startEmulate(['arcfull=demo', 'arccompact=demo', 'mm=demo'], 1)
  try {
    console.log(
      `task: type "${ITEM}" into the demo app's new-item field, tap ADD, tick the new row's check box; arc emulate at a phone's times (scale 1)`
    )
    report('arc (get_screen_state detail full, the default)', await arcAgent(emulator.port, 'arcfull', 'full'))
    report('arc (get_screen_state detail compact)', await arcAgent(emulator.port, 'arccompact', 'compact'))
    const mm = await mobileMcpAgent(emulator.port, 'mm')
    if (typeof mm === 'string') console.log(`mobile-mcp skipped: ${mm}`)
    else report(`mobile-mcp ${MOBILE_MCP_VERSION} (as installed: it starts the mobilecli daemon)`, mm)
  } finally {
    await emulator.stop()
  }
}
