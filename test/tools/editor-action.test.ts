import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

/**
 * `press key EDITOR_ACTION`: the focused field's editor action (the keyboard's search/send/done key) through arc's
 * on-device helper (AccessibilityAction.ACTION_IME_ENTER, Android 11+). The virtual device is as strict as a phone:
 * its app reacts to the editor action (a transition with `editorAction`) and not to KEYCODE_ENTER, which a TextView
 * hands to the listener as IME_NULL (AOSP TextView.onKeyUp). Plain ADB has no editor action: UNSUPPORTED, naming why.
 */
describe('press key EDITOR_ACTION performs the keyboard’s action key, which ENTER is not', function () {
  this.timeout(60_000)
  const h = useEmulator({
    devices: [],
    scenario: {
      devices: {
        'emu-1': {
          screens: {form: DEMO_DIR, results: DEMO_DIR},
          windowsDump: true,
          transitions: [{from: 'form', editorAction: true, to: 'results'}],
        },
        'old-1': {snapshot: DEMO_DIR, windowsDump: true, properties: {'ro.build.version.sdk': '29'}},
      },
    },
  })
  const arc = (serial: string, env: Record<string, string>, ...args: string[]) =>
    runArc([...args, '--device', serial], {env: {...h.env, ...env}})
  const device = () => h.emu.device('emu-1')

  afterEach(() => device().showScreen('form'))

  it('ENTER is a key event the search field’s app ignores; press key EDITOR_ACTION runs its action (through the helper)', async () => {
    const enter = await arc('emu-1', {ARC_HELPER: 'off'}, 'press', 'key', 'ENTER')
    expect(enter.code, enter.stderr).to.equal(0)
    expect(device().screenName).to.equal('form')
    const before = device().inputEvents.length
    const run = await arc('emu-1', {ARC_HELPER: 'auto'}, 'press', 'key', 'EDITOR_ACTION', '--json')
    expect(run.code, run.stderr).to.equal(0)
    expect(JSON.parse(run.stdout)).to.deep.include({key: 'EDITOR_ACTION', code: null})
    expect(
      device()
        .inputEvents.slice(before)
        .filter((e) => e.type === 'editor-action')
    ).to.have.length(1)
    expect(device().screenName).to.equal('results')
  })

  it('without the helper it is UNSUPPORTED (exit 12), says why and what works instead, and nothing reaches the app', async () => {
    const before = device().inputEvents.length
    const run = await arc('emu-1', {ARC_HELPER: 'off'}, 'press', 'key', 'EDITOR_ACTION')
    expect(run.code).to.equal(12)
    expect(run.stderr)
      .to.include("cannot perform an editor action (the keyboard's action key) without arc's on-device helper")
      .and.include('ADB_EDITOR_CODE')
    expect(device().inputEvents.slice(before)).to.deep.equal([])
    expect(device().screenName).to.equal('form')
  })

  it('before Android 11 the helper refuses it and the error names the release', async () => {
    const run = await arc('old-1', {ARC_HELPER: 'auto'}, 'press', 'key', 'EDITOR_ACTION')
    expect(run.code).to.equal(12)
    expect(run.stderr).to.include('needs Android 11 (API 30); this is API 29')
  })
})
