/**
 * Typing tools in a field holding an invisible format character (here a soft hyphen, U+00AD). How many cursor keys
 * step over one depends on the release: newer minikin keeps a format character with the character before it
 * (GraphemeBreak::isGraphemeBreak), older releases and Unicode's grapheme rules give it a stop of its own. arc cannot
 * count keys across one that land right on every phone, so it refuses cursor keys that would cross one
 * (FORMAT_CHARACTER), before sending anything; edits whose keys do not cross it, and the whole text's ends, go on.
 */
import {exitCodeFor} from '@arc-cli/core'
import {expect} from 'chai'

import {fieldHolds, useScreenCases} from '@arc-cli/test-support/emulator-support'
import {editText, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const FIELD = 'com.example.form:id/word'
/** "co-operate now" with a soft hyphen: 13 code points, the hyphen invisible unless the line breaks there. */
const TEXT = 'co\u00adoperate now'
const CASES = ['crossed', 'beside', 'ends']

const form = (text: string): NodeSpec[] => [
  {
    pkg: 'com.example.form',
    bounds: [0, 0, 1080, 2400],
    children: [editText(FIELD, text, [40, 300, 1040, 420])],
  },
]

describe('typing tools across an invisible format character', function () {
  this.timeout(60_000)
  const h = useScreenCases(form(TEXT), CASES)
  const device = () => h.emu.device('emu-1')
  const arc = (...args: string[]) =>
    runArc([...args, '--typing-speed', '10', '--typing-speed-variance', '0', '--json'], {env: h.env})
  const held = () => fieldHolds(h.emu.device('emu-1'), FIELD)
  const inputsSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv.join(' '))
      .filter((c) => c.startsWith('input'))

  it('an insert whose cursor keys would cross it is refused before anything is sent (FORMAT_CHARACTER)', async () => {
    device().showScreen('crossed')
    const from = h.emu.commands.length
    // Offset 4 is nearer the start: three DPAD_RIGHT from it, across the soft hyphen.
    const r = await arc('type', 'insert', '--res-id', FIELD, 'X', '--offset', '4')
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
    const error = (JSON.parse(r.stdout) as {error: {details: Record<string, unknown>; message: string}}).error
    expect(error.details).to.include({reason: 'FORMAT_CHARACTER', character: 'U+00AD'})
    expect(inputsSince(from)).to.deep.equal([])
    expect(held()).to.equal(TEXT)
    // A replace whose keys reach the end of its search text across it, too.
    const replace = await arc('type', 'replace', '--res-id', FIELD, 'ope', 'OPE')
    expect(replace.code).to.equal(exitCodeFor('UNSUPPORTED'))
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('an edit whose keys do not cross it, and an append, go on', async () => {
    device().showScreen('beside')
    const near = await arc('type', 'replace', '--res-id', FIELD, 'now', 'then')
    expect(near.stderr).to.equal('')
    expect(JSON.parse(near.stdout)).to.include({content: 'co\u00adoperate then'})
    const append = await arc('type', 'append', '--res-id', FIELD, '!')
    expect(append.stderr).to.equal('')
    expect(held()).to.equal('co\u00adoperate then!')
    const first = await arc('type', 'insert', '--res-id', FIELD, '"', '--offset', '0')
    expect(first.stderr).to.equal('')
    expect(held()).to.equal('"co\u00adoperate then!')
  })
})
