import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel, type ScreenModel} from '@arc-cli/core'
import {inputSchemaFor} from '@arc-cli/plugin-mcp'
import {expect} from 'chai'

import {typeAppendText, typeInsertText, typeReplaceText} from '../../src/tools/type-text.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const field = (res: string, text: string, top: number) => ({
  cls: 'android.widget.EditText',
  res: `com.example:id/${res}`,
  text,
  attrs: {clickable: 'true', focusable: 'true', 'long-clickable': 'true'},
  bounds: [40, top, 1040, top + 150] as [number, number, number, number],
})

/** A form: two fields, and a label that shows the word `Email` too (it is no field). */
const FORM = dumpXml([
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', text: 'Email', bounds: [40, 100, 1040, 200]},
      field('email', 'me', 200),
      {cls: 'android.widget.TextView', text: 'Name', bounds: [40, 400, 1040, 500]},
      field('name', 'Ada Lovelace', 500),
      {cls: 'android.widget.Button', text: 'Save', attrs: {clickable: 'true'}, bounds: [40, 800, 1040, 950]},
    ],
  },
])

/**
 * `arc type append|insert|replace` with a selector in place of the element id, run as a user runs them against
 * `arc emulate`: the words after the flags land in the text arguments, the field's text is `--field-text` (their
 * `text` is what to type), and the emulator's fields show what was typed. Each case has a fresh copy of the form.
 */
describe('type append, insert and replace by selector', function () {
  this.timeout(60_000)
  const SCREENS = ['append', 'insert', 'replace', 'errors', 'batch', 'json']
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'form.xml'), FORM)
    const screens = Object.fromEntries(SCREENS.map((name) => [name, path.join(dir, 'form.xml')]))
    return {devices: [], scenario: {devices: {'emu-1': {screens}}}}
  })
  let form: ScreenModel

  before(async () => {
    h.emu.device('emu-1').showScreen('errors')
    form = buildScreenModel(await h.capture())
  })

  // `type <command>`, then the typing pace, then the words and flags of the case.
  const arc = (...args: string[]) =>
    runArc([...args.slice(0, 2), '--typing-speed', '10', '--typing-speed-variance', '0', ...args.slice(2)], {
      env: h.env,
    })
  const idOf = (res: string) => form.elements.find((e) => e.resId === `com.example:id/${res}`)!.id
  const inputsSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv)
      .filter((a) => a[0] === 'input')
  const typed = (from: number) =>
    inputsSince(from)
      .filter((a) => a[1] === 'text')
      .map((a) => a.slice(2).join(' '))

  it('append: `--res-id email @x.org` types @x.org into the one field it matches', async () => {
    h.emu.device('emu-1').showScreen('append')
    const from = h.emu.commands.length
    const run = await arc('type', 'append', '--res-id', 'email', '@x.org')
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.equal(
      `Typed 6 characters at end of element '${idOf('email')}' (found by --res-id "email").\nField content: me@x.org\n`
    )
    expect(typed(from)).to.deep.equal(['@x.org'])
  })

  it('insert: `--field-text Lovelace "Augusta " --offset 4` types at the offset of the field showing that text', async () => {
    h.emu.device('emu-1').showScreen('insert')
    const run = await arc('type', 'insert', '--field-text', 'Lovelace', 'Augusta ', '--offset', '4')
    expect(run.stderr).to.equal('')
    expect(run.stdout).to.equal(
      `Typed 8 characters at offset 4 in element '${idOf('name')}' (found by --field-text "Lovelace").\nField content: Ada Augusta Lovelace\n`
    )
  })

  it('replace: the two words after the selector are search and new_text; an empty new_text only deletes', async () => {
    h.emu.device('emu-1').showScreen('replace')
    const from = h.emu.commands.length
    const run = await arc('type', 'replace', '--class-name', 'EditText', '--field-text', 'Ada', 'Lovelace', 'Byron')
    expect(run.stderr).to.equal('')
    expect(run.stdout).to.equal(
      `Replaced 8 characters with 5 characters in element '${idOf('name')}' (found by --field-text "Ada" --class-name "EditText").\nField content: Ada Byron\n`
    )
    // The probe first: "Ada Lovelace" may be the hint of an empty field (no hint attribute before Android 16).
    expect(typed(from)).to.deep.equal(['0', 'Byron'])
    const cut = await arc('type', 'replace', '--res-id', 'name', ' Byron', '')
    expect(cut.stderr).to.equal('')
    expect(cut.stdout).to.equal(
      `Replaced 6 characters with 0 characters in element '${idOf('name')}' (found by --res-id "name").\nField content: Ada\n`
    )
  })

  it('--json reports the selector, as click does; an id still works as before', async () => {
    h.emu.device('emu-1').showScreen('json')
    const json = JSON.parse((await arc('type', 'append', '--res-id', 'email', '!', '--json')).stdout)
    expect(json).to.deep.equal({
      element_id: idOf('email'),
      typed: 1,
      content: 'me!',
      selector: {res_id: 'email', exact_match: false},
    })
    const byId = JSON.parse((await arc('type', 'append', idOf('email'), '?', '--json')).stdout)
    expect(byId).to.deep.equal({element_id: idOf('email'), typed: 1, content: 'me!?'})
  })

  it('several fields or none match: ELEMENT_AMBIGUOUS or ELEMENT_NOT_FOUND naming --field-text, and nothing typed', async () => {
    h.emu.device('emu-1').showScreen('errors')
    const from = h.emu.commands.length
    const several = await arc('type', 'append', '--class-name', 'EditText', 'hi')
    expect(several.code).to.equal(20)
    expect(several.stderr).to.match(/^Error \[ELEMENT_AMBIGUOUS\]: 2 elements match --class-name "EditText"/)
    expect(several.stderr).to.contain('combine --field-text, --desc, --res-id, --class-name')
    // `Email` is the label's text, not the field's: the field holds "me".
    const none = await arc('type', 'insert', '--field-text', 'Nobody', 'x', '--offset', '0')
    expect(none.code).to.equal(9)
    expect(none.stderr).to.contain(
      'Error [ELEMENT_NOT_FOUND]: no element on the current screen matches --field-text "Nobody"'
    )
    const label = await arc('type', 'append', '--field-text', 'Email', '--exact-match', 'hi')
    expect(label.code).to.equal(2)
    expect(label.stderr).to.contain(
      `Error [INVALID_INPUT]: element ${form.elements.find((e) => e.text === 'Email')!.id} (TextView) is not an editable text field`
    )
    expect(typed(from)).to.deep.equal([])
  })

  it('an id and a selector together, a missing word, or --text: INVALID_INPUT naming what is wrong, no device command', async () => {
    h.emu.device('emu-1').showScreen('errors')
    const from = h.emu.commands.length
    const both = await arc('type', 'append', idOf('email'), '--res-id', 'email', 'hi')
    expect(both.code).to.equal(2)
    expect(both.stderr).to.contain(
      `Error [INVALID_INPUT]: both an element id (${idOf('email')}) and a selector (--res-id "email") were given: pass one of them`
    )
    const noText = await arc('type', 'append', '--res-id', 'email')
    expect(noText.code).to.equal(2)
    expect(noText.stderr).to.contain('Error [INVALID_INPUT]: argument <text> is required: Text to type')
    const noNew = await arc('type', 'replace', '--res-id', 'name', 'Ada')
    expect(noNew.code).to.equal(2)
    expect(noNew.stderr).to.contain('Error [INVALID_INPUT]: argument <new_text> is required: Replacement text')
    // An id where the id goes and a selector, the text forgotten: refused, never the id typed as the text.
    const idAndSelector = await arc('type', 'append', idOf('email'), '--res-id', 'email')
    expect(idAndSelector.code).to.equal(2)
    expect(idAndSelector.stderr).to.contain('Error [INVALID_INPUT]')
    // Without a selector one word is still the id, and the text is what is missing.
    const idOnly = await arc('type', 'append', idOf('email'))
    expect(idOnly.code).to.equal(2)
    expect(idOnly.stderr).to.contain('Error [INVALID_INPUT]: argument <text> is required')
    const neither = await arc('type', 'insert', '--offset', '0')
    expect(neither.code).to.equal(2)
    expect(neither.stderr).to.contain('argument <text> is required')
    const text = await arc('type', 'append', '--text', 'me', 'hi')
    expect(text.code).to.equal(2)
    expect(text.stderr).to.contain(
      'Error [INVALID_INPUT]: arc type append has no --text flag: the text to type is an argument here; to pick the field by the text it shows, use --field-text'
    )
    const textEquals = await arc('type', 'replace', '--text=me', 'me', 'you')
    expect(textEquals.stderr).to.contain('arc type replace has no --text flag')
    // After `--`, --text is a word to type, never a flag.
    const typedFlag = await arc('type', 'append', '--res-id', 'name', '--json', '--', '--text')
    expect(typedFlag.code).to.equal(0)
    expect(JSON.parse(typedFlag.stdout)).to.include({content: 'Ada Lovelace--text'})
    expect(typed(from)).to.deep.equal(['--text'])
  })

  it('arc batch lines take the same selectors and words', async () => {
    h.emu.device('emu-1').showScreen('batch')
    const from = h.emu.commands.length
    const lines = [
      'type append --res-id email "@x.org" --typing-speed 10',
      'type replace --field-text Ada Ada "Augusta Ada" --typing-speed 10',
      'type append --class-name EditText hi',
      'tap 1 1',
    ]
    const run = await runArc(['batch'], {env: h.env, input: `${lines.join('\n')}\n`})
    expect(run.code).to.equal(20)
    expect(run.stdout).to.equal(
      `Typed 6 characters at end of element '${idOf('email')}' (found by --res-id "email").\nField content: me@x.org\n` +
        `Replaced 3 characters with 11 characters in element '${idOf('name')}' (found by --field-text "Ada").\nField content: Augusta Ada Lovelace\n`
    )
    expect(run.stderr).to.contain('[ELEMENT_AMBIGUOUS]')
    // The replace puts the cursor mid-text in a field whose text may be only its hint: a probe `0` first tells.
    expect(typed(from)).to.deep.equal(['@x.org', '0', 'Augusta%sAda'])
  })

  it('over MCP the three keep element_id required and list no selector field', () => {
    for (const tool of [typeAppendText, typeInsertText, typeReplaceText]) {
      const schema = inputSchemaFor(tool)
      expect(schema.required, tool.name).to.include('element_id')
      expect(Object.keys(schema.properties ?? {}), tool.name).to.not.include.members([
        'field_text',
        'text_selector',
        'res_id',
        'desc',
        'class_name',
      ])
    }
  })
})
