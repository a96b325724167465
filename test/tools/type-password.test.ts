/**
 * Password fields before Android 8.0: TextView gave a password field no text in its accessibility node up to 7.1
 * (onInitializeAccessibilityNodeInfoInternal set it only `if (!isPassword || shouldSpeakPasswordsForAccessibility())`),
 * so the dump says `text=""` whatever the field holds (arc emulate does the same below API 26). arc cannot read such
 * a field: a clear must not report an empty field left alone while the old password stays, and an append must not
 * report a failure (which a retry answers by typing the password twice) for text the field took.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {exitCodeFor} from '@arc-cli/core'
import {fieldHolds, useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

const PASSWORD = 'com.example:id/password'

/** A sign-in form: its password field holds `held` (the dump shows it only from API 26 on). */
const signIn = (held: string): NodeSpec[] => [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      {cls: 'android.widget.TextView', text: 'Sign in', bounds: [0, 100, 1080, 200]},
      {
        cls: 'android.widget.EditText',
        res: PASSWORD,
        text: held,
        attrs: {clickable: 'true', focusable: 'true', focused: 'true', password: 'true'},
        bounds: [40, 300, 1040, 420],
      },
    ],
  },
]

describe('typing into a password field whose text the release never shows (Android 7.1 and older)', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'held.xml'), dumpXml(signIn('hunter2')))
    await writeFile(path.join(dir, 'empty.xml'), dumpXml(signIn('')))
    await writeFile(path.join(dir, 'fresh.xml'), dumpXml(signIn('')))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              held: path.join(dir, 'held.xml'),
              empty: path.join(dir, 'empty.xml'),
              fresh: path.join(dir, 'fresh.xml'),
            },
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  const arc = (...args: string[]) => runArc(args, {env: h.env})
  /** What the field holds on the device (its dump cannot say below API 26). */
  const held = () => fieldHolds(device(), PASSWORD)
  const sdk = (level: string) => device().properties.set('ro.build.version.sdk', level)
  afterEach(() => {
    sdk('34')
    device().clearFaults()
  })

  it('the dump of API 25 shows no text in a password field that holds one', () => {
    sdk('25')
    device().showScreen('held')
    const tag = device()
      .dumpXml()
      .match(/<node\b[^>]*>/g)
      ?.find((t) => t.includes(PASSWORD))
    expect(tag).to.include('text=""')
    expect(held()).to.equal('hunter2')
  })

  it('type clear is refused, nothing sent, rather than reporting an empty field while the old password stays', async () => {
    sdk('25')
    device().showScreen('held')
    const from = device().inputEvents.length
    const r = await arc('type', 'clear', '--res-id', PASSWORD, '--json')
    expect(held()).to.equal('hunter2')
    expect(r.code, r.stdout + r.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
    const error = JSON.parse(r.stdout) as {error: {message: string; details: {reason: string}}}
    expect(error.error.details.reason).to.equal('PASSWORD_TEXT_HIDDEN')
    expect(error.error.message).to.include('before Android 8.0')
    expect(device().inputEvents.slice(from)).to.deep.equal([])
  })

  it('type insert and type replace are refused the same way, nothing sent', async () => {
    sdk('25')
    device().showScreen('held')
    const from = device().inputEvents.length
    const insert = await arc('type', 'insert', '--res-id', PASSWORD, 'x', '--offset', '0')
    const replace = await arc('type', 'replace', '--res-id', PASSWORD, 'hunter', 'x')
    for (const r of [insert, replace]) {
      expect(r.code, r.stderr).to.not.equal(0)
      expect(r.stderr).to.match(/PASSWORD_TEXT_HIDDEN|before Android 8\.0/)
    }
    expect([insert.code, replace.code]).to.deep.equal([exitCodeFor('UNSUPPORTED'), exitCodeFor('UNSUPPORTED')])
    expect(held()).to.equal('hunter2')
    expect(device().inputEvents.slice(from)).to.deep.equal([])
  })

  it('type append types once and says the field cannot be checked, instead of failing TEXT_NOT_TAKEN', async () => {
    sdk('25')
    device().showScreen('empty')
    const r = await arc('type', 'append', '--res-id', PASSWORD, 'secret', '--json')
    expect(held()).to.equal('secret')
    expect(r.code, r.stdout + r.stderr).to.equal(0)
    const data = JSON.parse(r.stdout) as {typed: number; content: unknown; checked: boolean}
    expect(data).to.include({typed: 6, content: null, checked: false})
  })

  it('from Android 8.0 the field is read and checked as any other (by its length)', async () => {
    device().showScreen('held')
    const cleared = await arc('type', 'clear', '--res-id', PASSWORD)
    expect(cleared.code, cleared.stderr).to.equal(0)
    expect(held()).to.equal('')
    const typed = await arc('type', 'append', '--res-id', PASSWORD, 'secret', '--json')
    expect(typed.code, typed.stderr).to.equal(0)
    expect(held()).to.equal('secret')
  })

  it('a device whose release cannot be read is typed into and checked as before, not failed', async () => {
    device().showScreen('fresh')
    device().addFault({command: 'getprop', kind: 'garbage', output: '', times: 20})
    const r = await arc('type', 'append', '--res-id', PASSWORD, 'secret')
    expect(r.code, r.stderr).to.equal(0)
    expect(held()).to.equal('secret')
  })
})
