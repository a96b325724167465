import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

const FAILED = exitCodeFor('ASSERTION_FAILED')

/** A settings screen with one element in each state an assertion checks. */
const SETTINGS = dumpXml([
  {
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: 'android.widget.CheckBox',
        text: 'Wi-Fi',
        bounds: [0, 100, 1080, 200],
        attrs: {checkable: 'true', checked: 'true', clickable: 'true'},
      },
      {
        cls: 'android.widget.Switch',
        text: 'Bluetooth',
        bounds: [0, 200, 1080, 300],
        attrs: {checkable: 'true', checked: 'false', clickable: 'true'},
      },
      {
        cls: 'android.widget.Button',
        text: 'Pay',
        bounds: [0, 300, 540, 400],
        attrs: {enabled: 'false', clickable: 'true'},
      },
      {
        cls: 'android.widget.TextView',
        text: 'Total: 12.50',
        res: 'com.example:id/total',
        bounds: [540, 300, 1080, 400],
      },
      {
        cls: 'android.widget.TextView',
        text: 'Tab A',
        bounds: [0, 400, 540, 500],
        attrs: {selected: 'true', clickable: 'true'},
      },
      {
        cls: 'android.widget.EditText',
        text: 'Search',
        res: 'com.example:id/q',
        bounds: [0, 500, 1080, 600],
        attrs: {focusable: 'true', focused: 'true', clickable: 'true', hint: 'Search'},
      },
      {cls: 'android.widget.TextView', text: 'Below the fold', bounds: [0, 2500, 1080, 2600]},
    ],
  },
])

describe('arc assert', function () {
  this.timeout(60_000)
  let dir: string
  let screen: string
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-assert-'))
    screen = path.join(dir, 'settings.xml')
    await writeFile(screen, SETTINGS)
  })
  after(async () => rm(dir, {recursive: true, force: true}))
  const assert = (...args: string[]) => runArc(['assert', ...args, '-d', screen])

  it('exits 0 when the condition holds, and says so', async () => {
    for (const args of [
      ['visible', '--text', 'Pay'],
      ['gone', '--text', 'Loading'],
      ['checked', '--text', 'Wi-Fi'],
      ['unchecked', '--text', 'Bluetooth'],
      ['disabled', '--text', 'Pay'],
      ['enabled', '--text', 'Wi-Fi'],
      ['selected', '--text', 'Tab A'],
      ['focused', '--res-id', 'com.example:id/q'],
      ['text', '--res-id', 'total', '--value', 'Total: 12.50'],
    ]) {
      const run = await assert(...args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(0)
      expect(run.stdout).to.match(/: holds\n$/)
    }
  })

  it('exits 23 with what the screen shows instead', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['visible', '--text', 'Kiwi'], /assert visible --text "Kiwi" failed: no element matches --text "Kiwi"/],
      [
        ['visible', '--text', 'Below the fold'],
        /failed: 1 element\(s\) match, all off screen: node_\w+ \(TextView "Below the fold"; off/,
      ],
      [
        ['gone', '--text', 'Wi-Fi'],
        /assert gone --text "Wi-Fi" failed: 1 element\(s\) match: node_\w+ \(CheckBox "Wi-Fi"/,
      ],
      [['unchecked', '--text', 'Wi-Fi'], /failed: node_\w+ \(CheckBox "Wi-Fi"; .*\) is checked/],
      [['checked', '--text', 'Bluetooth'], /failed: node_\w+ \(Switch "Bluetooth"; .*\) is unchecked/],
      [['checked', '--text', 'Pay'], /failed: node_\w+ \(Button "Pay"; .*\) is not checkable/],
      [['enabled', '--text', 'Pay'], /\) is disabled$/m],
      [['text', '--res-id', 'total', '--value', 'Total: 12'], /has text "Total: 12.50"/],
    ]
    for (const [args, message] of cases) {
      const run = await assert(...args)
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(FAILED)
      expect(run.stderr)
        .to.match(/^Error \[ASSERTION_FAILED\]: /)
        .and.match(message)
      expect(run.stdout).to.equal('')
    }
  })

  it('a field that shows its hint is empty: its text is ""', async () => {
    const run = await assert('text', '--res-id', 'com.example:id/q', '--value', 'Search')
    expect(run.code).to.equal(FAILED)
    expect(run.stderr).to.include('has text "" (it shows its hint: the field is empty)')
    expect((await assert('text', '--res-id', 'com.example:id/q', '--value', '')).code).to.equal(0)
  })

  it('--json: the error with the elements it judged', async () => {
    const run = await assert('unchecked', '--text', 'Wi-Fi', '--json')
    expect(run.code).to.equal(FAILED)
    const {error} = JSON.parse(run.stdout) as {
      error: {code: string; details: {holds: boolean; elements: Array<{class: string}>}}
    }
    expect(error.code).to.equal('ASSERTION_FAILED')
    expect(error.details.holds).to.equal(false)
    // The command line's one element shape (docs/json.md): screen-state's class, its simple name.
    expect(error.details.elements.map((e) => e.class)).to.deep.equal(['CheckBox'])
  })

  it('--timeout reads again until it gives up, and says how many reads it made', async () => {
    const run = await assert('visible', '--text', 'Kiwi', '--timeout', '1200', '--json')
    expect(run.code).to.equal(FAILED)
    const {error} = JSON.parse(run.stdout) as {error: {message: string; details: {reads: number}}}
    expect(error.details.reads).to.be.at.least(2)
    expect(error.message).to.match(/failed after \d+ reads in 1200 ms/)
  })

  it('a state check on several matches is ELEMENT_AMBIGUOUS, never the first of them', async () => {
    const run = await assert('checked', '--class-name', 'TextView')
    expect(run.code).to.equal(exitCodeFor('ELEMENT_AMBIGUOUS'))
    expect(run.stderr).to.include('3 elements match --class-name "TextView"; assert checked checks one element')
  })

  it('refuses what it cannot check, before reading the device', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['visible'], /needs a selector: --text, --desc, --res-id or --class-name/],
      [['text', '--text', 'ADD'], /--value: is required with assert text/],
      [['checked', '--text', 'ADD', '--value', 'x'], /--value: applies to assert text only, not to assert checked/],
      [['shown', '--text', 'ADD'], /condition/],
      // No 30 s cap on the command line (a cold CI emulator): a day at most, and a duration arc can read.
      [['visible', '--text', 'ADD', '--timeout', '25h'], /--timeout must be 0 to 24h \(got "25h"\)/],
      [['visible', '--text', 'ADD', '--timeout', 'long'], /--timeout must be a duration: milliseconds/],
    ]
    for (const [args, message] of cases) {
      const run = await runArc(['assert', ...args, '-d', 'no-such-device-here'])
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr).to.match(message)
    }
  })
})
