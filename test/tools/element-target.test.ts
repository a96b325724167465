import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR, MemoryDeviceState, runTool, type ScreenModel} from '@arc-cli/core'
import {inputSchemaFor} from '@arc-cli/plugin-mcp'
import {expect} from 'chai'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {clickElement} from '../../src/tools/click-element.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

/**
 * Element actions with a selector in place of an id (`arc click --text Submit`), run as a user runs them, against
 * `arc emulate` showing the demo screen: the device commands each sends are read from the emulator's log.
 */
describe('element actions by selector (--text, --desc, --res-id, --class-name)', function () {
  this.timeout(60_000)
  // Its own cache folder (the harness's env): the ids a run shows are remembered there, for the next run's stale-id check.
  const h = useEmulator(async (dir) => {
    await writeFile(
      path.join(dir, 'other.xml'),
      dumpXml([
        {
          pkg: 'com.example',
          bounds: [0, 0, 1080, 2400],
          children: [
            {cls: 'android.widget.Button', text: 'Elsewhere', attrs: {clickable: 'true'}, bounds: [0, 0, 500, 200]},
          ],
        },
      ])
    )
    return {
      devices: [],
      scenario: {devices: {'emu-1': {screens: {demo: DEMO_DIR, other: path.join(dir, 'other.xml')}}}},
    }
  })
  let demo: ScreenModel

  before(async () => {
    h.emu.device('emu-1').showScreen('demo')
    demo = buildScreenModel(await h.capture())
  })
  beforeEach(() => h.emu.device('emu-1').showScreen('demo'))

  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const idOf = (label: string) => demo.elements.find((e) => e.text === label || e.desc === label)!.id
  const inputsSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv)
      .filter((a) => a[0] === 'input')

  it('one match: acts on it, says which element, and --json reports the id and the selector', async () => {
    const from = h.emu.commands.length
    const run = await arc('click', '--text', 'ADD', '--exact-match')
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout.trim()).to.equal(
      `Click performed on element '${idOf('ADD')}' (found by --text "ADD" --exact-match)`
    )
    expect(inputsSince(from)).to.deep.equal([['input', 'tap', '919', '294']])
    const json = JSON.parse((await arc('click', '--desc', 'search', '--json')).stdout)
    expect(json).to.deep.equal({
      element_id: idOf('Search'),
      x: 891,
      y: 137,
      selector: {desc: 'search', exact_match: false},
    })
  })

  it('long-click, scroll-to and type clear take the same selectors', async () => {
    let from = h.emu.commands.length
    const long = await arc('long-click', '--text', 'Oat milk', '--exact-match')
    expect(long.code).to.equal(0)
    expect(long.stdout.trim()).to.equal(
      `Long-click performed on element '${idOf('Oat milk')}' (found by --text "Oat milk" --exact-match)`
    )
    expect(inputsSince(from)).to.deep.equal([['input', 'swipe', '453', '453', '453', '453', '1000']])
    const visible = await arc('scroll-to', '--desc', 'Delete Lemons')
    expect(visible.stdout.trim()).to.equal(
      `Element '${idOf('Delete Lemons')}' (found by --desc "Delete Lemons") is already visible`
    )
    // Several criteria must all match: the one field of the demo, by its resource id and class.
    from = h.emu.commands.length
    const clear = await arc('type', 'clear', '--res-id', 'new_item', '--class-name', 'EditText')
    expect(clear.stderr).to.equal('')
    const field = demo.elements.find((e) => e.resId.endsWith('new_item'))!
    expect(clear.stdout).to.equal(
      `Text cleared from element '${field.id}' (found by --res-id "new_item" --class-name "EditText").\nField content: \n`
    )
    expect(inputsSince(from)[0]).to.deep.equal([
      'input',
      'keyevent',
      ...Array(11).fill('KEYCODE_DEL'),
      ...Array(11).fill('KEYCODE_FORWARD_DEL'),
    ])
  })

  it('no match: ELEMENT_NOT_FOUND naming the selector, with what a near selector would match, and nothing sent', async () => {
    const from = h.emu.commands.length
    const run = await arc('click', '--text', 'search')
    expect(run.code).to.equal(9)
    expect(run.stderr).to.contain('Error [ELEMENT_NOT_FOUND]: no element on the current screen matches --text "search"')
    expect(run.stderr).to.contain('Try: --desc "search" matches 1 element(s).')
    const exact = await arc('click', '--text', 'add', '--exact-match')
    expect(exact.code).to.equal(9)
    expect(exact.stderr).to.contain('Try: 2 element(s) match without --exact-match')
    // A selector is literal text, never a pattern; what it holds is quoted, control characters written out.
    const pattern = await arc('click', '--text', '.*')
    expect(pattern.code).to.equal(9)
    const escape = await arc('click', '--desc', '\u001b[31mred')
    expect(escape.code).to.equal(9)
    expect(escape.stderr).to.contain('--desc "\\u001b[31mred"').and.not.contain('\u001b')
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('several matches: ELEMENT_AMBIGUOUS (exit 20) listing every candidate, never acting on the first', async () => {
    const from = h.emu.commands.length
    const run = await arc('click', '--text', 'add')
    expect(run.code).to.equal(20)
    expect(run.stderr).to.match(
      /^Error \[ELEMENT_AMBIGUOUS\]: 2 elements match --text "add", and arc acts on one element only/
    )
    const field = demo.elements.find((e) => e.resId.endsWith('new_item'))!
    expect(run.stderr).to.match(new RegExp(`\n${field.id} +EditText +Add an item .* 42,231,780,357 `))
    expect(run.stderr).to.match(new RegExp(`\n${idOf('ADD')} +Button +ADD .* 801,231,1038,357 `))
    expect(run.stderr).to.contain('Try: Pass the id of the one you mean (the ID column) in place of the selector.')
    const json = JSON.parse((await arc('long-click', '--res-id', 'item_row', '--json')).stdout).error
    expect(json).to.include({code: 'ELEMENT_AMBIGUOUS', exitCode: 20})
    // The eight rows shown: the ninth, laid out under the list's edge, is not in the dump (as on a phone).
    expect(json.details.count).to.equal(8)
    expect(json.details.candidates.map((c: {id: string}) => c.id)).to.deep.equal(
      demo.elements.filter((e) => e.resId.endsWith('item_row')).map((e) => e.id)
    )
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('the candidates an ambiguity shows are remembered: once the screen changed, their ids are STALE_ELEMENT', async () => {
    expect((await arc('click', '--text', 'add')).code).to.equal(20)
    h.emu.device('emu-1').showScreen('other')
    const from = h.emu.commands.length
    const run = await arc('click', idOf('ADD'))
    expect(run.code).to.equal(18)
    expect(run.stderr).to.contain('[STALE_ELEMENT]')
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('an id and a selector together, a selector flag without a value, or --exact-match alone: INVALID_INPUT, no device command', async () => {
    const from = h.emu.commands.length
    const both = await arc('click', idOf('ADD'), '--text', 'ADD')
    expect(both.code).to.equal(2)
    expect(both.stderr).to.contain(
      `Error [INVALID_INPUT]: both an element id (${idOf('ADD')}) and a selector (--text "ADD") were given: pass one of them`
    )
    const empty = await arc('click', '--text', '')
    expect(empty.code).to.equal(2)
    expect(empty.stderr).to.contain('--text')
    const alone = await arc('scroll-to', idOf('ADD'), '--exact-match')
    expect(alone.code).to.equal(2)
    expect(alone.stderr).to.contain('--exact-match applies to a selector')
    const none = await arc('click')
    expect(none.code).to.equal(2)
    expect(none.stderr).to.contain('no element given: element_id is required')
    expect(h.emu.commands.length).to.equal(from)
  })

  it('arc batch lines take selectors; an ambiguous line stops the batch with its exit status', async () => {
    const from = h.emu.commands.length
    const run = await runArc(['batch'], {
      env: h.env,
      input: 'click --text ADD --exact-match\nclick --text add\ntap 1 1\n',
    })
    expect(run.code).to.equal(20)
    expect(run.stdout.trim()).to.equal(
      `Click performed on element '${idOf('ADD')}' (found by --text "ADD" --exact-match)`
    )
    expect(run.stderr).to.contain('[ELEMENT_AMBIGUOUS]')
    expect(inputsSince(from)).to.deep.equal([['input', 'tap', '919', '294']])
  })

  it('resolution lives in the tool: runTool with the selector as CLI input acts; MCP lists only element_id and refuses a call without it', async () => {
    const deps = {
      config: {},
      cwd: process.cwd(),
      openDriver: () => connectAdbDriver({port: h.emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}}),
      stateFor: () => new MemoryDeviceState(),
    }
    const from = h.emu.commands.length
    const result = await runTool(clickElement, {input: {}, cliInput: {res_id: 'add_button'}}, deps)
    expect(result.data).to.deep.equal({
      element_id: idOf('ADD'),
      x: 919,
      y: 294,
      selector: {res_id: 'add_button', exact_match: false},
    })
    expect(inputsSince(from)).to.deep.equal([['input', 'tap', '919', '294']])
    expect(Object.keys((inputSchemaFor(clickElement).properties ?? {}) as object)).to.deep.equal(['element_id'])
    // Required there, as the spec has it: only a command line may leave it out (cliMayOmit).
    expect(inputSchemaFor(clickElement).required).to.deep.equal(['element_id'])
    // Over MCP the selector fields are not in the schema: they are dropped, and the call names the missing id.
    const error = await runTool(clickElement, {input: {text: 'ADD'}}, deps).then(
      () => undefined,
      (e: unknown) => e as {code: string; message: string}
    )
    expect(error).to.include({code: 'INVALID_INPUT'})
    expect(error!.message).to.contain('element_id is required')
  })
})
