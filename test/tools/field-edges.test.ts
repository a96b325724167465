/**
 * Cursor placement as a phone takes it (the virtual device moves the focus out of a field at its edges, clicks a
 * focused button on a confirm key, and steps over grapheme clusters): arc never sends a cursor key past what the
 * field holds, and counts `offset` in code points and the deletes as Android deletes.
 */
import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

const FIELD = 'dev.arc.demo.groceries:id/new_item'
const ADD = 'dev.arc.demo.groceries:id/add_button'
const THUMB = '\u{1F44D}\u{1F3FD}'

describe('typing tools at a field edge and beyond UTF-16 (against a device that moves the focus)', function () {
  this.timeout(60_000)
  const h = useEmulator({
    devices: [],
    scenario: {
      devices: {
        'emu-1': {
          // One screen per case, each with its own empty field.
          screens: {hint: DEMO_DIR, insert: DEMO_DIR, replace: DEMO_DIR, added: DEMO_DIR},
          // The ADD button beside the field, clicked, goes to another screen: what a stray confirm key would do.
          transitions: [{tap: {resourceId: ADD}, to: 'added'}],
        },
      },
    },
  })
  const device = () => h.emu.device('emu-1')
  const arc = (...args: string[]) =>
    runArc([...args, '--typing-speed', '10', '--typing-speed-variance', '0'], {env: h.env})
  const fieldText = () =>
    device()
      .dumpXml()
      .match(/<node\b[^>]*>/g)
      ?.find((t) => t.includes(`resource-id="${FIELD}"`))
      ?.match(/\btext="([^"]*)"/)?.[1]
  const keysSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .flatMap((c) => (c.argv[0] === 'input' && c.argv[1] === 'keyevent' ? c.argv.slice(2) : []))

  const show = (screen: string) => {
    device().showScreen(screen)
    device().clicks.length = 0
  }

  it('type insert into an empty field showing its hint sends no cursor key that leaves it: the offset is refused, nothing is clicked', async () => {
    show('hint')
    const from = h.emu.commands.length
    const r = await arc('type', 'insert', '--res-id', FIELD, 'x y', '--offset', '3')
    expect(r.stderr).to.match(/offset 3 is past the end of the field's text \(0 characters\): allowed 0-0/)
    expect(r.code).to.equal(2)
    expect(device().clicks).to.deep.equal([])
    expect(device().screenName).to.equal('hint')
    expect(keysSince(from)).to.not.include('KEYCODE_DPAD_RIGHT')
    expect(fieldText()).to.equal('Add an item')
  })

  it('type insert counts offset in code points and moves over an emoji sequence in one key', async () => {
    show('insert')
    device().recordInput({type: 'commit', text: `a${THUMB}b`})
    const r = await arc('type', 'insert', '--res-id', FIELD, 'X', '--offset', '3', '--json')
    expect(r.stderr).to.equal('')
    expect(JSON.parse(r.stdout)).to.include({content: `a${THUMB}Xb`})
    const inside = await arc('type', 'insert', '--res-id', FIELD, 'Y', '--offset', '2')
    expect(inside.code).to.equal(2)
    expect(inside.stderr).to.match(/offset 2 falls inside/)
    expect(fieldText()).to.equal(`a${THUMB}Xb`)
  })

  it('type replace deletes an emoji sequence with one DEL, as Android does', async () => {
    show('replace')
    device().recordInput({type: 'commit', text: `a${THUMB}b`})
    const from = h.emu.commands.length
    const r = await arc('type', 'replace', '--res-id', FIELD, THUMB, 'c', '--json')
    expect(r.stderr).to.equal('')
    expect(JSON.parse(r.stdout)).to.include({content: 'acb'})
    expect(keysSince(from).filter((k) => k === 'KEYCODE_DEL')).to.have.length(2)
  })
})
