/**
 * The ADB driver against a virtual device that allows one UiAutomation at a time and waits for idle as a phone does
 * (the device's side: packages/emulator/test/uiautomation.test.ts): another tool holding UiAutomation and an animated
 * screen each end in an error of their own, named, without retries that burn the command's time.
 */
import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

describe('AdbDriver: UiAutomation held elsewhere, and screens that never go idle', () => {
  const h = useEmulator({
    devices: [],
    scenario: {
      devices: {
        appium: {snapshot: DEMO_DIR, uiAutomationHeldBy: 'io.appium.uiautomator2.server'},
        video: {screens: {player: {snapshot: DEMO_DIR, animated: true}}, timing: {scale: 0.1}},
        phone: {snapshot: DEMO_DIR},
      },
    },
  })

  it('the driver names another tool holding UiAutomation: UI_AUTOMATION_BUSY with the usual holders, not INVALID_DUMP', async () => {
    const driver = await h.driver('appium')
    const error = (await driver.captureScreen().then(
      () => undefined,
      (e: unknown) => e
    )) as {code: string; message: string; details: {holders: string[]}}
    expect(error.code).to.equal('UI_AUTOMATION_BUSY')
    expect(error.message).to.match(/another tool holds UiAutomation on appium/)
    expect(error.message).to.contain('already registered!')
    expect(error.message).to.contain('io.appium.uiautomator2.server')
    expect(error.message).to.contain('Maestro')
    expect(error.details.holders.length).to.be.greaterThan(3)
    await driver.close()
  })

  it('the driver reads the screen once a dump elsewhere lets UiAutomation go', async () => {
    const device = h.emu.device('phone')
    const release = device.simulateUiAutomationHolder('uiautomator dump')
    setTimeout(release, 300)
    const driver = await h.driver('phone')
    const capture = await driver.captureScreen()
    expect(capture.xml).to.contain('</hierarchy>')
    await driver.close()
  })

  it('an animated screen ends in SCREEN_NOT_IDLE after one try when another would not fit in the call time limit', async () => {
    // timing.scale 0.1: the idle timeout is 1 s; the device call limit 1.5 s leaves no room for a second try.
    const driver = await h.driver('video', 1500)
    const from = h.emu.commands.length
    const error = (await driver.captureScreen().then(
      () => undefined,
      (e: unknown) => e
    )) as {code: string; message: string}
    expect(error.code).to.equal('SCREEN_NOT_IDLE')
    expect(error.message).to.match(/never went idle/)
    expect(h.argvSince(from).filter((a) => a[0] === 'uiautomator')).to.have.length(1)
    await driver.close()
  })
})
