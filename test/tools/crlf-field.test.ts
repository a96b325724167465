/**
 * A replace across a CR LF line break. One DEL deletes a CR LF whole on a phone (BaseKeyListener.
 * getOffsetForBackspaceKey: a LF's state takes the CR before it too; Compose deletes the preceding grapheme cluster),
 * as the virtual device does: arc counted two DELs for it, one per code point, and the second deleted the character
 * before the text replaced.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {fieldHolds, useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, editText} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const NOTE = 'com.example.notes:id/body'
const TEXT = 'Day one\r\ntwo three'

describe('typing tools in a field whose text holds a CR LF', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    const xml = dumpXml([
      {
        pkg: 'com.example.notes',
        bounds: [0, 0, 1080, 2400],
        children: [editText(NOTE, TEXT, [40, 300, 1040, 600])],
      },
    ])
    await writeFile(path.join(dir, 'note.xml'), xml)
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {screens: {note: path.join(dir, 'note.xml')}, fields: [{resourceId: NOTE, multiLine: true}]},
        },
      },
    }
  })
  const held = () => fieldHolds(h.emu.device('emu-1'), NOTE)

  it('type replace of text across the line break deletes it with one DEL for the CR LF, and nothing before it', async () => {
    const r = await runArc(
      ['type', 'replace', '--res-id', NOTE, 'one\r\ntwo', 'uno dos', '--typing-speed', '10', '--json'],
      {env: {...h.env, ARC_HELPER: 'off'}}
    )
    expect(held()).to.equal('Day uno dos three')
    expect(r.code, r.stdout + r.stderr).to.equal(0)
  })
})
