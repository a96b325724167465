/**
 * The helper's host side against `arc emulate` over the real ADB protocol: the push by hash, the launch through
 * `exec:` with app_process, the hello, framing both ways, the UiAutomation hand-over between the helper and
 * `uiautomator dump`, and each way it can fail to start (no app_process, a damaged file, a hang, a refused push).
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {setTimeout as sleep} from 'node:timers/promises'

import {checkJpeg, checkPng, parseUiDump, pngSize} from '@arc-cli/core'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {expect} from 'chai'

import {HELPER_DEX, helperBuild, helperDevicePath} from '../../src/driver/device-helper.js'
import type {AdbDriver} from '../../src/driver/adb/adb-driver.js'
import {
  closeHelperSessions,
  HelperFailure,
  HelperSession,
  helperSession,
  helperUnavailable,
  setHelperRetryAfter,
} from '../../src/driver/adb/helper-session.js'

async function failure(promise: Promise<unknown>): Promise<HelperFailure> {
  try {
    await promise
  } catch (error) {
    expect(error).to.be.instanceOf(HelperFailure)
    return error as HelperFailure
  }
  throw new Error('expected a HelperFailure')
}

describe('the on-device helper over ADB (arc emulate)', function () {
  this.timeout(60_000)
  const h = useEmulator()
  let driver: AdbDriver
  const sessions: HelperSession[] = []

  beforeEach(async () => {
    driver = await h.driver('emu-1')
  })

  afterEach(async () => {
    for (const s of sessions.splice(0)) s.close()
    await closeHelperSessions()
    await driver.close()
  })

  const open = async (idleMs = 2000) => {
    const session = await HelperSession.open(driver.shell, () => {}, idleMs)
    sessions.push(session)
    return session
  }
  const device = () => h.emu.device('emu-1')
  const hostPath = () => device().files.hostPath(helperDevicePath())

  it('pushes this exact build once under its hash, then starts it from there without a push', async () => {
    const from = h.emu.commands.length
    const first = await open()
    expect(first.start.pushed).to.equal(true)
    expect(readFileSync(hostPath()).equals(readFileSync(HELPER_DEX))).to.equal(true)
    expect(first.hello).to.deep.equal({protocol: 1, sdk: 34, missing: []})
    const launched = h.argvSince(from).filter((argv) => argv[0] === 'app_process')
    expect(launched).to.deep.equal([['app_process', '/', 'arc.helper.Main', '--idle-ms', '2000']])
    first.close()
    const again = await open()
    expect(again.start.pushed).to.equal(false)
    expect(await again.request(['ping'], 5000)).to.deep.equal(Buffer.from('pong'))
  })

  it('reads every window in the <displays> form arc parses, and refuses what it does not know', async () => {
    const session = await open()
    const reply = (await session.request(['dump'], 5000)).toString('utf8')
    // Its head line: no input came before it, so the helper read at once (Settle).
    expect(reply).to.match(/^settled\t0\n<\?xml[^>]*\?><displays><display id="0"><window /)
    const xml = reply.slice(reply.indexOf('\n') + 1)
    const hierarchy = parseUiDump(xml, 'helper dump')
    expect(hierarchy.listedWindows?.length).to.be.greaterThan(0)
    expect(hierarchy.nodeCount).to.be.greaterThan(1)
    const refused = await failure(session.request(['frobnicate'], 5000))
    expect([refused.code, refused.message]).to.deep.equal(['BAD_REQUEST', 'unknown operation "frobnicate"'])
    // The session goes on after a refusal.
    expect((await session.request(['ping'], 5000)).toString()).to.equal('pong')
  })

  it('key CODE META sends the key with that meta state (ALT+DPAD_DOWN: to the end of the field text); a bad META is BAD_REQUEST', async () => {
    const session = await open()
    const events = device().inputEvents
    device().recordInput({type: 'commit', text: 'hello world'})
    // The demo's field, single-line: a tap at x 66 + 2 * 24 + 5 puts the cursor after "he".
    device().recordInput({type: 'tap', x: 119, y: 294})
    const from = events.length
    // 18: META_ALT_LEFT_ON | META_ALT_ON. A modifier key is no key event of its own.
    await session.request(['key', '20', '18'], 5000)
    expect(events.slice(from)).to.deep.equal([{type: 'keyevent', code: 20, name: 'KEYCODE_DPAD_DOWN', meta: 18}])
    device().recordInput({type: 'commit', text: '!'})
    const field = device()
      .dumpXml()
      .match(/<node\b[^>]*>/g)
      ?.find((t) => t.includes('id/new_item'))
    expect(field).to.include('text="hello world!"')
    for (const meta of ['-1', '2147483648', '1.5', 'ALT', '']) {
      const bad = await failure(session.request(['key', '20', meta], 5000))
      expect([bad.code, bad.message]).to.deep.equal([
        'BAD_REQUEST',
        `meta state is "${meta}"; a whole number from 0 to 2147483647 is allowed`,
      ])
    }
    const three = await failure(session.request(['key', '20', '2', '0'], 5000))
    expect([three.code, three.message]).to.deep.equal([
      'BAD_REQUEST',
      'key takes 1 or 2 arguments (key code, meta state), got 3',
    ])
    expect(events.length).to.equal(from + 2)
  })

  it('carries any text both ways byte for byte (the clipboard)', async () => {
    const session = await open()
    for (const text of NASTY_STRINGS) {
      await session.request(['clipboard-set', text], 5000)
      expect(device().clipboard).to.deep.equal({text})
      const back = await session.request(['clipboard-get'], 5000)
      expect(back[0]).to.equal(1)
      expect(back.subarray(1).toString('utf8')).to.equal(text)
    }
  })

  it('holds UiAutomation only while working: uiautomator dump fails while it holds it and works once it let go', async () => {
    // A hold long enough that a loaded machine cannot let it lapse before the next command reaches the device; the
    // loop below only bounds how long the test looks for the release, it asserts no duration.
    const session = await open(1500)
    await session.request(['dump'], 5000)
    expect(device().uiAutomationHolder).to.equal('arc-helper')
    // uiautomator dies at connect as on a phone: nothing on the terminal, SIGKILL (137), the crash log says why.
    const held = await driver.runCommand(['uiautomator', 'dump', '/dev/tty'])
    expect(held.exitCode).to.equal(137)
    for (let i = 0; i < 500 && device().uiAutomationHolder !== undefined; i++) await sleep(20)
    expect(device().uiAutomationHolder).to.equal(undefined)
    const free = await driver.runCommand(['uiautomator', 'dump', '/dev/tty'])
    expect(free.stdout.toString()).to.match(/UI hierchary dumped to: \/dev\/tty/)
  })

  it('answers screenshot as Bitmap.compress would: the whole-screen PNG, or scaled to fit the box (never up) and/or a JPEG', async () => {
    const session = await open(0)
    const png = await session.request(['screenshot', '0', '0', '100', 'png'], 5000)
    expect(png.equals(await device().screen.png())).to.equal(true)
    // A box larger than the screen: never enlarged, the screen's own PNG.
    const big = await session.request(['screenshot', '5000', '5000', '100', 'png'], 5000)
    expect(big.equals(png)).to.equal(true)
    // No format word: a JPEG (the helper's default), full size.
    const jpeg = await session.request(['screenshot', '0', '0', '80'], 5000)
    expect(checkJpeg(jpeg)).to.deep.equal({width: 1080, height: 2400})
    // One factor fits both sides: 1024/2400 for a 1080x2400 screen, each side rounded (460.8 -> 461).
    const small = await session.request(['screenshot', '1024', '1024', '80', 'jpeg'], 5000)
    expect(checkJpeg(small)).to.deep.equal({width: 461, height: 1024})
    expect(small.length).to.be.lessThan(jpeg.length)
    const lower = await session.request(['screenshot', '1024', '1024', '20', 'jpeg'], 5000)
    expect(checkJpeg(lower)).to.deep.equal({width: 461, height: 1024})
    expect(lower.length).to.be.lessThan(small.length)
    // Only the width limited: 100/1080 of 2400 = 222.2 -> 222; a PNG stays a PNG.
    const narrow = await session.request(['screenshot', '100', '0', '80', 'png'], 5000)
    expect(pngSize(narrow)).to.deep.equal({width: 100, height: 222})
    expect(checkPng(narrow)).to.deep.equal({end: narrow.length})
    const bad = await failure(session.request(['screenshot', '0', '0', '100', 'gif'], 5000))
    expect([bad.code, bad.message]).to.deep.equal(['BAD_REQUEST', 'screenshot format is "gif"; png or jpeg is allowed'])
  })

  it('says clearly when another tool holds UiAutomation', async () => {
    const letGo = device().simulateUiAutomationHolder('uiautomator2')
    try {
      const session = await open()
      const busy = await failure(session.request(['dump'], 5000))
      expect(busy.code).to.equal('UIAUTOMATION_BUSY')
      expect(busy.message).to.match(/another tool holds UiAutomation/)
    } finally {
      letGo()
    }
  })

  it('puts a damaged file under the build name there again, once, and starts', async () => {
    writeFileSync(hostPath(), Buffer.alloc(helperBuild().bytes, 0x41))
    const session = await open()
    expect(session.start.pushed).to.equal(true)
    expect(readFileSync(hostPath()).equals(readFileSync(HELPER_DEX))).to.equal(true)
  })

  it('where app_process is missing, fails to start naming what the device said, and is not asked again', async () => {
    device().addFault({
      command: 'app_process',
      kind: 'error',
      message: '/system/bin/sh: app_process: not found\n',
      exitCode: 127,
    })
    const first = await failure(helperSession(driver.shell))
    expect(first.code).to.equal('start')
    expect(first.message).to.match(/app_process: not found/)
    const from = h.emu.commands.length
    const second = await failure(helperSession(driver.shell))
    expect(second).to.equal(first)
    expect(helperUnavailable(driver.shell)).to.equal(first)
    expect(h.argvSince(from)).to.deep.equal([])
  })

  it('a start that failed stands for a while, then the helper is tried again and starts where it now can', async () => {
    // A long-lived host (an MCP server) first asked while the device could not start it (booting, loaded, storage
    // full): the failure must not cost it the helper for the rest of its life.
    const previous = setHelperRetryAfter(400)
    try {
      device().addFault({command: 'app_process', kind: 'error', message: 'Aborted\n', exitCode: 134, times: 1})
      const first = await failure(helperSession(driver.shell))
      expect(first.code).to.equal('start')
      const from = h.emu.commands.length
      expect(await failure(helperSession(driver.shell))).to.equal(first)
      expect(h.argvSince(from)).to.deep.equal([])
      await sleep(450)
      expect(helperUnavailable(driver.shell)).to.equal(undefined)
      const session = await helperSession(driver.shell)
      sessions.push(session)
      expect(session.alive).to.equal(true)
      expect(h.argvSince(from).some((argv) => argv.includes('app_process'))).to.equal(true)
    } finally {
      setHelperRetryAfter(previous)
    }
  })

  it('a helper that never says hello fails to start within the time limit', async () => {
    await driver.close()
    driver = await h.driver('emu-1', 1500)
    device().addFault({command: 'app_process', kind: 'hang'})
    const hung = await failure(open())
    expect(hung.code).to.equal('start')
    expect(hung.message).to.match(/no hello within 1500 ms/)
  })

  it('closing the session ends the device process and lets go of UiAutomation', async () => {
    const session = await open()
    await session.request(['dump'], 5000)
    const before = h.emu.runningShells().length
    expect(before).to.be.greaterThan(0)
    session.close()
    for (let i = 0; i < 500 && (h.emu.runningShells().length > 0 || device().uiAutomationHolder); i++) await sleep(20)
    expect(h.emu.runningShells().length).to.equal(0)
    expect(device().uiAutomationHolder).to.equal(undefined)
    const gone = await failure(session.request(['ping'], 1000))
    expect(gone.code).to.equal('gone')
  })

  it('closing the session mid-gesture lifts the fingers still down with CANCEL, as the helper does when its input ends', async () => {
    const session = await open()
    const before = device().inputEvents.length
    const touches = () =>
      device()
        .inputEvents.slice(before)
        .map((e) => (e.type === 'touch' ? `${e.action}:${e.pointers.map((p) => p.id).join(',')}` : e.type))
    // Two fingers; the first lifts at 20 ms, the second holds on for a minute: the host goes while it is down.
    const played = session.request(['gesture', '10,10,0;20,20,20', '30,30,0;40,40,20;50,50,60000'], 70_000)
    played.catch(() => {})
    for (let i = 0; i < 500 && !touches().includes('POINTER_UP:0,1'); i++) await sleep(20)
    expect(touches()).to.deep.equal(['DOWN:0', 'POINTER_DOWN:0,1', 'MOVE:0,1', 'POINTER_UP:0,1'])
    session.close()
    for (let i = 0; i < 500 && !touches().includes('CANCEL:1'); i++) await sleep(20)
    expect(touches()).to.deep.equal(['DOWN:0', 'POINTER_DOWN:0,1', 'MOVE:0,1', 'POINTER_UP:0,1', 'CANCEL:1'])
    expect((await failure(played)).code).to.equal('gone')
  })

  it('a request the helper stops answering times out and ends the session; the next one starts a new helper', async () => {
    device().addFault({command: 'arc-helper dump', kind: 'hang'})
    const session = await helperSession(driver.shell)
    const hung = await failure(session.request(['dump'], 300))
    expect(hung.code).to.equal('timeout')
    expect(hung.message).to.match(/did not answer `dump` within 300 ms/)
    expect(session.alive).to.equal(false)
    for (let i = 0; i < 500 && h.emu.runningShells().length > 0; i++) await sleep(20)
    expect(h.emu.runningShells()).to.deep.equal([])
    const next = await helperSession(driver.shell)
    expect(next).to.not.equal(session)
    expect((await next.request(['ping'], 5000)).toString()).to.equal('pong')
  })
})
