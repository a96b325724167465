/**
 * `arc screenshot` and `arc assert screenshot` take the element as click does (issue 25, one selector form): an id
 * (`--element`) or a selector (`--text/--desc/--res-id/--class-name`, `--exact-match`, a resource id with or without
 * its package, the positional `BY VALUE`), resolved by core's resolveTarget on one read that the crop then uses, and
 * waiting for it with `--wait` (TIMEOUT, exit 11, when the wait runs out). Played on arc emulate with the demo screen,
 * a screen without the ADD button, and the demo screen whose ADD button reads SEND (same id, another element now).
 */
import {readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, exitCodeFor, inputJsonSchema, SnapshotDriver} from '@arc-cli/core'
import {expect} from 'chai'

import {assertScreenshot} from '../src/tools/assert-screenshot.js'
import {screenshot} from '../src/tools/screenshot.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const demo = buildScreenModel(await (await SnapshotDriver.open(DEMO_DIR)).captureScreen())
const ADD = demo.elements.find((e) => e.resId === 'dev.arc.demo.groceries:id/add_button')!
const CHECKBOXES = demo.elements.filter((e) => e.className === 'CheckBox')

const EXIT = {
  invalid: exitCodeFor('INVALID_INPUT'),
  notFound: exitCodeFor('ELEMENT_NOT_FOUND'),
  ambiguous: exitCodeFor('ELEMENT_AMBIGUOUS'),
  stale: exitCodeFor('STALE_ELEMENT'),
  timeout: exitCodeFor('TIMEOUT'),
}

describe('screenshot --element and assert screenshot --element: one selector form, with --wait (arc emulate)', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    const loading = path.join(dir, 'loading.xml')
    await writeFile(
      loading,
      dumpXml([
        {
          pkg: 'dev.arc.demo.groceries',
          bounds: [0, 0, 1080, 2400],
          children: [{cls: 'android.widget.ProgressBar', bounds: [440, 1000, 640, 1200]}],
        },
      ])
    )
    // The demo screen with its ADD button reading SEND: the id it had (anchored by its resource id) names it still.
    const send = path.join(dir, 'send.xml')
    const xml = await readFile(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8')
    expect(xml).to.include('text="ADD"')
    await writeFile(send, xml.replace('text="ADD"', 'text="SEND"'))
    return {
      devices: [],
      scenario: {devices: {'emu-1': {screens: {demo: DEMO_DIR, loading, send}, initialScreen: 'demo'}}},
    }
  })
  const device = () => h.emu.device('emu-1')
  const arcWith = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    runArc([...args, '--device', 'emu-1'], {env: {...h.env, ...env}, cwd: h.dir})
  const arc = (...args: string[]) => arcWith({}, ...args)
  const out = (name: string) => path.join(h.dir, name)
  /** The device programs run since `from`, by name: `uiautomator` (a read of the screen), `screencap`… */
  const ran = (from: number, name: string) => h.argvSince(from).filter((argv) => argv[0] === name).length
  const holds: Array<{release(): void}> = []
  beforeEach(() => device().showScreen('demo'))
  afterEach(() => {
    for (const hold of holds.splice(0)) hold.release()
  })

  /** Runs arc while the loading screen shows; once its first read is done (held until then), shows the demo. */
  const appearsLater = (...args: string[]) => appearsLaterWith({}, ...args)
  async function appearsLaterWith(env: NodeJS.ProcessEnv, ...args: string[]) {
    device().showScreen('loading')
    const first = device().holdNext('uiautomator', 'after')
    holds.push(first)
    const running = arcWith(env, ...args)
    await first.arrived
    device().showScreen('demo')
    first.release()
    return running
  }

  it('--text, BY VALUE and a resource id without its package cut the same pixels as --element ID, from one read', async () => {
    const byId = await arc('screenshot', '--element', ADD.id, '-o', 'by-id.png')
    expect(byId.code, byId.stderr).to.equal(0)
    const shots = [
      ['--text', 'ADD', '--exact-match'],
      ['text', 'ADD', '--exact-match'],
      ['--res-id', 'add_button', '--exact-match'],
      ['resource_id', 'dev.arc.demo.groceries:id/add_button'],
      ['--text', 'AD', '--class-name', 'Button'],
    ]
    for (const [i, selector] of shots.entries()) {
      const from = h.emu.commands.length
      const run = await arc('screenshot', ...selector, '-o', `by-selector-${i}.png`)
      expect(run.code, `${selector.join(' ')}: ${run.stderr}`).to.equal(0)
      expect(run.stdout).to.match(new RegExp(`^Screenshot of ${ADD.id} \\(found by --`))
      expect((await readFile(out(`by-selector-${i}.png`))).equals(await readFile(out('by-id.png')))).to.equal(true)
      // The element is resolved on one read of the screen, and the crop is placed by that same read.
      expect(ran(from, 'uiautomator'), selector.join(' ')).to.equal(1)
    }
    const json = await arc('screenshot', '--text', 'ADD', '--exact-match', '-o', 'add.png', '--json')
    expect(json.code, json.stderr).to.equal(0)
    const [left, top, right, bottom] = ADD.bounds
    expect(JSON.parse(json.stdout)).to.deep.include({
      element_id: ADD.id,
      bounds: {left, top, right, bottom},
      selector: {text: 'ADD', exact_match: true},
    })
  })

  it('no match is ELEMENT_NOT_FOUND (9), several ELEMENT_AMBIGUOUS (20) with the candidates: no screencap, no file', async () => {
    const before = (await readdir(h.dir)).sort()
    const from = h.emu.commands.length
    const none = await arc('screenshot', '--text', 'Nope', '-o', 'none.png')
    expect(none.code, none.stderr).to.equal(EXIT.notFound)
    expect(none.stderr).to.match(/^Error \[ELEMENT_NOT_FOUND\]: no element on the current screen matches --text "Nope"/)
    const several = await arc('screenshot', '--class-name', 'CheckBox', '-o', 'several.png', '--json')
    expect(several.code, several.stderr).to.equal(EXIT.ambiguous)
    const {error} = JSON.parse(several.stdout) as {error: {code: string; details: {candidates: Array<{id: string}>}}}
    expect(error.code).to.equal('ELEMENT_AMBIGUOUS')
    expect(error.details.candidates.map((c) => c.id)).to.deep.equal(CHECKBOXES.map((e) => e.id))
    const assertSeveral = await arc('assert', 'screenshot', 'base/several.png', 'class_name', 'CheckBox')
    expect(assertSeveral.code, assertSeveral.stderr).to.equal(EXIT.ambiguous)
    expect(assertSeveral.stderr).to.include(`${CHECKBOXES.length} elements match --class-name "CheckBox"`)
    expect(assertSeveral.stderr).to.include('as --element in place of the selector')
    expect(ran(from, 'screencap')).to.equal(0)
    expect((await readdir(h.dir)).sort()).to.deep.equal([...before, 'base'].sort())
    expect(await readdir(out('base'))).to.deep.equal([])
  })

  it('an id with a selector, or --exact-match alone, is INVALID_INPUT before the device is read', async () => {
    const from = h.emu.commands.length
    const both = await arc('screenshot', '--element', ADD.id, '--text', 'ADD', '-o', 'both.png')
    expect(both.code, both.stderr).to.equal(EXIT.invalid)
    expect(both.stderr).to.include(`both an element id (${ADD.id}) and a selector (--text "ADD") were given`)
    const alone = await arc('assert', 'screenshot', 'base/alone.png', '--exact-match')
    expect(alone.code, alone.stderr).to.equal(EXIT.invalid)
    expect(alone.stderr).to.include('--exact-match applies to a selector, and none was given')
    expect(ran(from, 'uiautomator')).to.equal(0)
  })

  it("--wait with no element is INVALID_INPUT before the device is read; the config's elements.wait leaves a whole-screen shot alone", async () => {
    const from = h.emu.commands.length
    const shot = await arc('screenshot', '-o', 'no-element.png', '--wait', '2s')
    expect(shot.code, shot.stderr).to.equal(EXIT.invalid)
    expect(shot.stderr).to.include('--wait waits for the element to cut to, and none was named')
    const asserted = await arc('assert', 'screenshot', 'base/no-element.png', '--wait', '2s', '--json')
    expect(asserted.code, asserted.stderr).to.equal(EXIT.invalid)
    expect(JSON.parse(asserted.stdout).error.details).to.deep.include({input: 'wait'})
    expect(ran(from, 'uiautomator') + ran(from, 'screencap')).to.equal(0)
    expect(await readdir(h.dir)).to.not.include('no-element.png')
    const config = out('whole.arcrc.json')
    await writeFile(config, JSON.stringify({elements: {wait: '30s'}}))
    const whole = await arcWith({ARC_CONFIG: config}, 'screenshot', '-o', 'whole.png')
    expect(whole.code, whole.stderr).to.equal(0)
    expect(await readdir(h.dir)).to.include('whole.png')
  })

  it('--wait reads again until the element shows; a wait that runs out is TIMEOUT (11), writing nothing', async () => {
    const shot = await appearsLater('screenshot', '--text', 'ADD', '--exact-match', '-o', 'waited.png', '--wait', '30s')
    expect(shot.code, shot.stderr).to.equal(0)
    expect(shot.stdout).to.match(new RegExp(`^Screenshot of ${ADD.id} \\(found by --text "ADD" --exact-match\\)`))
    const compared = await appearsLater(
      'assert',
      'screenshot',
      'base/add.png',
      'text',
      'ADD',
      '--exact-match',
      '--wait',
      '30s'
    )
    expect(compared.code, compared.stderr).to.equal(0)
    expect(compared.stdout).to.include(`from element ${ADD.id} (found by --text "ADD" --exact-match)`)
    expect((await readFile(out('base/add.png'))).equals(await readFile(out('waited.png')))).to.equal(true)

    device().showScreen('loading')
    const run = await arc('screenshot', '--text', 'ADD', '-o', 'never.png', '--wait', '600ms', '--json')
    expect(run.code, run.stderr).to.equal(EXIT.timeout)
    const {error} = JSON.parse(run.stdout) as {error: {code: string; details: Record<string, unknown>}}
    expect(error.code).to.equal('TIMEOUT')
    expect(error.details).to.deep.include({reason: 'ELEMENT_NOT_FOUND', wait_ms: 600, selector: {text: 'ADD'}})
    const asserted = await arc('assert', 'screenshot', 'base/never.png', '--element', ADD.id, '--wait', '600ms')
    expect(asserted.code, asserted.stderr).to.equal(EXIT.timeout)
    // The id was shown (remembered) and its element left the screen: the wait ends on that NOT_ON_SCREEN read.
    expect(asserted.stderr).to.match(
      new RegExp(`^Error \\[TIMEOUT\\]: element ${ADD.id} is stale: .* is no longer on it \\(waited 600 ms`)
    )
    const without = await arc('assert', 'screenshot', 'base/never.png', '--text', 'ADD')
    expect(without.code, without.stderr).to.equal(EXIT.notFound)
    expect(await readdir(h.dir)).to.not.include('never.png')
    expect(await readdir(out('base'))).to.not.include('never.png')
  })

  it("the config's elements.wait makes them wait without --wait; --wait 0 turns it off", async () => {
    const config = out('wait.arcrc.json')
    await writeFile(config, JSON.stringify({elements: {wait: '30s'}}))
    const env = {ARC_CONFIG: config}
    const shot = await appearsLaterWith(env, 'screenshot', '--text', 'ADD', '--exact-match', '-o', 'config.png')
    expect(shot.code, shot.stderr).to.equal(0)
    const compared = await appearsLaterWith(env, 'assert', 'screenshot', 'config.png', '--text', 'ADD', '--exact-match')
    expect(compared.code, compared.stderr).to.equal(0)
    expect(compared.stdout).to.include(`element ${ADD.id} (found by --text "ADD" --exact-match) matches`)
    device().showScreen('loading')
    const off = await arcWith(env, 'assert', 'screenshot', 'config.png', '--text', 'ADD', '--wait', '0')
    expect(off.code, off.stderr).to.equal(EXIT.notFound)
  })

  it('an id that names another element now is STALE_ELEMENT (18), where the selector finds what the screen shows', async () => {
    expect((await arc('find', 'text', 'ADD', '--exact-match')).code).to.equal(0)
    device().showScreen('send')
    const stale = await arc('screenshot', '--element', ADD.id, '-o', 'stale.png', '--json')
    expect(stale.code, stale.stderr).to.equal(EXIT.stale)
    expect(JSON.parse(stale.stdout).error.details).to.deep.include({element_id: ADD.id, reason: 'CHANGED'})
    const staleAssert = await arc('assert', 'screenshot', 'base/stale.png', '--element', ADD.id)
    expect(staleAssert.code, staleAssert.stderr).to.equal(EXIT.stale)
    const send = await arc('screenshot', '--text', 'SEND', '--exact-match', '-o', 'send.png')
    expect(send.code, send.stderr).to.equal(0)
    expect(send.stdout).to.match(new RegExp(`^Screenshot of ${ADD.id} \\(found by --text "SEND" --exact-match\\)`))
  })

  it("MCP's android_screenshot keeps the spec's inputs; the selectors and --wait are the command line's", () => {
    expect(Object.keys(inputJsonSchema(screenshot.input).properties ?? {})).to.deep.equal([
      'format',
      'quality',
      'max_size',
    ])
    for (const tool of [screenshot, assertScreenshot]) {
      expect(Object.keys(tool.cli.input?.shape ?? {})).to.include.members([
        'element',
        'text',
        'desc',
        'res_id',
        'class_name',
        'exact_match',
        'wait',
      ])
    }
  })
})
