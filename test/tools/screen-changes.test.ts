import {cpSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {
  buildScreenModel,
  DEMO_DIR,
  fullElementId,
  MemoryDeviceState,
  openSnapshot,
  type DeviceDriver,
  type ToolContext,
} from '@arc-cli/core'
import {compactRow, getScreenState} from '@arc-cli/plugin-screen-state'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {tempDir} from '@arc-cli/test-support/temp-dir'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

/**
 * get_screen_state changes=ack|diff on sequences of screens from an `arc emulate` scenario: the demo list, the
 * same list after "ADD" was tapped (a new row, an item ticked, one text edited), and back.
 */
describe('get_screen_state changes: acks and diffs over a scenario', function () {
  const tmp = tempDir()
  let emu: Emulator
  let driver: DeviceDriver
  const state = new MemoryDeviceState()
  const context = (): ToolContext => toolContext(driver, {cwd: tmp.dir, state})
  const read = async (changes: 'off' | 'ack' | 'diff', detail: 'full' | 'compact' = 'full') =>
    getScreenState.handler(context(), {include_screenshot: false, detail, max_rows: 500, changes})

  const edited = path.join(tmp.dir, 'edited')
  before(async () => {
    cpSync(DEMO_DIR, edited, {recursive: true})
    const xml = readFileSync(path.join(DEMO_DIR, 'window_dump.xml'), 'utf8')
      .replace('text="Lemons"', 'text="Limes"')
      .replace('checked="true"', 'checked="false"')
    writeFileSync(path.join(edited, 'window_dump.xml'), xml)
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          phone: {
            screens: {list: DEMO_DIR, edited},
            // The screen a tap leads to shows at once: these tests check acks and diffs, not reads during a transition.
            timing: {transitionMs: 0},
            transitions: [
              {from: 'list', tap: {text: 'ADD'}, to: 'edited'},
              {from: 'edited', keyevent: 'BACK', to: 'list'},
            ],
          },
        },
      },
    })
    driver = await connectAdbDriver({serial: 'phone', port: emu.port, host: '127.0.0.1', env: {}})
  })
  after(async () => {
    await driver?.close()
    await emu?.close()
    tmp.cleanup()
  })

  it('answers an unchanged screen in one line of at most 30 tokens naming its fingerprint', async () => {
    const first = await read('ack')
    expect(first.text).to.match(/^note:structural-only/)
    const fingerprint = (first.data as {fingerprint: string}).fingerprint
    const again = await read('ack')
    expect(again.text).to.equal(`unchanged since last read (screen ${fingerprint})`)
    expect(encode(again.text).length).to.be.at.most(30)
    expect(again.data).to.deep.equal({unchanged: true, fingerprint})
    // diff on an unchanged screen is the same line.
    expect((await read('diff')).text).to.equal(again.text)
  })

  it('diffs by id after an action: the edited text and the unticked box, exactly', async () => {
    // (Whether an edit keeps an element's id is the id scheme's business: the expectation is computed from the
    // two screens' ids, and rows are compared as compact rows plus their checked state.)
    const before = buildScreenModel(await driver.captureScreen())
    await read('off')
    await driver.tap({x: 919, y: 294})
    expect(emu.device('phone').screenName).to.equal('edited')
    const after = buildScreenModel(await driver.captureScreen())
    const beforeIds = new Set(before.elements.map((e) => e.id))
    const afterIds = new Set(after.elements.map((e) => e.id))
    const added = after.elements.filter((e) => !beforeIds.has(e.id))
    const removed = before.elements.filter((e) => !afterIds.has(e.id))
    const box = after.elements.find((e) => e.resId.endsWith('item_done') && e.bounds[1] === 436)
    expect(box).to.not.equal(undefined)
    const row = (m: typeof before, id: string) => {
      const e = m.byId.get(id)
      return e ? `${compactRow(e, m)} ${e.bounds.join(',')} ${e.flags.on} ${e.window.id}` : ''
    }
    const changed = after.elements.filter((e) => beforeIds.has(e.id) && row(before, e.id) !== row(after, e.id))

    const diff = await read('diff')
    const lines = diff.text.split('\n')
    const data = diff.data as {
      added: string[]
      removed: string[]
      changed: string[]
      fingerprint: string
      previous_fingerprint: string
    }
    expect(data.added).to.deep.equal(added.map((e) => e.id))
    expect(data.removed).to.deep.equal(removed.map((e) => e.id))
    expect(data.changed).to.deep.equal(changed.map((e) => e.id))
    expect(added.length + changed.length).to.be.greaterThan(0)
    expect(lines[0]).to.equal(
      `changed since last read (screen ${data.previous_fingerprint} -> ${data.fingerprint}): +${added.length} -${removed.length} ~${data.changed.length}`
    )
    expect(
      lines
        .filter((l) => / check #item_done @78,472 unchecked$/.test(l))
        .map((l) => fullElementId(l.slice(2).split(' ')[0] as string))
    ).to.deep.equal([box?.id])
    expect(lines.filter((l) => l.startsWith('+ ')).map((l) => fullElementId(l.split(' ')[1] as string))).to.deep.equal(
      data.added
    )
    expect(lines.filter((l) => l.startsWith('- ')).map((l) => fullElementId(l.slice(2)))).to.deep.equal(data.removed)
    expect(diff.text).to.include('"Limes"')
    expect(lines.length).to.equal(1 + data.added.length + data.removed.length + data.changed.length)
    // Seed 001's per-element stability: every element of the new read, new / moved (same id, other bounds) / stable.
    const stability = (diff.data as {stability: Record<string, string>}).stability
    const expected = Object.fromEntries(
      after.elements.map((e) => [
        e.id,
        !beforeIds.has(e.id)
          ? 'new'
          : before.byId.get(e.id)?.bounds.join(',') === e.bounds.join(',')
            ? 'stable'
            : 'moved',
      ])
    )
    expect(stability).to.deep.equal(expected)
    expect(Object.values(stability)).to.include('new').and.include('stable')
  })

  it('back again: the diff reverses, then the unchanged line', async () => {
    // The first BACK closes the keyboard the edited screen shows (the app sees nothing), the second goes back.
    await driver.pressKey('BACK')
    expect(emu.device('phone').screenName).to.equal('edited')
    await driver.pressKey('BACK')
    expect(emu.device('phone').screenName).to.equal('list')
    const diff = await read('diff')
    expect(diff.text).to.match(/^changed since last read/)
    expect(diff.text).to.include('checked')
    expect(diff.text).to.include('"Lemons"')
    expect((await read('diff')).text).to.match(/^unchanged since last read \(screen [0-9a-f]{12}\)$/)
  })

  it('ack on a changed screen gives the whole screen, in the detail asked for', async () => {
    await driver.tap({x: 919, y: 294})
    const compact = await read('ack', 'compact')
    expect(compact.text).to.match(/^rows: id role/)
    await driver.pressKeys(['BACK', 'BACK'])
  })

  it('the CLI remembers the last read in the cache folder between processes', async () => {
    const cache = path.join(tmp.dir, 'cache')
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: cache, ANDROID_SERIAL: 'phone'}
    const first = await runArc(['screen-state', '--changes', 'ack', '--json'], {env})
    const fingerprint = JSON.parse(first.stdout).fingerprint as string
    const second = await runArc(['screen-state', '--changes', 'ack'], {env})
    expect(second.stdout.trim()).to.equal(`unchanged since last read (screen ${fingerprint})`)
  })

  it('a CLI caller that names itself (ARC_CALLER) has a baseline of its own: its first read is never "unchanged"', async function () {
    this.timeout(120_000)
    const cache = path.join(tmp.dir, 'cache-callers')
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: cache, ANDROID_SERIAL: 'phone'}
    const first = await runArc(['screen-state', '--changes', 'ack', '--json'], {env: {...env, ARC_CALLER: 'script-a'}})
    const fingerprint = JSON.parse(first.stdout).fingerprint as string
    const again = await runArc(['screen-state', '--changes', 'ack'], {env: {...env, ARC_CALLER: 'script-a'}})
    expect(again.stdout.trim()).to.equal(`unchanged since last read (screen ${fingerprint})`)
    for (const caller of ['script-b', `odd/../ ${'x'.repeat(300)}`]) {
      const other = await runArc(['screen-state', '--changes', 'ack', '--json'], {env: {...env, ARC_CALLER: caller}})
      expect(JSON.parse(other.stdout), caller).to.not.have.property('unchanged')
      expect(JSON.parse(other.stdout).fingerprint, caller).to.equal(fingerprint)
    }
    // Unnamed callers share the device's baseline, as a script of one caller expects; no named caller's reads set it.
    const unnamed = await runArc(['screen-state', '--changes', 'ack', '--json'], {env})
    expect(JSON.parse(unnamed.stdout)).to.not.have.property('unchanged')
  })

  it('a snapshot read twice is unchanged; its fingerprint does not depend on the options', async () => {
    const snap = await openSnapshot(DEMO_DIR)
    const ctx = {...context(), driver: snap, state: new MemoryDeviceState()}
    const a = await getScreenState.handler(ctx, {
      include_screenshot: false,
      detail: 'compact',
      max_rows: 500,
      changes: 'off',
    })
    const b = await getScreenState.handler(ctx, {
      include_screenshot: false,
      detail: 'full',
      max_rows: 500,
      changes: 'diff',
    })
    expect(b.text).to.equal(`unchanged since last read (screen ${(a.data as {fingerprint: string}).fingerprint})`)
  })
})
