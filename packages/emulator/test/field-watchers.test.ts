/**
 * The scenario's field rules that model an app's own code on an edit field (field-watchers.ts): a TextWatcher that
 * groups digits with commas after every edit, an InputFilter that keeps the text from deletes, a TextWatcher that
 * moves the focus to the next field once one is full (the keys after it go there).
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'

import {clientFor, emulate, shell, tempDir, type AdbClient} from './support.js'

const AMOUNT = 'com.example:id/amount'
const LIMIT = 'com.example:id/limit'
const PIN1 = 'com.example:id/pin1'
const PIN2 = 'com.example:id/pin2'
const NEXT = 'com.example:id/next'

const box = (res: string, text: string, bounds: [number, number, number, number], focused = false): NodeSpec => ({
  cls: 'android.widget.EditText',
  res,
  text,
  attrs: {clickable: 'true', focusable: 'true', focused: String(focused)},
  bounds,
})
const form: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      box(AMOUNT, '1,234', [40, 200, 1040, 320], true),
      box(LIMIT, '999', [40, 400, 1040, 520]),
      box(PIN1, '', [40, 600, 500, 720]),
      box(PIN2, '', [540, 600, 1040, 720]),
      {
        cls: 'android.widget.Button',
        res: NEXT,
        text: 'Next',
        attrs: {clickable: 'true', focusable: 'true'},
        bounds: [40, 800, 1040, 920],
      },
    ],
  },
]

describe('emulator: field rules that model an app’s TextWatcher and InputFilter', () => {
  let emu: Emulator
  let client: AdbClient
  let tmp: ReturnType<typeof tempDir>
  const run = (command: string) => shell(client, 'emu-1', command)
  const attr = (id: string, name: string) => {
    const tag =
      emu
        .device('emu-1')
        .dumpXml()
        .match(/<node\b[^>]*>/g)
        ?.find((t) => t.includes(`resource-id="${id}"`)) ?? ''
    return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  }

  beforeEach(async () => {
    tmp = tempDir()
    await writeFile(path.join(tmp.dir, 'form.xml'), dumpXml(form))
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {form: path.join(tmp.dir, 'form.xml')},
            fields: [
              {resourceId: AMOUNT, format: 'group-digits'},
              {resourceId: LIMIT, keepsText: true},
              {resourceId: PIN1, maxLength: 2, focusNext: {after: 2, to: PIN2}},
              {resourceId: PIN2, maxLength: 2, focusNext: {after: 2, to: NEXT}},
            ],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  afterEach(async () => {
    await emu.close()
    tmp.cleanup()
  })

  it('group-digits: a 0 typed at the end of "1,234" shows "12,340"; a DEL right after it shows "1,234" again', async () => {
    await run('input keyevent KEYCODE_MOVE_END')
    await run('input text 0')
    expect(attr(AMOUNT, 'text')).to.equal('12,340')
    await run('input keyevent KEYCODE_DEL')
    expect(attr(AMOUNT, 'text')).to.equal('1,234')
    // The cursor stays behind the digit it was behind: a 5 typed after the first digit.
    await run('input keyevent KEYCODE_MOVE_HOME KEYCODE_DPAD_RIGHT')
    await run('input text 5')
    expect(attr(AMOUNT, 'text')).to.equal('15,234')
  })

  it('keepsText: the delete keys change nothing, typed text goes in', async () => {
    await run('input tap 500 460')
    await run('input keyevent KEYCODE_DEL KEYCODE_DEL KEYCODE_FORWARD_DEL')
    expect(attr(LIMIT, 'text')).to.equal('999')
    await run('input text 1')
    expect(attr(LIMIT, 'text')).to.equal('9991')
  })

  it('focusNext: once a PIN box is full the focus moves on, and the keys after it go there, a space to the button', async () => {
    await run('input tap 200 660')
    await run('input text 12345')
    expect([attr(PIN1, 'text'), attr(PIN2, 'text')]).to.deep.equal(['12', '34'])
    expect(attr(NEXT, 'focused')).to.equal('true')
    await run('input text %s')
    expect(emu.device('emu-1').clicks.map((n) => n.resourceId)).to.deep.equal([NEXT])
  })
})
