/**
 * One element shape and one key casing in the command line's --json (docs/json.md), against arc emulate: the same
 * element reads the same in screen-state, find, wait element, wait gone and assert; timings are elapsed_ms; adb's
 * transport id is a number. MCP keeps the spec's shapes (find_elements' contentDescription and booleans).
 */
import {readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {MemoryDeviceState, runTool} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const screen = dumpXml([
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.Button',
        res: 'com.example:id/add',
        text: 'ADD',
        desc: 'Add an item',
        attrs: {clickable: 'true'},
        bounds: [700, 300, 1000, 420],
      },
      {cls: 'android.widget.TextView', text: 'ADD items above', bounds: [0, 500, 1080, 600]},
    ],
  },
])

const SHAPE = ['id', 'class', 'text', 'desc', 'res_id', 'bounds', 'flags']
/** Every key of a JSON value, at any depth. */
const keysOf = (value: unknown): string[] =>
  value === null || typeof value !== 'object'
    ? []
    : Array.isArray(value)
      ? value.flatMap(keysOf)
      : Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [k, ...keysOf(v)])

describe('CLI --json: one element shape, snake_case keys', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'add.xml'), screen)
    return {devices: [], scenario: {devices: {'emu-1': {screens: {add: path.join(dir, 'add.xml')}}}}}
  })
  const json = async (...args: string[]) => {
    const run = await runArc([...args, '--json'], {env: h.env})
    return {code: run.code, value: JSON.parse(run.stdout) as Record<string, unknown>}
  }

  it('screen-state, find, wait element, wait gone and assert print the same element the same way', async () => {
    const [state, find, wait, gone, asserted] = await Promise.all([
      json('screen-state'),
      json('find', 'text', 'ADD', '--exact-match'),
      json('wait', 'element', 'text', 'ADD', '--timeout', '5s'),
      // Long enough for a read to finish under load: the element stays, so the wait runs out with it.
      json('wait', 'gone', 'text', 'ADD', '--timeout', '4s'),
      json('assert', 'gone', '--text', 'ADD'),
    ])
    const windows = state.value.windows as Array<{elements: Array<Record<string, unknown>>}>
    const shown = windows.flatMap((w) => w.elements).find((e) => e.text === 'ADD')
    expect(Object.keys(shown ?? {})).to.deep.equal(SHAPE)
    expect(shown).to.deep.include({class: 'Button', desc: 'Add an item', res_id: 'com.example:id/add'})
    expect((find.value.elements as unknown[])[0]).to.deep.equal(shown)
    expect(wait.value.element).to.deep.equal(shown)
    expect(gone.code).to.equal(11)
    expect(gone.value.element).to.deep.equal(shown)
    expect(asserted.code).to.equal(23)
    const error = asserted.value.error as {details: {elements: unknown[]}}
    expect(error.details.elements[0]).to.deep.equal(shown)
    // A selector's ambiguity lists its candidates the same way (selectors are command-line inputs only).
    const ambiguous = await json('click', '--text', 'ADD')
    expect(ambiguous.code).to.equal(20)
    const candidates = (ambiguous.value.error as {details: {candidates: Array<Record<string, unknown>>}}).details
      .candidates
    expect(candidates[0]).to.deep.equal(shown)
    expect(Object.keys(candidates[1] ?? {})).to.deep.equal(SHAPE)
    // assert's state conditions judge one element: several matches are ELEMENT_AMBIGUOUS, listed the same way.
    const several = await json('assert', 'checked', '--text', 'ADD')
    expect(several.code).to.equal(20)
    const listed = (several.value.error as {details: {candidates: Array<Record<string, unknown>>}}).details.candidates
    expect(listed[0]).to.deep.equal(shown)
    expect(Object.keys(listed[1] ?? {})).to.deep.equal(SHAPE)
  })

  it('every key is snake_case: elapsed_ms, transport_id (a number)', async () => {
    const [wait, idle, devices, doctor] = await Promise.all([
      json('wait', 'element', 'text', 'ADD', '--timeout', '5s'),
      json('wait', 'idle', '--timeout', '5s', '--match-percentage', '0'),
      json('devices'),
      json('doctor'),
    ])
    expect(wait.value).to.have.property('elapsed_ms').that.is.a('number')
    expect(idle.value).to.have.property('elapsed_ms').that.is.a('number')
    const [device] = devices.value.devices as Array<Record<string, unknown>>
    expect(device).to.have.property('transport_id').that.is.a('number')
    // annotate prints its map (and --map writes the same object): snake_case keys too.
    const mapFile = path.join(h.dir, 'marks.json')
    const annotated = await json('annotate', '-o', path.join(h.dir, 'marks.jpg'), '--map', mapFile)
    expect(annotated.code, JSON.stringify(annotated.value)).to.equal(0)
    expect(annotated.value).to.include({map_path: mapFile})
    expect((annotated.value.marks as object[])[0]).to.have.property('label_rect')
    expect(annotated.value).to.have.property('skipped').that.has.property('over_limit')
    expect(annotated.value).to.have.property('label_overlaps')
    const written = JSON.parse(await readFile(mapFile, 'utf8')) as object
    expect(keysOf(written).filter((k) => /[A-Z]/.test(k))).to.deep.equal([])
    expect(doctor.value.android).to.have.property('build_type')
    for (const value of [wait.value, idle.value, devices.value, doctor.value, annotated.value])
      expect(keysOf(value).filter((k) => /[A-Z]/.test(k))).to.deep.equal([])
  })

  it("every window has the same keys, a live device's and a recorded snapshot's (null where unknown)", async () => {
    const live = await json('screen-state')
    const recorded = await runArc(['screen-state', '--device', 'demo', '--json'])
    const keys = (value: unknown) => (value as {windows: object[]}).windows.map((w) => Object.keys(w))
    const WINDOW = ['id', 'display', 'type', 'device_type', 'pkg', 'title', 'activity', 'layer', 'focused', 'elements']
    for (const window of [...keys(live.value), ...keys(JSON.parse(recorded.stdout))])
      expect(window).to.deep.equal(WINDOW)
  })

  it('the --help of a command whose --json is not the MCP object says what --json prints', async () => {
    // wait gone lists its keys: they are the ones it prints.
    const goneHelp = (await runArc(['wait', 'gone', '--help'])).stdout.replace(/\s+/g, ' ')
    const listed = /\(--json: ([\w, ]+)\)/.exec(goneHelp)?.[1]?.split(', ')
    const gone = await json('wait', 'gone', 'text', 'ADD', '--timeout', '1s')
    expect(listed, goneHelp).to.deep.equal(Object.keys(gone.value).filter((k) => k !== 'backend'))
    // find, wait element and wait idle describe the MCP object (camelCase, the spec's element): their help must not
    // say --json prints that object.
    for (const words of [['find'], ['wait', 'element'], ['wait', 'idle']]) {
      const help = (await runArc([...words, '--help'])).stdout.replace(/\s+/g, ' ')
      expect(help, words.join(' ')).not.to.include('--json: the object')
      expect(help, words.join(' ')).to.include('--json: the same in docs/json.md')
    }
  })

  it("an error's details are snake_case too: exitCode is only the envelope's (arc's exit status)", async () => {
    const [refused, waited] = await Promise.all([
      // pm refuses it with exit status 255: the device command's status is details.exit_code, arc's is exitCode (8).
      json('app', 'grant', 'com.android.settings', 'NO_SUCH_PERMISSION'),
      json('devices', '--wait', '--serial', 'absent', '--timeout-ms', '300'),
    ])
    const error = (run: {value: Record<string, unknown>}) => run.value.error as {details: object; exitCode: number}
    expect(refused.code).to.equal(8)
    expect(error(refused)).to.deep.include({exitCode: 8})
    expect(error(refused).details).to.have.property('exit_code').that.is.a('number')
    expect(waited.code).to.equal(11)
    expect(error(waited).details).to.deep.include({timeout_ms: 300})
    for (const run of [refused, waited])
      expect(keysOf(error(run).details).filter((k) => /[A-Z]/.test(k))).to.deep.equal([])
  })

  it('MCP keeps the spec shape: find_elements lists contentDescription, resourceId, className and booleans', async () => {
    const find = tools.find((t) => t.name === 'find_elements')
    if (!find) expect.fail('no find_elements tool')
    const result = await runTool(
      find,
      {input: {by: 'text', value: 'ADD', exact_match: true}},
      {config: {}, cwd: process.cwd(), openDriver: () => h.driver(), stateFor: () => new MemoryDeviceState()}
    )
    expect((result.data as {elements: unknown[]}).elements[0]).to.deep.include({
      contentDescription: 'Add an item',
      resourceId: 'com.example:id/add',
      className: 'android.widget.Button',
      clickable: true,
    })
  })
})
