/**
 * Typing tools in a field holding right-to-left text. On a phone the cursor keys move by how the text is drawn
 * (Layout.getOffsetToLeftRightOf advances on a left move in a right-to-left paragraph; Selection.findEdge makes
 * MOVE_END the line's start there): DPAD_LEFT from the end of a Hebrew text moves no cursor, the key is not taken and
 * the focus goes to the control on the left, which takes what is typed next. The virtual device models a paragraph's
 * direction (its first strong character), so arc's cursor keys counted in the text's order go wrong here as on a
 * phone. arc refuses to move the cursor by keys through such text (RIGHT_TO_LEFT_TEXT), before sending anything;
 * the whole text's start and end (ALT+DPAD_UP/DOWN set the selection by offset) stay allowed.
 */
import {exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {fieldHolds, useScreenCases} from '@arc-cli/test-support/emulator-support'
import {editText, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const FIRST = 'com.example.form:id/first'
const NAME = 'com.example.form:id/name'
/** "Shalom olam": nine characters, all Hebrew but the space. */
const HEBREW = 'שלום עולם'
const CASES = ['insert', 'append', 'probe']

/** Two one-line fields side by side: FIRST empty on the left, NAME holding `text` on the right. */
const form = (text: string): NodeSpec[] => [
  {
    pkg: 'com.example.form',
    bounds: [0, 0, 1080, 2400],
    children: [editText(FIRST, '', [40, 300, 500, 420]), editText(NAME, text, [540, 300, 1040, 420])],
  },
]

describe('typing tools in a field holding right-to-left text', function () {
  this.timeout(60_000)
  const h = useScreenCases(form(HEBREW), CASES)
  const device = () => h.emu.device('emu-1')
  const arc = (env: Record<string, string>, ...args: string[]) =>
    runArc([...args, '--typing-speed', '10', '--typing-speed-variance', '0', '--json'], {env: {...h.env, ...env}})
  const held = (res: string) => fieldHolds(device(), res)
  const keysSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv.join(' '))
      .filter((c) => c.startsWith('input key') || c.startsWith('input text'))
  const reasonOf = (stdout: string) =>
    (JSON.parse(stdout) as {error: {details: Record<string, unknown>}}).error.details.reason
  const sdk = (level: string) => device().properties.set('ro.build.version.sdk', level)

  afterEach(() => sdk('34'))

  it('type insert inside the text is refused before any key: a DPAD_LEFT at its end would move the focus to FIRST', async () => {
    device().showScreen('insert')
    const from = h.emu.commands.length
    // Offset 7 of 9 is nearer the end: counted in the text's order, two DPAD_LEFT from the end.
    const r = await arc({ARC_HELPER: 'off'}, 'type', 'insert', '--res-id', NAME, 'X', '--offset', '7')
    expect(held(FIRST)).to.equal('')
    expect(held(NAME)).to.equal(HEBREW)
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
    expect(reasonOf(r.stdout)).to.equal('RIGHT_TO_LEFT_TEXT')
    expect(keysSince(from)).to.deep.equal([])
  })

  it('type append reaches the end by ALT+DPAD_DOWN, which goes by offset: allowed', async () => {
    device().showScreen('append')
    const r = await arc({ARC_HELPER: 'off'}, 'type', 'append', '--res-id', NAME, '!')
    expect(r.code, r.stdout + r.stderr).to.equal(0)
    expect(held(NAME)).to.equal(`${HEBREW}!`)
    expect(held(FIRST)).to.equal('')
  })

  it('without modified keys (Android 12, no helper) even append is refused: MOVE_END goes to the line start there', async () => {
    device().showScreen('probe')
    sdk('31')
    const from = h.emu.commands.length
    const r = await arc({ARC_HELPER: 'off'}, 'type', 'append', '--res-id', NAME, '!')
    expect(held(NAME)).to.equal(HEBREW)
    expect(held(FIRST)).to.equal('')
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
    expect(reasonOf(r.stdout)).to.equal('RIGHT_TO_LEFT_TEXT')
    expect(keysSince(from)).to.deep.equal([])
  })
})
