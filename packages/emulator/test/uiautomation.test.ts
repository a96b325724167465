/**
 * One UiAutomation at a time, and uiautomator's idle wait: the virtual device does what a phone does (a second dump
 * dies at connect, an animated screen ends in `could not get idle state`). The driver's side: test/adb/uiautomation.
 */
import {expect} from 'chai'

import {IDLE_STATE_ERROR, type Emulator} from '@arc-cli/emulator'

import {clientFor, DEMO_DIR, emulate, shellV2} from './support.js'

const REGISTERED =
  /^java\.lang\.IllegalStateException: UiAutomationService android\.accessibilityservice\.IAccessibilityServiceClient\$Stub\$Proxy@[0-9a-f]+already registered!$/

describe('emulator: one UiAutomation at a time, and the idle wait', () => {
  const h = {} as {emu: Emulator}
  before(async () => {
    h.emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          // A dump holds UiAutomation for its idle wait: long here, so a second one surely overlaps it.
          slow: {snapshot: DEMO_DIR, timing: {scale: 1, idleMs: 60_000}},
          appium: {snapshot: DEMO_DIR, uiAutomationHeldBy: 'io.appium.uiautomator2.server'},
          video: {screens: {player: {snapshot: DEMO_DIR, animated: true}}, timing: {scale: 0.1}},
          phone: {snapshot: DEMO_DIR},
        },
      },
    })
  })
  after(() => h.emu.close())

  it('a second uiautomator dump while one runs dies at connect: no output, exit 137, the exception in the crash log', async () => {
    const client = clientFor(h.emu)
    const first = await client.getDevice('slow').openLocal('exec:uiautomator dump /dev/tty')
    // The first dump is waiting for idle, holding UiAutomation.
    while (h.emu.device('slow').uiAutomationHolder === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
    const second = await shellV2(client, 'slow', 'uiautomator dump /sdcard/second.xml')
    expect([second.stdout.toString(), second.stderr.toString(), second.exitCode]).to.deep.equal(['', '', 137])
    const crash = await shellV2(client, 'slow', 'logcat -d -b crash')
    const lines = crash.stdout.toString().split('\n')
    expect(lines[0]).to.equal('--------- beginning of crash')
    const messages = lines
      .slice(1)
      .filter(Boolean)
      .map((l) => l.replace(/^.* E AndroidRuntime: /, ''))
    expect(messages[0]).to.equal('FATAL EXCEPTION: main')
    expect(messages[1]).to.match(/^PID: \d+$/)
    expect(messages[2]).to.match(REGISTERED)
    expect(messages.slice(3).every((m) => m.startsWith('\tat '))).to.equal(true)
    expect((await shellV2(client, 'slow', 'ls /sdcard/second.xml')).exitCode).to.equal(1)
    // The first dump's client goes away: its process dies, and UiAutomation is free again.
    first.destroy()
    while (h.emu.device('slow').uiAutomationHolder !== undefined) await new Promise((resolve) => setTimeout(resolve, 5))
  })

  it('the crash buffer is empty on a device where nothing crashed (no header), and -b crash lists only crashes', async () => {
    const client = clientFor(h.emu)
    expect((await shellV2(client, 'phone', 'logcat -d -b crash')).stdout.toString()).to.equal('')
    expect((await shellV2(client, 'phone', 'logcat -d')).stdout.toString()).to.match(/^--------- beginning of main\n/)
  })

  it('a tool holding UiAutomation makes every dump die; released, dumps work again', async () => {
    const client = clientFor(h.emu)
    const dead = await shellV2(client, 'appium', 'uiautomator dump /dev/tty')
    expect([dead.stdout.length, dead.exitCode]).to.deep.equal([0, 137])
    const device = h.emu.device('phone')
    const release = device.simulateUiAutomationHolder('dev.mobile.maestro')
    expect((await shellV2(client, 'phone', 'uiautomator dump /dev/tty')).exitCode).to.equal(137)
    release()
    expect((await shellV2(client, 'phone', 'uiautomator dump /dev/tty')).stdout.toString()).to.match(
      /UI hierchary dumped to: \/dev\/tty\n$/
    )
  })

  it('an animated screen: uiautomator waits out its idle timeout and prints could not get idle state (stderr, exit 0)', async () => {
    const result = await shellV2(clientFor(h.emu), 'video', 'uiautomator dump /sdcard/v.xml')
    expect([result.stdout.toString(), result.stderr.toString(), result.exitCode]).to.deep.equal([
      '',
      IDLE_STATE_ERROR,
      0,
    ])
  })
})
