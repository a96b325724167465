/**
 * The typing tools' probe characters and errors where the app moves the focus on by itself (PIN and OTP boxes, a form
 * that jumps to the next field once one is full: a TextWatcher calling requestFocus; the virtual device's `focusNext`
 * rule). A probe that fills such a field takes the focus elsewhere as it goes in: the DEL meant to take it out would
 * delete in the next field. And a replace in a field that only shows its hint must find nothing, never type into it.
 */
import {exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {fieldHolds, useScreenCases} from '@arc-cli/test-support/emulator-support'
import {editText, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const PIN = 'com.example.form:id/pin'
const NEXT = 'com.example.form:id/next'
const SEARCH = 'com.example.form:id/search'
const PASSWORD = 'com.example.form:id/password'
const CASES = ['probe', 'hint', 'secret']

const form = (): NodeSpec[] => [
  {
    pkg: 'com.example.form',
    bounds: [0, 0, 1080, 2400],
    children: [
      editText(PIN, '123', [40, 300, 500, 420]),
      editText(NEXT, '77', [540, 300, 1040, 420]),
      // Empty, showing its hint: a dump before Android 16 shows the hint's words as its text and no hint attribute.
      editText(SEARCH, 'Search items', [40, 500, 1040, 620], {hint: 'Search items'}),
      editText(PASSWORD, '', [40, 700, 1040, 820], {password: 'true'}),
    ],
  },
]

describe('typing tools where the app moves the focus on by itself', function () {
  this.timeout(60_000)
  const h = useScreenCases(form(), CASES, {
    fields: [
      {resourceId: PIN, focusNext: {after: 4, to: NEXT}},
      {resourceId: PASSWORD, focusNext: {after: 8, to: NEXT}},
    ],
  })
  const device = () => h.emu.device('emu-1')
  const arc = (...args: string[]) =>
    runArc([...args, '--typing-speed', '10', '--typing-speed-variance', '0', '--json'], {env: h.env})
  const errorOf = (stdout: string) =>
    (JSON.parse(stdout) as {error: {code: string; message: string; details: Record<string, unknown>}}).error
  const typedSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv.join(' '))
      .filter((c) => c.startsWith('input text') || c.startsWith('input keyevent'))

  it('a probe that moves the focus on is not deleted in the next field: FOCUS_MOVED, the probe said to stay', async () => {
    device().showScreen('probe')
    // Inside "123" (Android 14's dump cannot tell text from a hint): one probe at its end first, which fills the box.
    const r = await arc('type', 'insert', '--res-id', PIN, '9', '--offset', '1')
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('DEVICE_COMMAND_FAILED'))
    const error = errorOf(r.stdout)
    expect(error.details).to.include({reason: 'FOCUS_MOVED', probe: '0'})
    expect(error.message).to.include('the probe stays in the field')
    expect(fieldHolds(device(), NEXT)).to.equal('77')
    expect(fieldHolds(device(), PIN)).to.equal('1230')
  })

  it('type replace in an empty field showing its hint finds nothing there and types nothing', async () => {
    device().showScreen('hint')
    const from = h.emu.commands.length
    const r = await arc('type', 'replace', '--res-id', SEARCH, 'items', 'foo')
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(fieldHolds(device(), SEARCH)).to.equal('')
    expect(typedSince(from)).to.not.include('input text foo')
  })

  it('an error after a password moved on into another field never quotes what that field got', async () => {
    device().showScreen('secret')
    const r = await arc('type', 'append', '--res-id', PASSWORD, 'hunter2-and-more')
    expect(r.code, r.stdout + r.stderr).to.not.equal(0)
    // The rest of the password went into NEXT, which the error names.
    expect(fieldHolds(device(), NEXT)).to.include('and-more')
    expect(r.stdout + r.stderr).to.not.include('and-more')
    expect(r.stdout + r.stderr).to.not.include('hunter2')
  })
})
