/**
 * Typing into a multi-line field whose text wraps. On a phone MOVE_HOME and MOVE_END go to the edges of the visual
 * line the cursor is on (ArrowKeyMovementMethod.lineStart/lineEnd), and the focus tap leaves the cursor where the
 * finger touched (Editor.onFocusChanged): the middle of a paragraph. The virtual device lays such a field out by its
 * width (a scenario field rule `multiLine`), so an append that went to "the end" with MOVE_END lands mid-text here as
 * it would on a phone. arc goes to the whole text's edges with ALT+DPAD_UP/DOWN: `input keycombination` on Android
 * 13+, the helper's `key CODE META` on any release, and, with neither, MOVE_END and a probe that finds the cursor.
 */
import {expect} from 'chai'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {fieldHolds, useScreenCases} from '@arc-cli/test-support/emulator-support'
import {editText, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const NOTE = 'com.example.notes:id/body'
const CASES = ['tapped', 'append', 'edits', 'helper', 'probe']

/** 150 characters: four visual lines of 39 in the 1000 px field (24 px a character, 24 px padding each side). */
const PARAGRAPH =
  'The quick brown fox jumps over the lazy dog while the farmer sleeps under the old oak tree, dreaming of rain and of a harvest that will fill every barn.'

/** A notes screen: a tall, unfocused multi-line field holding `text`, a tap on its centre landing on its third line. */
const notes = (text: string): NodeSpec[] => [
  {
    pkg: 'com.example.notes',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', text: 'Note', bounds: [0, 100, 1080, 200]},
      editText(NOTE, text, [40, 300, 1040, 600]),
    ],
  },
]

describe('typing tools in a field whose text wraps onto several lines', function () {
  this.timeout(60_000)
  const h = useScreenCases(notes(PARAGRAPH), CASES, {fields: [{resourceId: NOTE, multiLine: true}]})
  const device = () => h.emu.device('emu-1')
  const arc = (env: Record<string, string>, ...args: string[]) =>
    runArc([...args, '--typing-speed', '10', '--typing-speed-variance', '0'], {env: {...h.env, ...env}})
  const held = () => fieldHolds(h.emu.device('emu-1'), NOTE)
  const commandsSince = (from: number) => h.emu.commands.slice(from).map((c) => c.argv.join(' '))
  const sdk = (level: string) => device().properties.set('ro.build.version.sdk', level)

  afterEach(() => sdk('34'))

  it('MOVE_END after the focus tap stops at the end of the tapped line on this device, as on a phone', async () => {
    device().showScreen('tapped')
    const from = h.emu.commands.length
    // What arc sent before: the focus tap, MOVE_END, the text.
    await runArc(['tap', '540', '450'], {env: h.env})
    await runArc(['press', 'key', 'MOVE_END'], {env: h.env})
    await runArc(['shell', '--', 'input', 'text', 'X'], {env: h.env})
    expect(commandsSince(from).some((c) => c.startsWith('input tap'))).to.equal(true)
    expect(held()).to.not.equal(`${PARAGRAPH}X`)
    expect(held().replace('X', '')).to.equal(PARAGRAPH)
  })

  it('type append puts the text after the whole paragraph (ALT+DPAD_DOWN by input keycombination, Android 13+)', async () => {
    device().showScreen('append')
    const from = h.emu.commands.length
    const r = await arc({ARC_HELPER: 'off'}, 'type', 'append', '--res-id', NOTE, ' The end.', '--json')
    expect(r.stderr).to.equal('')
    expect(JSON.parse(r.stdout)).to.include({content: `${PARAGRAPH} The end.`})
    expect(held()).to.equal(`${PARAGRAPH} The end.`)
    expect(commandsSince(from)).to.include('input keycombination KEYCODE_ALT_LEFT KEYCODE_DPAD_DOWN')
    expect(commandsSince(from).join('\n')).to.not.include('MOVE_END')
  })

  it('type insert and type replace place the cursor by the whole text, across its visual lines', async () => {
    device().showScreen('edits')
    const insert = await arc(
      {ARC_HELPER: 'off'},
      'type',
      'insert',
      '--res-id',
      NOTE,
      'very ',
      '--offset',
      '10',
      '--json'
    )
    expect(insert.stderr).to.equal('')
    const inserted = `${PARAGRAPH.slice(0, 10)}very ${PARAGRAPH.slice(10)}`
    expect(JSON.parse(insert.stdout)).to.include({content: inserted})
    // "farmer" lies on the third visual line, "harvest" on the fourth: nearer the end, reached from it.
    const replace = await arc({ARC_HELPER: 'off'}, 'type', 'replace', '--res-id', NOTE, 'farmer', 'miller', '--json')
    expect(replace.stderr).to.equal('')
    const replaced = inserted.replace('farmer', 'miller')
    expect(JSON.parse(replace.stdout)).to.include({content: replaced})
    const late = await arc({ARC_HELPER: 'off'}, 'type', 'replace', '--res-id', NOTE, 'harvest', 'crop', '--json')
    expect(late.stderr).to.equal('')
    expect(held()).to.equal(replaced.replace('harvest', 'crop'))
  })

  it('through the helper on any release: the arrow stamped with the ALT state (`key 20 18`), no modifier key event', async () => {
    device().showScreen('helper')
    sdk('30')
    const r = await arc({ARC_HELPER: 'auto'}, 'type', 'append', '--res-id', NOTE, ' The end.', '--json')
    expect(r.stderr).to.equal('')
    expect(held()).to.equal(`${PARAGRAPH} The end.`)
    expect(device().helperRequests.map((q) => q.join(' '))).to.include('key 20 18')
  })

  it('before Android 13 without the helper: MOVE_END, then a probe finds the cursor, and nothing of it stays', async () => {
    device().showScreen('probe')
    sdk('30')
    const from = h.emu.commands.length
    const r = await arc({ARC_HELPER: 'off'}, 'type', 'append', '--res-id', NOTE, ' The end.', '--json')
    expect(r.stderr).to.equal('')
    expect(JSON.parse(r.stdout)).to.include({content: `${PARAGRAPH} The end.`})
    expect(held()).to.equal(`${PARAGRAPH} The end.`)
    const sent = commandsSince(from)
    expect(sent.join('\n')).to.not.include('keycombination')
    expect(sent.join('\n')).to.include('KEYCODE_MOVE_END')
    // The probe: a character the paragraph lacks (it holds no digit), typed once and deleted.
    expect(sent.filter((c) => c === 'input text 0')).to.have.length(1)
  })

  it('a key with modifiers before Android 13 without the helper is UNSUPPORTED, and nothing is sent', async () => {
    sdk('30')
    const driver = await connectAdbDriver({
      serial: 'emu-1',
      port: h.emu.port,
      host: '127.0.0.1',
      env: {ARC_HELPER: 'off'},
    })
    try {
      const from = h.emu.commands.length
      const failure = await driver.pressKeyWith(['ALT'], 'DPAD_DOWN').then(
        () => undefined,
        (error: unknown) => error as {code?: string; details?: Record<string, unknown>}
      )
      expect(failure?.code).to.equal('UNSUPPORTED')
      expect(failure?.details).to.include({reason: 'KEY_MODIFIERS_UNSUPPORTED', key: 'ALT+DPAD_DOWN', device_api: 30})
      expect(commandsSince(from).filter((c) => c.startsWith('input'))).to.deep.equal([])
    } finally {
      await driver.close()
    }
  })
})
