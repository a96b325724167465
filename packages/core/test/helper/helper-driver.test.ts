/**
 * The ADB driver with the on-device helper next to it, capability by capability, against `arc emulate`: what the
 * helper serves in `auto` (every window without uiautomator's idle wait, the clipboard, several fingers, text beyond
 * ASCII by a paste with the clipboard put back), the fallback to ADB where it cannot start or serve, `required`
 * failing with the reason, `off` never starting it, and the element ids the same whichever backend read the screen.
 */
import {buildScreenModel, checkJpeg, pngSize, walkNodes} from '@arc-cli/core'
import {connectAdbDriver} from '@arc-cli/core/testing'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {rm} from 'node:fs/promises'
import {setTimeout as sleep} from 'node:timers/promises'

import {expect} from 'chai'

import type {AdbDriver} from '../../src/driver/adb/adb-driver.js'
import {backendUses} from '../../src/driver/adb/helper-backend.js'
import {closeHelperSessions} from '../../src/driver/adb/helper-session.js'
import {helperDevicePath, type HelperMode} from '../../src/driver/device-helper.js'
import {ArcError} from '../../src/errors/arc-error.js'

/** Two fingers moving apart over 120 ms: a pinch, the gesture of several fingers these tests play. */
const PINCH = [
  [
    {x: 500, y: 800, time: 0},
    {x: 300, y: 600, time: 120},
  ],
  [
    {x: 600, y: 900, time: 0},
    {x: 800, y: 1100, time: 120},
  ],
]

describe('the ADB driver with the on-device helper (arc emulate)', function () {
  this.timeout(60_000)
  const h = useEmulator({devices: [], scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, windowsDump: true}}}})
  const open: AdbDriver[] = []

  const driver = async (helper: HelperMode, helperHoldMs?: number, resident?: boolean): Promise<AdbDriver> => {
    const d = (await connectAdbDriver({
      serial: 'emu-1',
      port: h.emu.port,
      host: '127.0.0.1',
      timeoutMs: 10_000,
      env: {},
      helper,
      ...(helperHoldMs === undefined ? {} : {helperHoldMs}),
      ...(resident === undefined ? {} : {resident}),
    })) as AdbDriver
    open.push(d)
    return d
  }
  const device = () => h.emu.device('emu-1')
  /** No tap reached the helper after its first `asked` requests, and nothing was injected after `events` events. */
  const expectNoTouchSince = (asked: number, events: number) => {
    expect(
      device()
        .helperRequests.slice(asked)
        .map((r) => r[0])
    ).to.not.include('tap')
    expect(device().inputEvents.slice(events)).to.deep.equal([])
  }
  const programs = (from: number) => h.argvSince(from).map((argv) => argv.slice(0, 2).join(' '))

  afterEach(async () => {
    for (const d of open.splice(0)) await d.close()
    await closeHelperSessions()
    device().hiddenApisMissing.clear()
  })

  it('auto reads every window through the helper, and the ids are those of the uiautomator --windows read', async () => {
    const viaAdb = buildScreenModel(await (await driver('off')).captureScreen())
    const from = h.emu.commands.length
    const d = await driver('auto')
    const viaHelper = buildScreenModel(await d.captureScreen())
    expect(programs(from)).to.include('app_process /')
    expect(programs(from)).to.not.include('uiautomator dump')
    const ids = (m: typeof viaAdb) => m.windows.flatMap((w) => w.elements.map((e) => `${e.id} ${e.text ?? ''}`))
    expect(ids(viaHelper)).to.deep.equal(ids(viaAdb))
    expect(ids(viaHelper).length).to.be.greaterThan(3)
    expect(backendUses(d.shell).screen).to.deep.include({backend: 'helper'})
    // The next read reuses the running helper: no second start.
    const again = h.emu.commands.length
    await d.captureScreen()
    expect(programs(again).filter((p) => p === 'app_process /')).to.deep.equal([])
  })

  it('a call cut off while the helper was being put on the device leaves it to the next call (not "cannot start")', async () => {
    // A cancelled MCP call closes its driver mid-push: the helper must not count as unavailable for the process.
    await rm(device().files.hostPath(helperDevicePath()), {force: true})
    const cut = await driver('auto')
    const moving = device().holdNext('mv', 'after')
    const reading = cut.captureScreen().then(
      () => undefined,
      (error: unknown) => error
    )
    await moving.arrived
    await cut.close()
    moving.release()
    await reading
    const d = await driver('auto')
    await d.captureScreen()
    expect(backendUses(d.shell).screen).to.deep.include({backend: 'helper'})
  })

  it("a call sharing a helper start that another call's cancel cut off starts it again, and is not cancelled", async () => {
    await rm(device().files.hostPath(helperDevicePath()), {force: true})
    const a = await driver('auto')
    const b = await driver('auto')
    const moving = device().holdNext('mv', 'after')
    const reading = a.captureScreen().then(
      () => undefined,
      (error: unknown) => error
    )
    await moving.arrived
    // b's clipboard call waits on the start a began (the clipboard is not in the device's section).
    const setting = b.setClipboard('hello')
    await a.close()
    moving.release()
    expect(await reading).to.have.property('code', 'CANCELLED')
    await setting
    expect(await b.getClipboard()).to.equal('hello')
  })

  it('a tap waiting on a helper start another call began is not sent once its own driver closed meanwhile', async () => {
    await rm(device().files.hostPath(helperDevicePath()), {force: true})
    const a = await driver('auto', undefined, true)
    const b = await driver('auto', undefined, true)
    const moving = device().holdNext('mv', 'after')
    // b starts the helper from a call outside the device's section (the clipboard); a's tap then waits on that start.
    const reading = b.getClipboard()
    await moving.arrived
    const events = device().inputEvents.length
    const asked = device().helperRequests.length
    const tapping = a.tap({x: 500, y: 1000}).then(
      () => undefined,
      (e: unknown) => e
    )
    // Long enough for the tap to be waiting on the start (were it not yet, the close refuses it all the same).
    await sleep(100)
    await a.close()
    moving.release()
    await reading
    expect(await tapping).to.have.property('code', 'CANCELLED')
    expectNoTouchSince(asked, events)
  })

  it('a driver closed under an element action sends no touch through a running helper: CANCELLED, nothing injected', async () => {
    const d = await driver('auto', undefined, true)
    await d.tap({x: 1, y: 1}) // starts the helper: touches of a resident host then go through it
    const asked = device().helperRequests.length
    const events = device().inputEvents.length
    const error = await d
      .exclusive(async () => {
        await d.captureScreen()
        await d.close()
        await d.tap({x: 500, y: 1000})
      })
      .then(
        () => undefined,
        (e: unknown) => e
      )
    expect(error).to.have.property('code', 'CANCELLED')
    expectNoTouchSince(asked, events)
  })

  it('reads an animated screen, where uiautomator gives up waiting for idle', async () => {
    device().setAnimated(true)
    try {
      const model = buildScreenModel(await (await driver('auto')).captureScreen())
      expect(model.windows.length).to.be.greaterThan(0)
      const refused = await (await driver('off')).captureScreen().then(
        () => undefined,
        (error: unknown) => error
      )
      expect(refused).to.be.instanceOf(ArcError)
    } finally {
      device().setAnimated(false)
    }
  })

  it('auto falls back to uiautomator where app_process is missing, and says why', async () => {
    device().addFault({
      command: 'app_process',
      kind: 'error',
      message: '/system/bin/sh: app_process: not found\n',
      exitCode: 127,
    })
    const from = h.emu.commands.length
    const d = await driver('auto')
    const model = buildScreenModel(await d.captureScreen())
    expect(model.windows.length).to.be.greaterThan(0)
    expect(programs(from)).to.include('uiautomator dump')
    const use = backendUses(d.shell).screen
    expect(use?.backend).to.equal('adb')
    expect(use?.fallback).to.match(/^start: .*app_process: not found/)
  })

  it('on a locked device the clipboard is refused, never read as empty, and a paste leaves the user clip alone', async () => {
    const d = await driver('auto')
    device().clipboard = {text: 'the user copied this'}
    device().lock = 'secure'
    device().sleep()
    device().awake = true // the screen on, the PIN pad showing
    try {
      const read = await d.getClipboard().then(
        (text) => text,
        (e: unknown) => e as ArcError
      )
      expect(read).to.be.instanceOf(ArcError)
      expect((read as ArcError).code).to.equal('UNSUPPORTED')
      expect((read as ArcError).message).to.match(
        /; the on-device helper did not serve it either: UNSUPPORTED: the device is locked: Android hides the clipboard/
      )
      const events = device().inputEvents.length
      const typed = await d.inputText('café').then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(typed?.code).to.equal('UNSUPPORTED')
      expect(device().inputEvents.slice(events)).to.deep.equal([])
      expect(device().clipboard).to.deep.equal({text: 'the user copied this'})
    } finally {
      device().lock = 'none'
      device().keyguardShowing = false
    }
  })

  it('on Android 6 (API 23: no KEYCODE_PASTE) text beyond ASCII is refused before anything is typed, not pasted as nothing', async () => {
    const sdk = device().properties.get('ro.build.version.sdk')
    device().properties.set('ro.build.version.sdk', '23')
    try {
      const d = await driver('auto')
      device().clipboard = {text: 'the user copied this'}
      const events = device().inputEvents.length
      const refused = await d.checkTypable('café').then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(refused?.code).to.equal('UNSUPPORTED')
      expect(backendUses(d.shell).typing?.fallback).to.match(
        /^UNSUPPORTED: this release lacks what a paste needs: paste/
      )
      const failed = await d.inputText('café').then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(failed?.code).to.equal('UNSUPPORTED')
      // The helper, asked anyway (inputText does not read the hello), refuses before it touches anything.
      expect(device().inputEvents.slice(events)).to.deep.equal([])
      expect(device().clipboard).to.deep.equal({text: 'the user copied this'})
      // arc doctor says the same: the helper runs, lacking paste, and text beyond ASCII has no way here.
      const caps = new Map((await d.probeCapabilities()).capabilities.map((c) => [c.id, c]))
      expect(caps.get('helper')?.detail).to.match(/this release lacks paste$/)
      expect(caps.get('text-input')?.detail).to.match(/^input text types printable ASCII only/)
    } finally {
      if (sdk === undefined) device().properties.delete('ro.build.version.sdk')
      else device().properties.set('ro.build.version.sdk', sdk)
    }
  })

  it('auto falls back per capability: a release without the UiAutomation API still gets its clipboard from the helper', async () => {
    device().hiddenApisMissing.add('uiautomation')
    const d = await driver('auto')
    await d.captureScreen()
    expect(backendUses(d.shell).screen?.fallback).to.match(/^UNSUPPORTED: /)
    await d.setClipboard('still served')
    expect(await d.getClipboard()).to.equal('still served')
    expect(backendUses(d.shell).clipboard).to.deep.include({backend: 'helper'})
  })

  it('auto falls back to uiautomator when the helper stops answering a read, and the next read starts it again', async () => {
    device().addFault({command: 'arc-helper dump', kind: 'hang'})
    const d = (await connectAdbDriver({
      serial: 'emu-1',
      port: h.emu.port,
      host: '127.0.0.1',
      timeoutMs: 1000,
      env: {},
      helper: 'auto',
    })) as AdbDriver
    open.push(d)
    const from = h.emu.commands.length
    const model = buildScreenModel(await d.captureScreen())
    expect(model.windows.length).to.be.greaterThan(0)
    expect(programs(from)).to.include('uiautomator dump')
    expect(backendUses(d.shell).screen?.fallback).to.match(/^timeout: /)
    // One helper start for the read that timed out, none to let go of UiAutomation (its process took it along).
    expect(programs(from).filter((p) => p === 'app_process /')).to.have.length(1)
    await d.captureScreen()
    expect(backendUses(d.shell).screen?.backend).to.equal('helper')
  })

  it('required fails where the helper cannot serve, naming why, and never falls back', async () => {
    device().addFault({
      command: 'app_process',
      kind: 'error',
      message: '/system/bin/sh: app_process: not found\n',
      exitCode: 127,
    })
    const from = h.emu.commands.length
    const error = await (await driver('required')).captureScreen().then(
      () => undefined,
      (e: unknown) => e as ArcError
    )
    expect(error?.code).to.equal('UNSUPPORTED')
    expect(error?.message).to.match(/helper is required .* could not serve screen .*app_process: not found/)
    expect(programs(from)).to.not.include('uiautomator dump')
  })

  it('off never starts the helper: the clipboard stays UNSUPPORTED, as over plain ADB', async () => {
    const from = h.emu.commands.length
    const d = await driver('off')
    const error = await d.getClipboard().then(
      () => undefined,
      (e: unknown) => e as ArcError
    )
    expect(error?.code).to.equal('UNSUPPORTED')
    expect(programs(from)).to.not.include('app_process /')
  })

  it('gets and sets the clipboard byte for byte', async () => {
    const d = await driver('auto')
    device().clipboard = null
    expect(await d.getClipboard()).to.equal(null)
    for (const text of NASTY_STRINGS) {
      await d.setClipboard(text)
      expect(await d.getClipboard()).to.equal(text)
    }
  })

  it('refuses clipboard text it cannot carry whole, before sending it, and the helper goes on serving', async () => {
    const d = await driver('auto')
    device().clipboard = {text: 'the user copied this'}
    const failure = (text: string) =>
      d.setClipboard(text).then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
    // UTF-8 has no bytes for half a surrogate pair: sent, it arrived as U+FFFD, other text than asked.
    const lone = await failure('a\ud800b')
    expect(lone?.code).to.equal('INVALID_INPUT')
    expect(lone?.message).to.match(/clipboard-set.*lone surrogate/)
    // Over the helper's 4 MiB request frame it ended the session as a broken stream (reported UNSUPPORTED, "gone").
    const huge = await failure('x'.repeat((4 << 20) + 1))
    expect(huge?.code).to.equal('INVALID_INPUT')
    expect(huge?.message).to.match(/over the 4194304 bytes \(4 MiB\) one helper request may hold; nothing was sent/)
    expect(device().clipboard).to.deep.equal({text: 'the user copied this'})
    const from = h.emu.commands.length
    await d.setClipboard('after')
    expect(device().clipboard).to.deep.equal({text: 'after'})
    expect(programs(from)).to.not.include('app_process /')
  })

  it('types any text by a paste, without an input method switch, and puts the user clipboard back', async () => {
    const d = await driver('auto')
    const capture = await d.captureScreen()
    const field = [...walkNodes(capture.hierarchy!.windows)].find((n) => /EditText/.test(n.className))!
    const [l, t, r, b] = field.bounds
    await d.tap({x: Math.round((l + r) / 2), y: Math.round((t + b) / 2)})
    device().clipboard = {text: 'the user copied this'}
    const text = 'café 中文 👍'
    // Without ADBKeyBoard, plain ADB refuses this text before typing anything; the helper's paste takes it.
    const refused = await (await driver('off')).checkTypable(text).then(
      () => undefined,
      (e: unknown) => e as ArcError
    )
    expect(refused?.code).to.equal('UNSUPPORTED')
    await d.checkTypable(text)
    const from = h.emu.commands.length
    await d.inputText(text)
    expect(programs(from)).to.not.include('ime set')
    expect(device().inputEvents.at(-1)).to.deep.equal({type: 'paste', text})
    expect(device().clipboard).to.deep.equal({text: 'the user copied this'})
    const after = [...walkNodes((await d.captureScreen()).hierarchy!.windows)].find((n) =>
      /EditText/.test(n.className)
    )!
    expect(after.text).to.contain(text)
    // ASCII stays on `input text`.
    const ascii = h.emu.commands.length
    await d.inputText('plain')
    expect(h.argvSince(ascii)).to.deep.equal([['input', 'text', 'plain']])
  })

  it('plays a pinch with two fingers through the helper (InputManager), each motion event in order', async () => {
    const d = await driver('auto')
    const before = device().inputEvents.length
    const method = await d.gesture(PINCH)
    expect(method).to.equal('inject')
    const touches = device()
      .inputEvents.slice(before)
      .map((e) => (e.type === 'touch' ? `${e.action}:${e.pointers.length}` : e.type))
    expect(touches).to.deep.equal(['DOWN:1', 'POINTER_DOWN:2', 'MOVE:2', 'POINTER_UP:2', 'UP:1'])
  })

  it('a gesture or paste the helper took and then failed is a device error, never played again over ADB', async () => {
    const d = await driver('auto')
    await d.captureScreen()
    for (const [op, act] of [
      ['gesture', () => d.gesture(PINCH)],
      ['type', () => d.inputText('café')],
      ['tap', () => d.tap({x: 100, y: 200})],
      ['swipe', () => d.swipe({x: 100, y: 900}, {x: 100, y: 300}, 50)],
    ] as const) {
      // The helper answers FAILED after it was sent the request: whatever it did stands, so nothing may repeat it.
      device().addFault({command: `arc-helper ${op}`, kind: 'error', message: `${op} not confirmed`})
      const from = h.emu.commands.length
      const error = await (act as () => Promise<unknown>)().then(
        () => undefined,
        (e: unknown) => e as ArcError
      )
      expect(error?.code, op).to.equal('DEVICE_COMMAND_FAILED')
      expect(error?.message).to.include('after it may have acted').and.include(`${op} not confirmed`)
      expect(
        programs(from).filter((p) => !p.startsWith('app_process')),
        op
      ).to.deep.equal([])
    }
  })

  it('arc doctor says what the helper adds and how long it took, and what goes over ADB without it', async () => {
    const rows = (report: Awaited<ReturnType<AdbDriver['probeCapabilities']>>) =>
      new Map(report.capabilities.map((c) => [c.id, c]))
    const auto = rows(await (await driver('auto')).probeCapabilities())
    expect(auto.get('helper')?.status).to.equal('yes')
    expect(auto.get('helper')?.detail).to.match(
      /^arc's on-device helper runs \(app_process, API 34; started in \d+ ms, (pushed first|already on the device)\)$/
    )
    expect(auto.get('helper-dump')?.detail).to.match(
      /^every window through UiAutomation in \d+ ms, no idle wait \(it waits after an action\)$/
    )
    expect(auto.get('clipboard-read')?.status).to.equal('yes')
    expect(auto.get('multi-touch')?.detail).to.match(/injectInputEvent/)
    expect(auto.get('ui-dump')?.detail).to.match(/uiautomator dump --windows/)
    await closeHelperSessions() // the helper lets go of UiAutomation when it ends; else uiautomator waits for it
    const off = rows(await (await driver('off')).probeCapabilities())
    expect(off.get('helper')).to.deep.include({status: 'no', fallback: 'every capability goes over plain ADB'})
    expect(off.get('clipboard-read')?.status).to.equal('no')
    device().hiddenApisMissing.add('clipboard')
    await closeHelperSessions()
    const partial = rows(await (await driver('auto')).probeCapabilities())
    expect(partial.get('helper')?.status).to.equal('partial')
    expect(partial.get('helper')?.detail).to.match(/this release lacks clipboard$/)
    expect(partial.get('clipboard-write')?.status).to.equal('no')
  })

  it('lets go of UiAutomation as soon as a read ends: another tool’s uiautomator dump works right after it', async () => {
    const d = await driver('auto')
    const from = h.emu.commands.length
    await d.captureScreen()
    expect(backendUses(d.shell).screen).to.deep.include({backend: 'helper'})
    // The helper still runs (resident, as for arc mcp serve or arc batch) and holds nothing.
    expect(
      h
        .argvSince(from)
        .find((argv) => argv[0] === 'app_process')
        ?.slice(-2)
    ).to.deep.equal(['--idle-ms', '0'])
    expect(device().uiAutomationHolder).to.equal(undefined)
    const other = await d.runCommand(['uiautomator', 'dump', '/dev/tty'])
    expect(other.exitCode, other.stderr.toString()).to.equal(0)
    expect(other.stdout.toString()).to.match(/UI hierchary dumped to: \/dev\/tty/)
    // And the helper's next read connects again.
    await d.captureScreen()
    expect(backendUses(d.shell).screen).to.deep.include({backend: 'helper'})
  })

  it('keeps UiAutomation for adb.helperHoldMs after a read where asked, and lets go after it', async () => {
    // A hold long enough that the checks below, on a loaded machine, still fall inside it (300 ms did not always).
    const d = await driver('auto', 2000)
    const from = h.emu.commands.length
    await d.captureScreen()
    expect(
      h
        .argvSince(from)
        .find((argv) => argv[0] === 'app_process')
        ?.slice(-2)
    ).to.deep.equal(['--idle-ms', '2000'])
    expect(device().uiAutomationHolder).to.equal('arc-helper')
    expect((await d.runCommand(['uiautomator', 'dump', '/dev/tty'])).exitCode).to.equal(137)
    for (let i = 0; i < 400 && device().uiAutomationHolder !== undefined; i++) await sleep(20)
    expect(device().uiAutomationHolder).to.equal(undefined)
  })

  it('takes screenshots through the helper (a PNG encoded on the device), the same image screencap gives', async () => {
    const viaAdb = await (await driver('off')).screenshot()
    const d = await driver('auto')
    const from = h.emu.commands.length
    const viaHelper = await d.screenshot()
    expect(programs(from)).to.include('app_process /')
    expect(programs(from).filter((p) => p.startsWith('screencap'))).to.deep.equal([])
    expect(viaHelper.equals(viaAdb)).to.equal(true)
    expect(backendUses(d.shell).screenshot).to.deep.include({backend: 'helper'})
    // UiAutomation was let go once the screenshot was answered.
    expect(device().uiAutomationHolder).to.equal(undefined)
  })

  it('a screenshot falls back to screencap where the helper cannot take it, and says why', async () => {
    device().hiddenApisMissing.add('uiautomation')
    const d = await driver('auto')
    const from = h.emu.commands.length
    const png = await d.screenshot()
    expect(png.subarray(1, 4).toString('latin1')).to.equal('PNG')
    expect(programs(from)).to.include('screencap -p')
    const use = backendUses(d.shell).screenshot
    expect(use).to.deep.include({backend: 'adb'})
    expect(use?.fallback).to.match(/^UNSUPPORTED: this release lacks the uiautomation API/)
  })

  it('asks the helper for a small JPEG only where the caller takes one; a plain call still gets the full PNG', async () => {
    const d = await driver('auto')
    const full = await d.screenshot()
    expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '0', '0', '100', 'png'])
    expect(full.equals(await device().screen.png())).to.equal(true)
    const from = h.emu.commands.length
    const jpeg = await d.screenshot({maxSize: 1024, format: 'jpeg', quality: 70})
    expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '1024', '1024', '70', 'jpeg'])
    expect(checkJpeg(jpeg)).to.deep.equal({width: 461, height: 1024})
    expect(jpeg.length).to.be.lessThan(full.length)
    expect(programs(from).filter((p) => p.startsWith('screencap'))).to.deep.equal([])
    const png = await d.screenshot({maxSize: 512})
    expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '512', '512', '100', 'png'])
    expect(pngSize(png)).to.deep.equal({width: 230, height: 512})
    expect(backendUses(d.shell).screenshot).to.deep.include({backend: 'helper'})
  })

  it('a small JPEG asked for falls back to the full screencap PNG where the helper cannot serve, or is off', async () => {
    const off = await driver('off')
    const asked = device().helperRequests.length
    const viaOff = await off.screenshot({maxSize: 1024, format: 'jpeg'})
    expect(viaOff.equals(await device().screen.png())).to.equal(true)
    expect(device().helperRequests.length).to.equal(asked)
    device().hiddenApisMissing.add('uiautomation')
    const d = await driver('auto')
    const from = h.emu.commands.length
    const sent = device().helperRequests.length
    const png = await d.screenshot({maxSize: 1024, format: 'jpeg', quality: 70})
    // The helper was asked (and could not take the screenshot); it let go of UiAutomation before screencap.
    expect(device().helperRequests.slice(sent)).to.deep.include(['screenshot', '1024', '1024', '70', 'jpeg'])
    expect(programs(from)).to.include('screencap -p')
    expect(png.equals(await device().screen.png())).to.equal(true)
    expect(backendUses(d.shell).screenshot?.fallback).to.match(/^UNSUPPORTED: this release lacks the uiautomation API/)
  })

  describe('touches (tap, long press, double tap, one-finger swipe)', () => {
    const touches = [
      ['tap', (d: AdbDriver) => d.tap({x: 120, y: 340})],
      ['long press', (d: AdbDriver) => d.longPress({x: 120, y: 340}, 60)],
      ['double tap', (d: AdbDriver) => d.doubleTap({x: 120, y: 340})],
      ['swipe', (d: AdbDriver) => d.swipe({x: 500, y: 1500}, {x: 500, y: 700}, 80)],
    ] as const

    it('in a resident host go through the helper: no shell command, one helper request each, the events `input` records', async () => {
      const viaAdb = await driver('off', undefined, true)
      const adbEvents = device().inputEvents.length
      for (const [, act] of touches) await act(viaAdb)
      const expected = device().inputEvents.slice(adbEvents)
      const d = await driver('auto', undefined, true)
      await d.tap({x: 1, y: 1}) // starts the helper
      const from = h.emu.commands.length
      const asked = device().helperRequests.length
      const before = device().inputEvents.length
      for (const [, act] of touches) await act(d)
      expect(programs(from)).to.deep.equal([])
      expect(device().helperRequests.slice(asked)).to.deep.equal([
        ['tap', '120', '340'],
        ['swipe', '120', '340', '120', '340', '60'],
        ['double-tap', '120', '340'],
        ['swipe', '500', '1500', '500', '700', '80'],
      ])
      expect(device().inputEvents.slice(before)).to.deep.equal(expected)
      expect(expected.map((e) => e.type)).to.deep.equal(['tap', 'swipe', 'tap', 'tap', 'swipe'])
      expect(backendUses(d.shell).touch).to.deep.include({backend: 'helper'})
    })

    it('on a sleeping display the helper refuses each before injecting: DISPLAY_OFF, as over ADB, nothing sent', async () => {
      const d = await driver('auto', undefined, true)
      await d.captureScreen()
      device().awake = false
      try {
        const refusals: Array<[string, () => Promise<unknown>]> = [
          ...touches.map(([what, act]): [string, () => Promise<unknown>] => [what, () => act(d)]),
          ['gesture', () => d.gesture(PINCH)],
        ]
        for (const [what, act] of refusals) {
          const from = h.emu.commands.length
          const before = device().inputEvents.length
          const asked = device().helperRequests.length
          const error = await act().then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(error?.code, what).to.equal('DEVICE_COMMAND_FAILED')
          expect(error?.details.reason, what).to.equal('DISPLAY_OFF')
          expect(error?.message, what).to.match(
            /^the display of emu-1 is off \(asleep\): a .* would reach nothing, so nothing was sent$/
          )
          expect(device().inputEvents.length, what).to.equal(before)
          expect(device().helperRequests.length, what).to.equal(asked + 1)
          expect(programs(from), what).to.deep.equal([])
        }
      } finally {
        device().awake = true
      }
    })

    it('while a screensaver shows, the helper and ADB both refuse each with DISPLAY_OFF; `input` ends the dream', async () => {
      const viaHelper = await driver('auto', undefined, true)
      await viaHelper.captureScreen()
      const off = await driver('off', undefined, true)
      device().dreaming = true
      try {
        for (const [what, act] of touches) {
          for (const [backend, d] of [
            ['helper', viaHelper],
            ['adb', off],
          ] as const) {
            const from = h.emu.commands.length
            const before = device().inputEvents.length
            const asked = device().helperRequests.length
            const error = await act(d).then(
              () => undefined,
              (e: unknown) => e as ArcError
            )
            expect(error?.code, `${what} ${backend}`).to.equal('DEVICE_COMMAND_FAILED')
            expect(error?.details.reason, `${what} ${backend}`).to.equal('DISPLAY_OFF')
            expect(error?.message, `${what} ${backend}`).to.match(
              /^a screensaver shows on emu-1 \(it is dreaming\): a .* would go to the screensaver, not the app, so nothing was sent$/
            )
            expect(device().inputEvents.length, `${what} ${backend}`).to.equal(before)
            expect(device().dreaming, `${what} ${backend}`).to.equal(true)
            if (backend === 'helper') {
              expect(device().helperRequests.length, what).to.equal(asked + 1)
              expect(programs(from), what).to.deep.equal([])
            } else expect(programs(from), what).to.deep.equal(['dumpsys power'])
          }
        }
        // Gestures of several fingers too, on either path.
        for (const [backend, d] of [
          ['helper', viaHelper],
          ['adb', off],
        ] as const) {
          const before = device().inputEvents.length
          const error = await d.gesture(PINCH).then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(error?.details.reason, `gesture ${backend}`).to.equal('DISPLAY_OFF')
          expect(error?.message, `gesture ${backend}`).to.match(/^a screensaver shows on emu-1 \(it is dreaming\)/)
          expect(device().inputEvents.length, `gesture ${backend}`).to.equal(before)
          expect(device().dreaming, `gesture ${backend}`).to.equal(true)
        }
        // The phone's side: a touch `input` injects goes to the dream, which ends; the app gets nothing.
        const before = device().inputEvents.length
        expect((await off.shell.run(['dumpsys', 'power'])).output.toString()).to.include('mWakefulness=Dreaming')
        expect((await off.shell.run(['input', 'tap', '120', '340'])).exitCode).to.equal(0)
        expect(device().inputEvents.length).to.equal(before)
        expect(device().dreaming).to.equal(false)
        expect((await off.shell.run(['dumpsys', 'power'])).output.toString()).to.include('mWakefulness=Awake')
      } finally {
        device().dreaming = false
      }
    })

    it('over ADB (helper off) each is refused the same way on a sleeping display, which drops what `input` sends', async () => {
      const off = await driver('off', undefined, true)
      device().awake = false
      try {
        for (const [what, act] of touches) {
          const from = h.emu.commands.length
          const before = device().inputEvents.length
          const error = await act(off).then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(error?.details.reason, what).to.equal('DISPLAY_OFF')
          expect(error?.message, what).to.match(/^the display of emu-1 is off \(asleep\): a .* would reach nothing/)
          // The check and the touch are one command: `dumpsys power` ran, `input` did not.
          expect(programs(from), what).to.deep.equal(['dumpsys power'])
          expect(device().inputEvents.length, what).to.equal(before)
        }
        // The phone's side: a touch `input` injects while asleep exits 0 and reaches no window.
        const before = device().inputEvents.length
        for (const words of [
          ['tap', '120', '340'],
          ['swipe', '500', '1500', '500', '700', '80'],
          ['motionevent', 'DOWN', '5', '5'],
        ]) {
          const r = await off.shell.run(['input', ...words])
          expect(r.exitCode, words[0]).to.equal(0)
        }
        expect(device().inputEvents.length).to.equal(before)
      } finally {
        device().awake = true
      }
    })

    it('over ADB a gesture of one finger or several is refused on a sleeping display too, and sendevent reaches nothing', async () => {
      const off = await driver('off', undefined, true)
      const oneFinger = [
        [
          {x: 100, y: 500, time: 0},
          {x: 100, y: 900, time: 90},
        ],
      ]
      const writable = device().touchscreen.writable
      device().touchscreen.writable = true
      device().awake = false
      try {
        for (const [what, paths] of [
          ['one finger (input motionevent)', oneFinger],
          ['two fingers (sendevent)', PINCH],
        ] as const) {
          const from = h.emu.commands.length
          const before = device().inputEvents.length
          const error = await off.gesture(paths.map((p) => [...p])).then(
            () => undefined,
            (e: unknown) => e as ArcError
          )
          expect(error?.details.reason, what).to.equal('DISPLAY_OFF')
          expect(error?.message, what).to.match(
            /^the display of emu-1 is off \(asleep\): a gesture would reach nothing/
          )
          expect(
            programs(from).filter((p) => /^(input|sendevent)/.test(p)),
            what
          ).to.deep.equal([])
          expect(device().inputEvents.length, what).to.equal(before)
        }
        const before = device().inputEvents.length
        const r = await off.shell.run(['sendevent', '/dev/input/event1', '3', '53', '100'])
        expect(r.exitCode).to.equal(0)
        expect(device().inputEvents.length).to.equal(before)
        // While a screensaver shows, the dream takes a raw touch and ends when the finger lifts (BTN_TOUCH 0).
        device().awake = true
        device().dreaming = true
        for (const event of [
          [3, 53, 100],
          [1, 330, 1],
          [0, 0, 0],
        ])
          await off.shell.run(['sendevent', '/dev/input/event1', ...event])
        expect(device().dreaming).to.equal(true)
        await off.shell.run(['sendevent', '/dev/input/event1', '1', '330', '0'])
        expect(device().dreaming).to.equal(false)
        expect(device().inputEvents.length).to.equal(before)
      } finally {
        device().awake = true
        device().touchscreen.writable = writable
      }
    })

    it('a fractional point goes to the helper as the pixel it lies in, never one past the screen edge', async () => {
      const d = await driver('auto', undefined, true)
      await d.tap({x: 1, y: 1}) // starts the helper
      const asked = device().helperRequests.length
      await d.tap({x: 1079.6, y: 2399.5})
      expect(device().helperRequests.slice(asked)).to.deep.equal([['tap', '1079', '2399']])
    })

    it('stay on `input` with the helper off, and in a one-shot command until a read has started the helper', async () => {
      const off = await driver('off', undefined, true)
      let from = h.emu.commands.length
      await off.tap({x: 10, y: 20})
      expect(programs(from)).to.deep.equal(['dumpsys power', 'input tap'])
      const oneShot = await driver('auto')
      from = h.emu.commands.length
      const asked = device().helperRequests.length
      await oneShot.tap({x: 10, y: 20})
      // No helper started for one tap: app_process's start costs more than `input tap` on a phone.
      expect(programs(from)).to.deep.equal(['dumpsys power', 'input tap'])
      expect(device().helperRequests.length).to.equal(asked)
      await oneShot.captureScreen()
      from = h.emu.commands.length
      await oneShot.tap({x: 10, y: 20})
      expect(programs(from)).to.deep.equal([])
      expect(device().helperRequests.at(-1)).to.deep.equal(['tap', '10', '20'])
    })

    it('fall back to `input` in auto where the helper cannot start, and say why', async () => {
      device().addFault({
        command: 'app_process',
        kind: 'error',
        message: '/system/bin/sh: app_process: not found\n',
        exitCode: 127,
      })
      const d = await driver('auto', undefined, true)
      const before = device().inputEvents.length
      const from = h.emu.commands.length
      await d.tap({x: 10, y: 20})
      await d.swipe({x: 500, y: 1500}, {x: 500, y: 700}, 80)
      expect(programs(from).filter((p) => p === 'app_process /' || p.startsWith('input'))).to.deep.equal([
        'app_process /',
        'input tap',
        'input swipe',
      ])
      expect(
        device()
          .inputEvents.slice(before)
          .map((e) => e.type)
      ).to.deep.equal(['tap', 'swipe'])
      expect(backendUses(d.shell).touch?.fallback).to.match(/^start: .*app_process: not found/)
    })

    it('go over `input` where the helper runs but its release lacks the input API, without asking it', async () => {
      device().hiddenApisMissing.add('input')
      const d = await driver('auto', undefined, true)
      await d.captureScreen()
      const asked = device().helperRequests.length
      const from = h.emu.commands.length
      await d.tap({x: 10, y: 20})
      expect(programs(from)).to.deep.equal(['dumpsys power', 'input tap'])
      expect(
        device()
          .helperRequests.slice(asked)
          .filter((r) => r[0] === 'tap')
      ).to.deep.equal([])
      expect(backendUses(d.shell).touch?.fallback).to.match(/^UNSUPPORTED: this release lacks the input API/)
    })
  })
})
