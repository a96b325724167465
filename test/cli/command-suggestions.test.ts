import {exitCodeFor} from '@arc-cli/core'
import {Config} from '@oclif/core'
import {expect} from 'chai'

import {commandSet, suggestFor, type CommandSet} from '../../src/command-suggestions.js'
import {runArc} from '@arc-cli/test-support/run-arc'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

/** What the hook would say for a command line: oclif's id is every word before the first flag. */
function suggest(set: CommandSet, line: string) {
  const words = line.split(' ')
  const firstFlag = words.findIndex((w) => w.startsWith('-'))
  return suggestFor(
    firstFlag === -1 ? words : words.slice(0, firstFlag),
    set,
    firstFlag === -1 ? [] : words.slice(firstFlag)
  )
}

describe('unknown commands: what arc suggests', () => {
  let set: CommandSet
  before(async () => {
    set = commandSet(await inDevelopment(async () => Config.load(await sourceOptions())))
  })

  it('reads a topic, then the word after it, and keeps the arguments that follow (app stop com.x → app close com.x)', () => {
    expect(suggest(set, 'app stop com.x')).to.deep.equal({
      command: 'app stop',
      message: 'unknown command "app stop"',
      suggestions: ['app close com.x'],
    })
    expect(suggest(set, 'app start com.x').suggestions).to.deep.equal(['app open com.x'])
    expect(suggest(set, 'app kill com.x').suggestions).to.deep.equal(['app close com.x'])
    expect(suggest(set, 'app opne com.x').suggestions).to.deep.equal(['app open com.x'])
  })

  it('offers the words adb, uiautomator2 and Maestro users type for a command, with placeholders for what is missing', () => {
    expect(suggest(set, 'stop com.x').suggestions).to.deep.equal(['app close com.x'])
    expect(suggest(set, 'kill').suggestions).to.deep.equal(['app close <package_id>'])
    for (const word of ['start', 'launch', 'run'])
      expect(suggest(set, `${word} com.x`).suggestions, word).to.deep.equal(['app open com.x'])
    for (const word of ['dump', 'ui']) expect(suggest(set, word).suggestions, word).to.deep.equal(['screen-state'])
    expect(suggest(set, 'screencap').suggestions).to.deep.equal(['screenshot --output <value>'])
    // A required flag already on the line, long or short, is not asked for again.
    expect(suggest(set, 'screencap -o x.png').suggestions).to.deep.equal(['screenshot'])
    expect(suggest(set, 'input tap 100 200').suggestions).to.deep.equal(['tap 100 200'])
    expect(suggest(set, 'input keyevent BACK').suggestions).to.deep.equal(['press key BACK'])
    expect(suggest(set, 'input').suggestions).to.deep.equal([
      'tap <x> <y>',
      'swipe <x1> <y1> <x2> <y2>',
      'type append <element_id> <text>',
      'press key <key>',
    ])
    expect(suggest(set, 'back').suggestions).to.deep.equal(['press back'])
    expect(suggest(set, 'logcat --since 1m').suggestions).to.deep.equal(['logs'])
  })

  it("lists a topic's commands with what each needs when the word after it is nothing like one (type hello)", () => {
    const typed = suggest(set, 'type hello')
    expect(typed.message).to.equal('unknown command "type hello": the type commands are append, clear, insert, replace')
    expect(typed.suggestions).to.deep.equal([
      'type append <element_id> <text>',
      'type clear',
      'type insert <element_id> <text> --offset <value>',
      'type replace <element_id> <search> <new_text>',
      'type --help',
    ])
    // A topic with more commands than fit is named, and its help offered.
    const apps = suggest(set, 'app frobnicate')
    expect(apps.message).to.match(
      /^unknown command "app frobnicate": the app commands are clear, close, .*, uninstall$/
    )
    expect(apps.suggestions).to.deep.equal(['app --help'])
  })

  it('says a command without arguments got some, and offers them as the flag they likely are (details 8qp7xe)', () => {
    const details = suggest(set, 'details 8qp7xe')
    expect(details.message).to.equal('`details` takes no arguments, got "8qp7xe"')
    expect(details.suggestions).to.deep.equal(['details --ids 8qp7xe', 'details --help'])
    expect(suggest(set, 'details a b').suggestions).to.deep.equal(['details --ids a --ids b', 'details --help'])
    expect(suggest(set, 'screen-state compact').suggestions).to.deep.equal([
      'screen-state --detail compact',
      'screen-state --help',
    ])
    expect(suggest(set, 'devices foo').suggestions).to.deep.equal(['devices --help'])
  })

  it('puts near misses right, a misspelt topic included, and reads words split or joined another way', () => {
    expect(suggest(set, 'screenstate').suggestions[0]).to.equal('screen-state')
    expect(suggest(set, 'screen state').suggestions).to.deep.equal(['screen-state'])
    expect(suggest(set, 'longpress 1 2').suggestions).to.deep.equal(['long-press 1 2'])
    expect(suggest(set, 'pres back').suggestions).to.deep.equal(['press back'])
    expect(suggest(set, 'aap stop com.x').suggestions).to.deep.equal(['app close com.x'])
    expect(suggest(set, 'aap close com.x').suggestions).to.deep.equal(['app close com.x'])
    expect(suggest(set, 'tpa 1 2').suggestions).to.deep.equal(['tap 1 2'])
    expect(suggest(set, 'wiat idle').suggestions).to.deep.equal(['wait idle --timeout <value>'])
    expect(suggest(set, 'frobnicate').suggestions).to.deep.equal([])
  })

  it("puts typed text after the element it needs, quoted as a shell needs it (input text it's)", () => {
    expect(suggest(set, 'input text hello').suggestions).to.deep.equal(['type append <element_id> hello'])
    expect(suggest(set, "input text it's").suggestions).to.deep.equal([`type append <element_id> 'it'\\''s'`])
  })

  it('names only commands that exist', () => {
    const ids = new Set(set.commands.map((c) => c.id))
    for (const line of [
      'stop x',
      'start x',
      'dump',
      'screencap',
      'input',
      'clear',
      'ls',
      'rotate',
      'zoom',
      'sh',
      'url x',
    ]) {
      const {suggestions} = suggest(set, line)
      expect(suggestions, line).to.not.be.empty
      for (const s of suggestions)
        expect(
          [...ids].some((id) => s === id || s.startsWith(`${id} `)),
          `${line}: ${s}`
        ).to.equal(true)
    }
  })

  it('the hook: exit 2 with the suggestions as Try lines, and in the JSON error under --json', async () => {
    const run = await runArc(['app', 'stop', 'com.x'])
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.equal(
      'Error [INVALID_INPUT]: unknown command "app stop"\nTry: arc app close com.x\nTry: arc --help (every command)\n'
    )
    const json = await runArc(['details', '8qp7xe', '--json'])
    expect(json.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(JSON.parse(json.stdout).error).to.deep.include({
      code: 'INVALID_INPUT',
      details: {command: 'details', suggestions: ['details --ids 8qp7xe', 'details --help']},
    })
  })

  it('the hook writes the control characters of a command as typed out, as every arc error does, never raw', async () => {
    const run = await runArc(['zz\u001b[31mred\u0007'])
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.equal(
      'Error [INVALID_INPUT]: unknown command "zz\\x1b[31mred\\x07"\nTry: arc --help (every command)\n'
    )
    expect(run.stderr).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
  })
})
