/**
 * The promise of an element id under any interleaving: a tap is only ever sent against the screen its id was
 * resolved on. Many MCP clients and several arc processes drive one `arc emulate` device whose BACK key swaps the
 * screen under the button they click; every tap the device receives is checked against the screen it landed on.
 * The emulator's holds (a slow `uiautomator dump`, a slow `input keyevent`) put each caller exactly where the issue
 * found them (client B pressing back while client A's click waits), with no timing involved.
 */
import {spawn} from 'node:child_process'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel, type Rect} from '@arc-cli/core'
import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'
import {expect} from 'chai'

import {lockKey, queueState} from '@arc-cli/core/testing'
import type {InputEvent} from '@arc-cli/emulator'
import {serveHttp} from '@arc-cli/plugin-mcp'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {connectMcp} from '@arc-cli/test-support/mcp-client'
import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {ROOT} from '@arc-cli/test-support/paths'

const BUTTON: Rect = [100, 1500, 980, 1650]

/** An app screen with one button where the button of the other screen is: "form" has Submit, "other" Delete. */
const screen = (title: string, button: string): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/title', text: title, bounds: [0, 100, 1080, 200]},
      {
        cls: 'android.widget.Button',
        res: `com.example:id/${button.toLowerCase()}`,
        text: button,
        attrs: {clickable: 'true'},
        bounds: BUTTON,
      },
    ],
  },
]

/** Three look-alike rows, each with an "Add" button that only its place tells apart; `from` drops the rows above it. */
const rows = (from = 0): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [0, 1, 2].slice(from).map((i, at) => ({
      cls: 'android.widget.Button',
      text: 'Add',
      attrs: {clickable: 'true'},
      bounds: [0, 300 + at * 200, 1080, 500 + at * 200] as [number, number, number, number],
    })),
  },
]

interface Tap {
  screen: string
  x: number
  y: number
}

/**
 * Polls `condition`; gives up after `polls` tries (a guard so that a test whose condition never holds fails and
 * lets the run end, not a timing: nothing asserts how long it took).
 */
async function until(condition: () => boolean, what: string, polls = 4000): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i >= polls) throw new Error(`never happened: ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

const TOKEN = 'device-section-token-0123456789abcdef'

const connect = (url: string) => connectMcp(url, TOKEN)

const textOf = (result: CallToolResult) => (result.content[0] as {text: string}).text

/** A spawned arc whose stderr can be watched while it runs. */
function spawnArc(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, arcNodeArgs(args), {
    cwd: ROOT,
    env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const done = new Promise<{code: number; stdout: string; stderr: string}>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
  })
  return {done, stderr: () => stderr}
}

describe('element actions hold the device from the read that resolves an id to the tap', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'form.xml'), dumpXml(screen('Form', 'Submit')))
    await writeFile(path.join(dir, 'other.xml'), dumpXml(screen('Other', 'Delete')))
    await writeFile(path.join(dir, 'rows.xml'), dumpXml(rows()))
    await writeFile(path.join(dir, 'rows-scrolled.xml'), dumpXml(rows(1)))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              form: path.join(dir, 'form.xml'),
              other: path.join(dir, 'other.xml'),
              rows: path.join(dir, 'rows.xml'),
              scrolled: path.join(dir, 'rows-scrolled.xml'),
            },
            // Where an input leads, not when its screen shows: a screen a tap or key opens shows at once (a phone's transition
            // time, which the reads after an action wait for, is test/tools/read-after-action.test.ts's).
            timing: {transitionMs: 0},
            transitions: [
              {from: 'form', keyevent: 'BACK', to: 'other'},
              {from: 'other', keyevent: 'BACK', to: 'form'},
            ],
          },
        },
      },
    }
  })
  const taps: Tap[] = []
  let submit: string
  let key: string
  let server: Awaited<ReturnType<typeof serveHttp>>
  const clients: Client[] = []
  const device = () => h.emu.device('emu-1')
  /** Every hold a test armed, released after it (a failed test must not leave a command waiting). */
  const holds: Array<{release(): void}> = []
  const holdNext = (command: string, when: 'before' | 'after') => {
    const hold = device().holdNext(command, when)
    holds.push(hold)
    return hold
  }
  afterEach(() => {
    for (const hold of holds.splice(0)) hold.release()
  })
  /** Taps that reached anything but Submit on the form screen: every click here is of Submit's id. */
  const wrongTaps = () =>
    taps.filter(
      (t) => !(t.screen === 'form' && t.x >= BUTTON[0] && t.x < BUTTON[2] && t.y >= BUTTON[1] && t.y < BUTTON[3])
    )

  before(async () => {
    device().on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push({screen: shown, x: event.x, y: event.y})
    })
    key = lockKey('127.0.0.1', h.emu.port, 'emu-1')
    // The tools as this file imports them: one copy of arc's modules, as in the built CLI.
    server = await serveHttp({
      tools: [...tools, ...screenTools],
      config: {},
      token: TOKEN,
      port: 0,
      devices: ['emu-1'],
      adbHost: '127.0.0.1',
      adbPort: h.emu.port,
    })
    for (let i = 0; i < 8; i++) clients.push(await connect(server.url))
  })
  after(async () => {
    for (const client of clients) await client.close()
    await server?.close()
  })
  beforeEach(async () => {
    device().showScreen('form')
    taps.length = 0
    const model = buildScreenModel(await h.capture())
    submit = model.elements.find((e) => e.text === 'Submit')?.id as string
    // Every client has seen the screen (the ids it clicks are ones it was shown).
    await clients[0]?.callTool({name: 'android_get_screen_state', arguments: {}})
  })

  const click = (client: Client) =>
    client.callTool({name: 'android_click_element', arguments: {element_id: submit}}) as Promise<CallToolResult>
  const back = (client: Client) =>
    client.callTool({name: 'android_press_key', arguments: {key: 'BACK'}}) as Promise<CallToolResult>

  it("client B presses back while client A's click reads the screen: B waits, and A's tap lands on the button it resolved", async () => {
    const [a, b] = clients as [Client, Client]
    const slowDump = holdNext('uiautomator', 'after')
    const clicking = click(a)
    await slowDump.arrived
    const pressing = back(b)
    // B is queued behind A's click (or, where nothing holds the device, it already went through).
    let pressed = false
    void pressing.then(() => (pressed = true))
    await until(() => pressed || queueState(key).waiting >= 1, 'B pressed back or waits for the device')
    slowDump.release()
    const [clicked, backed] = await Promise.all([clicking, pressing])
    expect(wrongTaps()).to.deep.equal([])
    expect(clicked.isError, textOf(clicked)).to.not.equal(true)
    expect(textOf(clicked)).to.equal(`Click performed on element '${submit}'`)
    expect(backed.isError, textOf(backed)).to.not.equal(true)
    expect(taps).to.have.length(1)
    expect(device().screenName).to.equal('other')
  })

  it("client B's back holds the device while A's click waits: A resolves on the new screen and fails with STALE_ELEMENT, sending nothing", async () => {
    const [a, b] = clients as [Client, Client]
    const slowKey = holdNext('input keyevent', 'before')
    const pressing = back(b)
    await slowKey.arrived
    const clicking = click(a)
    let clickedFirst = false
    void clicking.then(() => (clickedFirst = true))
    await until(() => clickedFirst || queueState(key).waiting >= 1, 'A clicked or waits for the device')
    slowKey.release()
    const [clicked] = await Promise.all([clicking, pressing])
    expect(wrongTaps()).to.deep.equal([])
    expect(taps).to.deep.equal([])
    expect(clicked.isError).to.equal(true)
    expect(textOf(clicked)).to.match(/^Error \[STALE_ELEMENT\]: element node_\w+ is stale/)
  })

  it('a screen read never overlaps another on the device: in this process, and from another arc process', async () => {
    const slowDump = holdNext('uiautomator', 'after')
    const from = h.emu.commands.length
    const drivers = await Promise.all(Array.from({length: 4}, () => h.driver()))
    const reads = drivers.map((d) => d.captureScreen())
    await slowDump.arrived
    await until(() => queueState(key).waiting === 3, 'three reads wait for the first')
    const cli = spawnArc(['screen-state', '--detail', 'compact'], {...h.env, DEBUG: 'arc*'})
    await until(() => cli.stderr().includes('waiting for 127.0.0.1'), 'the arc process waits for the device')
    const dumps = () => h.emu.commands.slice(from).filter((c) => c.argv[0] === 'uiautomator').length
    expect(dumps()).to.equal(1)
    slowDump.release()
    await Promise.all(reads)
    const run = await cli.done
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.match(/arc: waiting for 127\.0\.0\.1:\d+\/emu-1: arc process \d+ is using it/)
    expect(dumps()).to.equal(5)
    await Promise.all(drivers.map((d) => d.close()))
  })

  it("across arc processes: `arc press back` waits while `arc click`'s read holds the device, and the tap lands where it was resolved", async () => {
    const shown = await spawnArc(['screen-state'], h.env).done
    expect(shown.code, shown.stderr).to.equal(0)
    const slowDump = holdNext('uiautomator', 'after')
    const clicking = spawnArc(['click', submit], h.env)
    await slowDump.arrived
    const pressing = spawnArc(['press', 'back'], {...h.env, DEBUG: 'arc*'})
    let pressed = false
    void pressing.done.then(() => (pressed = true))
    await until(
      () => pressed || pressing.stderr().includes('waiting for'),
      'arc press back ended or waits for the device'
    )
    slowDump.release()
    const [clicked, backed] = await Promise.all([clicking.done, pressing.done])
    expect(wrongTaps()).to.deep.equal([])
    expect(clicked.code, clicked.stderr).to.equal(0)
    expect(backed.code, backed.stderr).to.equal(0)
    expect(taps).to.have.length(1)
  })

  it('many MCP clients and several arc processes clicking and pressing back at once: 0 wrong taps', async () => {
    const shown = await spawnArc(['screen-state'], h.env).done
    expect(shown.code, shown.stderr).to.equal(0)
    const rounds = 4
    const mcp = clients.map((client, i) =>
      (async () => {
        const outcomes: string[] = []
        for (let r = 0; r < rounds; r++) {
          const result = i % 3 === 2 ? await back(client) : await click(client)
          outcomes.push(result.isError ? (/\[(\w+)\]/.exec(textOf(result))?.[1] ?? 'error') : 'ok')
        }
        return outcomes
      })()
    )
    const cli = [
      spawnArc(['click', submit], h.env).done,
      spawnArc(['press', 'back'], h.env).done,
      spawnArc(['click', submit], h.env).done,
      spawnArc(['press', 'back'], h.env).done,
    ]
    const outcomes = (await Promise.all(mcp)).flat()
    const runs = await Promise.all(cli)
    expect(wrongTaps()).to.deep.equal([])
    // Every click either tapped Submit on the form or refused as stale; nothing else went wrong.
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'STALE_ELEMENT')).to.deep.equal([])
    for (const run of runs) expect([0, 18], run.stderr).to.include(run.code)
    expect(taps.length).to.be.greaterThan(0)
  })

  it("a look-alike's ordinal id acts only while the group it was counted in is unchanged, else STALE_ELEMENT, never another member", async () => {
    const [a] = clients as [Client]
    device().showScreen('rows')
    await a.callTool({name: 'android_get_screen_state', arguments: {}})
    const adds = buildScreenModel(await h.capture())
      .elements.filter((e) => e.text === 'Add')
      .map((e) => e.id)
    expect(adds.map((id) => id.slice(-2))).to.deep.equal(['-1', '-2', '-3'])
    taps.length = 0
    const second = adds[1] as string
    const clicked = (await a.callTool({
      name: 'android_click_element',
      arguments: {element_id: second},
    })) as CallToolResult
    expect(clicked.isError, textOf(clicked)).to.not.equal(true)
    expect(taps).to.deep.equal([{screen: 'rows', x: 540, y: 600}])
    // The first row scrolled away: "-2" now counts what was the third row. Refused, nothing sent.
    device().showScreen('scrolled')
    const moved = (await a.callTool({name: 'android_click_element', arguments: {element_id: second}})) as CallToolResult
    expect(moved.isError).to.equal(true)
    expect(textOf(moved)).to.match(
      /^Error \[STALE_ELEMENT\]: element node_\w+-2 is stale: it is one of several look-alike Button "Add"/
    )
    expect(taps).to.have.length(1)
    // An ordinal id this device's records never held (another cache folder): nothing to compare its group with.
    device().showScreen('rows')
    const fresh = await spawnArc(['click', second], {...h.env, ARC_CACHE_DIR: path.join(h.dir, 'fresh-cache')}).done
    expect(fresh.code, fresh.stderr).to.equal(18)
    expect(fresh.stderr).to.include('arc has no record of the group it was counted in')
    expect(taps).to.have.length(1)
  })
})
