/**
 * Element actions that wait (`--wait DURATION`, or the config's `elements.wait`): against `arc emulate`, a screen
 * without the element is shown first, and the screen with it only once arc has read the first one (the emulator
 * holds that first dump until the test has swapped the screen), so each case proves a retry with no timing
 * involved. The waits that run out use short durations and check only the outcome, never a count of reads.
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  buildScreenModel,
  defineTool,
  ElementNotFoundError,
  exitCodeFor,
  MemoryDeviceState,
  runTool,
  z,
  type Rect,
} from '@arc-cli/core'
import {expect} from 'chai'

import type {InputEvent} from '@arc-cli/emulator'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const ADD: Rect = [700, 300, 1000, 420]
const FIELD: Rect = [40, 300, 680, 420]
const LIST: Rect = [0, 500, 1080, 2300]

const app = (children: NodeSpec[]): NodeSpec[] => [{pkg: 'com.example', bounds: [0, 0, 1080, 2400], children}]
/** The screen while the app loads: a title and a spinner, no button, no field. */
const loading = app([
  {cls: 'android.widget.TextView', res: 'com.example:id/title', text: 'Groceries', bounds: [0, 100, 1080, 200]},
  {cls: 'android.widget.ProgressBar', res: 'com.example:id/spinner', bounds: [440, 1000, 640, 1200]},
])
/** The screen once loaded: a field, an ADD button and a list whose last row is half off screen. */
const ready = app([
  {cls: 'android.widget.TextView', res: 'com.example:id/title', text: 'Groceries', bounds: [0, 100, 1080, 200]},
  {
    cls: 'android.widget.EditText',
    res: 'com.example:id/new_item',
    text: '',
    attrs: {clickable: 'true', focusable: 'true', 'long-clickable': 'true'},
    bounds: FIELD,
  },
  {
    cls: 'android.widget.Button',
    res: 'com.example:id/add',
    text: 'ADD',
    attrs: {clickable: 'true', 'long-clickable': 'true'},
    bounds: ADD,
  },
  {
    cls: 'androidx.recyclerview.widget.RecyclerView',
    res: 'com.example:id/list',
    attrs: {scrollable: 'true'},
    bounds: LIST,
    children: [
      {cls: 'android.widget.TextView', text: 'Milk', bounds: [0, 500, 1080, 700]},
      {cls: 'android.widget.TextView', text: 'Eggs', bounds: [0, 700, 1080, 900]},
    ],
  },
])

const TIMEOUT_EXIT = exitCodeFor('TIMEOUT')
const NOT_FOUND_EXIT = exitCodeFor('ELEMENT_NOT_FOUND')

describe('element actions that wait: --wait and the config default retry until the element shows (arc emulate)', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'loading.xml'), dumpXml(loading))
    await writeFile(path.join(dir, 'ready.xml'), dumpXml(ready))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {loading: path.join(dir, 'loading.xml'), ready: path.join(dir, 'ready.xml')},
            initialScreen: 'loading',
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  const taps: Array<{screen: string; x: number; y: number}> = []
  before(() => {
    device().on('input', (event: InputEvent, shown: string) => {
      if (event.type === 'tap') taps.push({screen: shown, x: event.x, y: event.y})
    })
  })
  /** Every hold a test armed, released after it (a failed test must not leave a command waiting). */
  const holds: Array<{release(): void}> = []
  beforeEach(() => {
    device().showScreen('loading')
    taps.length = 0
  })
  afterEach(() => {
    for (const hold of holds.splice(0)) hold.release()
  })
  const arc = (args: string[], env: NodeJS.ProcessEnv = {}) => runArc(args, {env: {...h.env, ...env}})

  /**
   * Runs `arc …` while the loading screen shows; once arc's first read of it is done (its dump held until then),
   * shows the ready screen: any success after that is a later read's.
   */
  async function appearsLater(args: string[], env: NodeJS.ProcessEnv = {}) {
    const first = device().holdNext('uiautomator', 'after')
    holds.push(first)
    const running = arc(args, env)
    await first.arrived
    device().showScreen('ready')
    first.release()
    return running
  }

  const onAdd = (t: {screen: string; x: number; y: number}) =>
    t.screen === 'ready' && t.x >= ADD[0] && t.x < ADD[2] && t.y >= ADD[1] && t.y < ADD[3]

  it('click --text ADD --wait 30s: the first read has no ADD; a later one has, and the tap lands on it', async () => {
    const run = await appearsLater(['click', '--text', 'ADD', '--exact-match', '--wait', '30s'])
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(/^Click performed on element 'node_\w{6}' \(found by --text "ADD" --exact-match\)/)
    expect(taps).to.have.length(1)
    expect(onAdd(taps[0] as (typeof taps)[0]), JSON.stringify(taps)).to.equal(true)
  })

  it('without --wait the same click fails at once with ELEMENT_NOT_FOUND (exit 9), sending nothing', async () => {
    const run = await arc(['click', '--text', 'ADD'])
    expect(run.code, run.stderr).to.equal(NOT_FOUND_EXIT)
    expect(taps).to.deep.equal([])
  })

  it('the config default (elements.wait) makes every element action wait; --wait 0 turns it off', async () => {
    const config = path.join(h.dir, 'wait.arcrc.json')
    await writeFile(config, JSON.stringify({elements: {wait: '30s'}}))
    const run = await appearsLater(['long-click', '--text', 'ADD'], {ARC_CONFIG: config})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(/^Long-click performed on element/)

    device().showScreen('loading')
    const off = await arc(['click', '--text', 'ADD', '--wait', '0'], {ARC_CONFIG: config})
    expect(off.code, off.stderr).to.equal(NOT_FOUND_EXIT)
    const shown = await arc(['config', '--json'], {ARC_CONFIG: config})
    expect(shown.stdout).to.include('elements.wait')
  })

  it('a wait that runs out is TIMEOUT (exit 11), saying what never matched and how long it waited; nothing is tapped', async () => {
    const run = await arc(['click', '--text', 'Nope', '--wait', '600ms'])
    expect(run.code).to.equal(TIMEOUT_EXIT)
    expect(run.stderr).to.match(
      /^Error \[TIMEOUT\]: no element on the current screen matches --text "Nope" \(waited 600 ms: \d+ reads?\)/
    )
    const json = await arc(['click', '--text', 'Nope', '--wait', '0.6s', '--json'])
    expect(json.code).to.equal(TIMEOUT_EXIT)
    const {error} = JSON.parse(json.stdout) as {error: {code: string; details: Record<string, unknown>}}
    expect(error.code).to.equal('TIMEOUT')
    expect(error.details).to.deep.include({
      reason: 'ELEMENT_NOT_FOUND',
      wait_ms: 600,
      selector: {text: 'Nope'},
      exact_match: false,
    })
    expect(taps).to.deep.equal([])
  })

  it('type append --res-id waits for its field, then types into it', async () => {
    const run = await appearsLater([
      'type',
      'append',
      '--res-id',
      'com.example:id/new_item',
      'Oat milk',
      '--wait',
      '30s',
    ])
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(/Field content: Oat milk/)
  })

  it('scroll-to --text waits for a screen with the element or its list; details --ids and screenshot --element wait for an id', async () => {
    const scrolled = await appearsLater(['scroll-to', '--text', 'Milk', '--exact-match', '--wait', '30s'])
    expect(scrolled.code, scrolled.stderr).to.equal(0)
    expect(scrolled.stdout).to.match(
      /^Element 'node_\w{6}' \(found by --text "Milk" --exact-match\) is already visible/
    )

    // The ids of the ready screen, read while it shows; then the loading screen comes back.
    device().showScreen('ready')
    const found = await arc(['find', 'text', 'ADD', '--json'])
    const id = (JSON.parse(found.stdout) as {elements: Array<{id: string}>}).elements[0]?.id as string
    device().showScreen('loading')
    const details = await appearsLater(['details', '--ids', id, '--wait', '30s'])
    expect(details.code, details.stderr).to.equal(0)
    expect(details.stdout).to.equal(`id\ttext\tdesc\n${id}\tADD\t-\n`)

    device().showScreen('loading')
    const missing = await arc(['details', '--ids', id, '--wait', '500ms'])
    expect(missing.code).to.equal(TIMEOUT_EXIT)
    expect(missing.stdout).to.equal(`id\ttext\tdesc\n${id}\tnot_found\tnot_found\n`)

    device().showScreen('loading')
    const out = path.join(h.dir, 'add.png')
    const shot = await appearsLater(['screenshot', '--element', id, '-o', out, '--wait', '30s'])
    expect(shot.code, shot.stderr).to.equal(0)
    expect((await readFile(out)).subarray(1, 4).toString()).to.equal('PNG')
  })

  it('--wait is checked before anything runs: a malformed or out-of-range duration is INVALID_INPUT naming --wait', async () => {
    const from = h.emu.commands.length
    for (const bad of ['soon', '10x', '-1s', '25h']) {
      const run = await arc(['click', '--text', 'ADD', '--wait', bad])
      expect(run.code, `${bad}: ${run.stderr}`).to.equal(2)
      expect(run.stderr).to.match(/^Error \[INVALID_INPUT\]: --wait must be /)
    }
    const config = path.join(h.dir, 'bad-wait.arcrc.json')
    await writeFile(config, JSON.stringify({elements: {wait: 'later'}}))
    const bad = await arc(['click', '--text', 'ADD'], {ARC_CONFIG: config})
    expect(bad.code, bad.stderr).to.equal(3)
    expect(bad.stderr).to.include('elements.wait')
    expect(h.argvSince(from).filter((argv) => argv[0] === 'input')).to.deep.equal([])
  })

  it('wait element --timeout takes a duration past 30 s on the command line; MCP keeps the spec range (1-30000)', async () => {
    device().showScreen('ready')
    const run = await arc(['wait', 'element', 'text', 'ADD', '--timeout', '2m'])
    expect(run.code, run.stderr).to.equal(0)
    const [gone, idle] = await Promise.all([
      arc(['wait', 'gone', 'text', 'Nope', '--timeout', '45000']),
      arc(['wait', 'idle', '--timeout', '1.5m']),
    ])
    expect(gone.code, gone.stderr).to.equal(0)
    expect(idle.code, idle.stderr).to.equal(0)
    const asserted = await arc(['assert', 'visible', '--text', 'ADD', '--timeout', '45s'])
    expect(asserted.code, asserted.stderr).to.equal(0)
    const wait = tools.find((t) => t.name === 'wait_for_element')
    if (!wait) expect.fail('no wait_for_element tool')
    const deps = {
      config: {},
      cwd: process.cwd(),
      openDriver: () => h.driver(),
      stateFor: () => new MemoryDeviceState(),
    }
    const mcp = await runTool(wait, {input: {by: 'text', value: 'ADD', timeout: 31_000}}, deps).catch((e: unknown) => e)
    expect(mcp).to.have.property('code', 'INVALID_INPUT')
    expect((mcp as Error).message).to.include('timeout must be at most 30000')
  })

  it('between attempts the device is let go: another caller reads the screen while a click waits', async () => {
    const click = tools.find((t) => t.name === 'click_element')
    if (!click) expect.fail('no click_element tool')
    const first = device().holdNext('uiautomator', 'after')
    holds.push(first)
    const clicking = runTool(
      click,
      {input: {}, cliInput: {text: 'ADD', wait: '60s'}},
      {config: {}, cwd: process.cwd(), openDriver: () => h.driver(), stateFor: () => new MemoryDeviceState()}
    )
    await first.arrived
    first.release()
    // A whole read by another driver, while the click's wait goes on (the loading screen still shows).
    const model = buildScreenModel(await h.capture())
    expect(model.elements.some((e) => e.text === 'ADD')).to.equal(false)
    device().showScreen('ready')
    const result = await clicking
    expect(result.text).to.match(/^Click performed on element/)
    expect(taps.filter(onAdd)).to.have.length(1)
  })

  it('an attempt that sent input is never repeated, whatever it failed with', async () => {
    let calls = 0
    const tapsThenMisses = defineTool({
      name: 'taps_then_misses',
      title: 'test tool',
      description: 'Taps, then fails ELEMENT_NOT_FOUND.',
      kind: 'action',
      needs: {input: 'act'},
      holdsDevice: true,
      waitsForElement: true,
      input: z.object({}),
      cli: {id: 'taps-then-misses', input: z.object({wait: z.number().optional().describe('wait')})},
      async handler(ctx) {
        calls++
        await ctx.driver.tap({x: 10, y: 10})
        throw new ElementNotFoundError('gone after the tap')
      },
    })
    const error = await runTool(
      tapsThenMisses,
      {input: {}, cliInput: {wait: 60_000}},
      {config: {}, cwd: process.cwd(), openDriver: () => h.driver(), stateFor: () => new MemoryDeviceState()}
    ).catch((e: unknown) => e)
    expect(error).to.have.property('code', 'ELEMENT_NOT_FOUND')
    expect(calls).to.equal(1)
  })
})
