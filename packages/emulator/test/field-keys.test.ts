/**
 * Keys in and around an edit field as a phone takes them: an arrow at the field's edge moves the focus to the next
 * control, a confirm key then clicks it, and the cursor keys and deletes step over what Android steps over
 * (grapheme clusters; DEL a code point or a whole emoji sequence), not UTF-16 units.
 */
import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, shell, type AdbClient} from './support.js'

const ADD = 'dev.arc.demo.groceries:id/add_button'
const FIELD = 'dev.arc.demo.groceries:id/new_item'

describe('emulator: keys at a field edge, confirm keys, and what one cursor key or DEL steps over', () => {
  let emu: Emulator
  let client: AdbClient
  const run = (command: string) => shell(client, 'emu-1', command)
  const attr = (xml: string, id: string, name: string) => {
    const tag = xml.match(/<node\b[^>]*>/g)?.find((t) => t.includes(`resource-id="${id}"`)) ?? ''
    return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]
  }
  const fieldText = () => attr(emu.device('emu-1').dumpXml(), FIELD, 'text')

  beforeEach(async () => {
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {list: DEMO_DIR, added: DEMO_DIR},
            // This suite checks where an input leads, not when it shows: the new screen shows at once (no transition time).
            timing: {transitionMs: 0},
            // The demo's ADD button, tapped (or clicked by a confirm key), goes to another screen.
            transitions: [{from: 'list', tap: {resourceId: ADD}, to: 'added'}],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  afterEach(() => emu.close())

  it('DPAD_RIGHT at the end of the empty field moves the focus to the ADD button beside it; text then goes nowhere, a space clicks it', async () => {
    const device = emu.device('emu-1')
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_RIGHT')
    const xml = device.dumpXml()
    expect([attr(xml, FIELD, 'focused'), attr(xml, ADD, 'focused')]).to.deep.equal(['false', 'true'])
    await run('input text abc')
    expect(fieldText()).to.equal('Add an item')
    expect(device.screenName).to.equal('list')
    // `%s` is a space: KEYCODE_SPACE, a confirm key, reaches the focused button and clicks it.
    await run('input text %s')
    expect(device.screenName).to.equal('added')
    expect(device.clicks.map((n) => n.resourceId)).to.deep.equal([ADD])
  })

  it('ENTER clicks the focused control; DPAD_LEFT brings the focus back into the field', async () => {
    const device = emu.device('emu-1')
    await run('input keyevent KEYCODE_DPAD_RIGHT KEYCODE_DPAD_LEFT')
    expect(attr(device.dumpXml(), FIELD, 'focused')).to.equal('true')
    await run('input text ok')
    expect(fieldText()).to.equal('ok')
    await run('input keyevent KEYCODE_DPAD_RIGHT KEYCODE_ENTER')
    expect(device.screenName).to.equal('added')
  })

  it('DPAD_LEFT at the start of a field with nothing to its left leaves the focus in the field', async () => {
    await run('input text ab')
    await run('input keyevent KEYCODE_MOVE_HOME KEYCODE_DPAD_LEFT')
    await run('input text X')
    expect(fieldText()).to.equal('Xab')
  })

  it('cursor keys step over grapheme clusters; DEL deletes a code point, or a whole emoji sequence', async () => {
    // a, thumbs up with a skin tone (2 code points, 4 UTF-16 units), e with a combining acute (2 code points), b.
    const text = 'a\u{1F44D}\u{1F3FD}e\u0301b'
    emu.device('emu-1').recordInput({type: 'commit', text})
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_LEFT KEYCODE_DPAD_LEFT')
    await run('input text X')
    expect(fieldText()).to.equal('a\u{1F44D}\u{1F3FD}Xe\u0301b')
    await run('input keyevent KEYCODE_DEL KEYCODE_DEL')
    expect(fieldText()).to.equal('ae\u0301b')
    await run('input keyevent KEYCODE_MOVE_END KEYCODE_DPAD_LEFT KEYCODE_DEL')
    expect(fieldText()).to.equal('aeb')
    await run('input keyevent KEYCODE_MOVE_HOME KEYCODE_FORWARD_DEL')
    expect(fieldText()).to.equal('eb')
  })
})
