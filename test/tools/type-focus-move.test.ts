/**
 * Typing in chunks (typing_speed): between chunks an app may move the focus out of the field (PIN and OTP boxes that
 * move on by themselves, a form that jumps to the next field once one is full: a TextWatcher calling requestFocus),
 * and the rest would go to another field, or to a button that a space clicks. Where arc's on-device helper runs, a
 * read between chunks costs one request on its open stream: the typing stops there (FOCUS_MOVED), nothing more sent.
 * Neither that error nor the read-back's ever quotes what was typed into a password field.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel} from '@arc-cli/core'
import {connectAdbDriver} from '@arc-cli/core/testing'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {toolContext} from '@arc-cli/test-support/tool-context'

const NOTE = 'com.example:id/note'
const SEND = 'com.example:id/send'
const CARD = 'com.example:id/card'
const EXPIRY = 'com.example:id/expiry'
const PASSWORD = 'com.example:id/password'
const SHORT_PASSWORD = 'com.example:id/pin_password'

const edit = (res: string, hint: string, bounds: [number, number, number, number]): NodeSpec => ({
  cls: 'android.widget.EditText',
  res,
  text: hint,
  attrs: {clickable: 'true', focusable: 'true', hint},
  bounds,
})

/** A short message box whose app moves the focus to Send once it holds 20 characters, and a card form. */
const compose: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      edit(NOTE, 'Message', [40, 200, 800, 320]),
      {
        cls: 'android.widget.Button',
        res: SEND,
        text: 'Send',
        attrs: {clickable: 'true', focusable: 'true'},
        bounds: [840, 200, 1040, 320],
      },
      edit(CARD, 'Card number', [40, 500, 1040, 620]),
      edit(EXPIRY, 'MM/YY', [40, 700, 1040, 820]),
      {
        cls: 'android.widget.EditText',
        res: PASSWORD,
        text: '',
        attrs: {clickable: 'true', focusable: 'true', password: 'true'},
        bounds: [40, 900, 1040, 1020],
      },
      {
        cls: 'android.widget.EditText',
        res: SHORT_PASSWORD,
        text: '',
        attrs: {clickable: 'true', focusable: 'true', password: 'true'},
        bounds: [40, 1100, 1040, 1220],
      },
    ],
  },
]
const sent: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [{cls: 'android.widget.TextView', text: 'Message sent', bounds: [40, 200, 1040, 320]}],
  },
]

describe('typing in chunks stops where the app moved the focus out of the field', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'compose.xml'), dumpXml(compose))
    await writeFile(path.join(dir, 'sent.xml'), dumpXml(sent))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            // `fresh`: the same screen, with fields nothing was typed into yet.
            screens: {
              compose: path.join(dir, 'compose.xml'),
              fresh: path.join(dir, 'compose.xml'),
              again: path.join(dir, 'compose.xml'),
              sent: path.join(dir, 'sent.xml'),
            },
            timing: {transitionMs: 0},
            transitions: [{from: 'compose', tap: {resourceId: SEND}, to: 'sent'}],
            fields: [
              {resourceId: NOTE, focusNext: {after: 20, to: SEND}},
              {resourceId: CARD, maxLength: 16, focusNext: {after: 16, to: EXPIRY}},
              {resourceId: PASSWORD, focusNext: {after: 20, to: SEND}},
              {resourceId: SHORT_PASSWORD, maxLength: 8},
            ],
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  beforeEach(() => device().showScreen('compose'))

  async function run(name: string, input: Record<string, unknown>) {
    const tool = tools.find((t) => t.name === name)!
    const driver = await connectAdbDriver({
      port: h.emu.port,
      host: '127.0.0.1',
      timeoutMs: 10_000,
      env: {},
      helper: 'auto',
    })
    const from = h.emu.commands.length
    const fromHelper = device().helperRequests.length
    const done = () => ({
      texts: h.argvSince(from).filter((a) => a[0] === 'input' && a[1] === 'text'),
      commands: h.argvSince(from),
      helper: device().helperRequests.slice(fromHelper),
    })
    try {
      const result = await tool.handler(toolContext(driver), tool.input.parse(input))
      return {error: undefined, data: result.data as Record<string, unknown>, ...done()}
    } catch (error) {
      return {error: error as {code: string; message: string; details: Record<string, unknown>}, data: {}, ...done()}
    } finally {
      await driver.close()
    }
  }
  const idOf = async (res: string) => buildScreenModel(await h.capture()).elements.find((e) => e.resId === res)!.id
  const textOf = async (res: string) => buildScreenModel(await h.capture()).elements.find((e) => e.resId === res)?.text
  const fast = {typing_speed: 10, typing_speed_variance: 0}

  it('the focus moved to a button after the first chunk: the rest, which starts with a space, is not typed (it would click Send)', async () => {
    const id = await idOf(NOTE)
    const text = `${'a'.repeat(20)} and more`
    const r = await run('type_append_text', {element_id: id, text, ...fast})
    expect(device().screenName).to.equal('compose')
    expect(device().clicks.map((n) => n.resourceId)).to.not.include(SEND)
    expect(r.texts).to.deep.equal([['input', 'text', 'a'.repeat(20)]])
    expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect(r.error!.details).to.include({reason: 'FOCUS_MOVED', typed: 20, not_typed: 9, focused: await idOf(SEND)})
    expect(r.error!.message).to.include(`the focus is on Button ${await idOf(SEND)} (${SEND}) "Send"`)
    expect(r.error!.message).to.include(`20 of 29 characters were sent ("${'a'.repeat(20)}")`)
  })

  it('a card field that moves on to the expiry once full: the chunk that crossed is sent, nothing after it', async () => {
    const id = await idOf(CARD)
    const text = `4111111111111111${'1229'}${'9'.repeat(10)}`
    const r = await run('type_append_text', {element_id: id, text, ...fast})
    expect(r.texts).to.have.length(1)
    expect(r.error!.details).to.include({reason: 'FOCUS_MOVED', typed: 20, focused: await idOf(EXPIRY)})
    expect(await textOf(CARD)).to.equal('4111111111111111')
    // The end of the one chunk went where the focus went: said, and nothing more followed it.
    expect(await textOf(EXPIRY)).to.equal('1229')
    expect(r.error!.message).to.include('the end of them maybe where the focus went')
  })

  it('costs one helper read per later chunk where the focus stays: no shell command, no uiautomator', async () => {
    device().showScreen('fresh')
    // 19 characters into the message box: one chunk, no check at all.
    let r = await run('type_append_text', {element_id: await idOf(NOTE), text: 'x'.repeat(19), ...fast})
    expect(r.error?.message).to.equal(undefined)
    // The read that finds the field, the read after its focus tap, the read-back.
    expect(r.helper.filter(([op]) => op === 'dump')).to.have.length(3)
    const shells = r.commands.filter((a) => a[0] !== 'input').length
    // 45 characters into a field the app leaves alone: three chunks, a check before the second and the third.
    r = await run('type_append_text', {element_id: await idOf(EXPIRY), text: '1'.repeat(45), ...fast})
    expect(r.error?.message).to.equal(undefined)
    expect(r.texts).to.have.length(3)
    const dumps = r.helper.filter(([op]) => op === 'dump')
    expect(dumps).to.have.length(5)
    // The checks wait for no action of arc's to settle (no SINCE_MS): each is one request, at once.
    expect(dumps.filter((d) => d.length === 1)).to.have.length.at.least(2)
    // No device command of its own either: as many as the one-chunk call ran, besides the `input text`s.
    expect(r.commands.filter((a) => a[0] !== 'input')).to.have.length(shells)
  })

  it('text of one chunk that crosses the move (no check between chunks can stop it): the read-back names the field that took the focus', async () => {
    device().showScreen('again')
    const r = await run('type_append_text', {element_id: await idOf(CARD), text: '411111111111111112', ...fast})
    expect(await textOf(EXPIRY)).to.equal('12')
    expect(r.error!.details).to.include({
      reason: 'TEXT_NOT_TAKEN',
      actual: '4111111111111111',
      focused: await idOf(EXPIRY),
    })
    expect(r.error!.message).to.include(`the focus moved on to the field ${await idOf(EXPIRY)} (${EXPIRY})`)
  })

  it("a password field's characters are not quoted in the error", async () => {
    const secret = 'correct-horse-battery-staple'
    const r = await run('type_append_text', {element_id: await idOf(PASSWORD), text: secret, ...fast})
    expect(r.error!.details).to.include({reason: 'FOCUS_MOVED', typed: 20, not_typed: 8})
    expect(r.error!.message).to.include('20 of 28 characters were sent, the end')
    expect(r.error!.message).to.not.include(secret.slice(0, 5))
  })

  it("a password field that did not take the text: the read-back's error gives lengths, never the password", async () => {
    device().showScreen('again')
    const secret = 'hunter2-and-more'
    const r = await run('type_append_text', {element_id: await idOf(SHORT_PASSWORD), text: secret, ...fast})
    expect(r.error!.details).to.include({reason: 'TEXT_NOT_TAKEN', expected_length: 16, actual_length: 8})
    expect(r.error!.details).to.not.have.property('expected')
    expect(r.error!.message).to.include('expected 16 characters (a password field: not shown), it holds 8')
    expect(JSON.stringify(r.error!.details) + r.error!.message).to.not.include('hunter2')
  })
})
