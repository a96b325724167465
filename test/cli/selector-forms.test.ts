/**
 * One selector form on every element command (arc emulate): the element actions take the positional `BY VALUE` of
 * find and wait as a synonym of their flags, find and the waits take the flags, the waits take --exact-match, an
 * exact resource id matches with or without its package, and a selector given two ways or half given is refused
 * naming what was typed, before anything reaches the device.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor, type Rect} from '@arc-cli/core'
import {expect} from 'chai'

import type {InputEvent} from '@arc-cli/emulator'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const ADD: Rect = [700, 300, 1000, 420]

const screen = dumpXml([
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', res: 'com.example:id/title', text: 'Groceries', bounds: [0, 100, 1080, 200]},
      {
        cls: 'android.widget.EditText',
        res: 'com.example:id/new_item',
        text: '',
        attrs: {clickable: 'true', focusable: 'true'},
        bounds: [40, 300, 680, 420],
      },
      {cls: 'android.widget.Button', res: 'com.example:id/add', text: 'ADD', attrs: {clickable: 'true'}, bounds: ADD},
      {cls: 'android.widget.Button', res: 'com.example:id/add_all', text: 'ADD ALL', bounds: [0, 500, 1080, 600]},
    ],
  },
])

const INVALID = exitCodeFor('INVALID_INPUT')

describe('one selector form: BY VALUE and --text/--desc/--res-id/--class-name on every element command', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'groceries.xml'), screen)
    return {devices: [], scenario: {devices: {'emu-1': {screens: {groceries: path.join(dir, 'groceries.xml')}}}}}
  })
  const taps: Array<{x: number; y: number}> = []
  before(() => {
    h.emu.device('emu-1').on('input', (event: InputEvent) => {
      if (event.type === 'tap') taps.push({x: event.x, y: event.y})
    })
  })
  beforeEach(() => {
    taps.length = 0
  })
  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const onAdd = ({x, y}: {x: number; y: number}) => x >= ADD[0] && x < ADD[2] && y >= ADD[1] && y < ADD[3]

  it('click text ADD is click --text ADD; resource_id add --exact-match matches com.example:id/add', async () => {
    const byWords = await arc('click', 'text', 'ADD', '--exact-match')
    expect(byWords.code, byWords.stderr).to.equal(0)
    expect(byWords.stdout).to.match(/\(found by --text "ADD" --exact-match\)/)
    const byId = await arc('click', 'resource_id', 'add', '--exact-match', '--json')
    expect(byId.code, byId.stderr).to.equal(0)
    expect(JSON.parse(byId.stdout)).to.deep.include({selector: {res_id: 'add', exact_match: true}})
    expect(taps).to.have.length(2)
    expect(taps.every(onAdd), JSON.stringify(taps)).to.equal(true)
  })

  it('type append resource_id new_item TEXT types into the field the words name', async () => {
    const run = await arc('type', 'append', 'resource_id', 'new_item', 'Oat milk')
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(/found by --res-id "new_item"/)
    expect(run.stdout).to.include('Field content: Oat milk')
  })

  it('find and wait take the flags; the waits take --exact-match', async () => {
    const find = await arc('find', '--res-id', 'add', '--exact-match', '--json')
    expect(find.code, find.stderr).to.equal(0)
    const found = (JSON.parse(find.stdout) as {elements: Array<{text: string}>}).elements
    expect(found.map((e) => e.text)).to.deep.equal(['ADD'])

    const [element, notExact, gone] = await Promise.all([
      arc('wait', 'element', '--text', 'ADD', '--exact-match', '--timeout', '5s'),
      arc('wait', 'element', 'text', 'AD', '--exact-match', '--timeout', '300ms'),
      arc('wait', 'gone', '--text', 'AD', '--exact-match', '--timeout', '5s'),
    ])
    expect(element.code, element.stderr).to.equal(0)
    expect(element.stdout).to.match(/^Found after \d+ ms/)
    expect(notExact.code).to.equal(exitCodeFor('TIMEOUT'))
    expect(notExact.stdout).to.match(/^Not found: no element with text equal to "AD" after/)
    expect(gone.code, gone.stderr).to.equal(0)
  })

  it('refuses a selector given two ways, a BY without its value, several criteria for find, and --exact-match on an id', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['click', 'text'],
        /^Error \[INVALID_INPUT\]: arc click: `text` names what to match .* and needs the value after it/,
      ],
      [['click', 'text', 'ADD', '--desc', 'x'], /arc click: the selector is given twice, as `text ADD` and as --desc/],
      [['find', 'text', 'ADD', '--text', 'ADD'], /arc find: the selector is given twice, as `text ADD` and as --text/],
      [
        ['find', '--text', 'A', '--desc', 'B'],
        /arc find matches one criterion at a time, and --text, --desc were given/,
      ],
      [['wait', 'element', '--res-id'], /--res-id/],
      [['wait', 'gone', 'id', 'node_a3f2kq', '--exact-match', '--timeout', '1s'], /--exact-match applies to text/],
    ]
    const from = h.emu.commands.length
    for (const [args, message] of cases) {
      const run = await arc(...args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(INVALID)
      expect(run.stderr, args.join(' ')).to.match(message)
    }
    expect(h.argvSince(from).filter((a) => a[0] === 'input')).to.deep.equal([])
  })

  it('flags before BY VALUE take their values: --device emu-1 text ADD is the device, then the selector', async () => {
    const run = await runArc(['click', '--device', 'emu-1', 'text', 'ADD', '--exact-match'], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.match(/\(found by --text "ADD" --exact-match\)/)
    const typed = await runArc(
      ['type', 'append', '--adb-port', String(h.emu.port), 'resource_id', 'new_item', 'Kale'],
      {
        env: h.env,
      }
    )
    expect(typed.code, typed.stderr).to.equal(0)
    expect(typed.stdout).to.match(/Field content: .*Kale/)
    expect(taps.filter(onAdd)).to.have.length(1)
  })

  it('assert takes BY VALUE after its condition; `assert text --res-id …` still names the condition text', async () => {
    const visible = await arc('assert', 'visible', 'text', 'ADD', '--exact-match')
    expect(visible.code, visible.stderr).to.equal(0)
    expect(visible.stdout).to.include('assert visible --text "ADD" --exact-match: holds')
    const byWords = await arc('assert', 'text', 'resource_id', 'add', '--exact-match', '--value', 'ADD')
    expect(byWords.code, byWords.stderr).to.equal(0)
    expect(byWords.stdout).to.include('assert text --res-id "add" --exact-match = "ADD": holds')
    const byFlag = await arc('assert', 'text', '--res-id', 'add', '--exact-match', '--value', 'ADD')
    expect(byFlag.code, byFlag.stderr).to.equal(0)
    const half = await arc('assert', 'visible', 'text')
    expect(half.code).to.equal(INVALID)
    expect(half.stderr).to.include('needs the value after it: arc assert visible text VALUE')
  })

  it('a batch line takes either form', async () => {
    const run = await runArc(['batch'], {env: h.env, input: 'click text ADD --exact-match\nfind --text "ADD ALL"\n'})
    expect(run.code, run.stderr).to.equal(0)
    expect(taps.filter(onAdd)).to.have.length(1)
    expect(run.stdout).to.include('ADD ALL')
  })
})
