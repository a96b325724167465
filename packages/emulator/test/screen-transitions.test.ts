/**
 * A screen change a tap starts takes time on a phone (the click runs after ACTION_UP, the activity starts, its window
 * animates in): the virtual device shows the old screen until its transition time passed, its accessibility event
 * clock moves when the new screen shows, and `uiautomator dump` waits for quiet as AOSP UiAutomation.waitForIdle does.
 */
import path from 'node:path'

import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, emulate, makeSnapshot, shell, tempDir} from './support.js'

describe('emulator: screen changes take their transition time, and the dump waits for them', () => {
  const tmp = tempDir()
  let emu: Emulator
  const title = (xml: string) => /text="(Page \d)"/.exec(xml)?.[1]
  const run = (serial: string, command: string) => shell(clientFor(emu), serial, command)

  before(async () => {
    const pages = Object.fromEntries(
      [1, 2, 3].map((n) => [`page${n}`, makeSnapshot(path.join(tmp.dir, `page${n}`), `Page ${n}`)])
    )
    // "Sign in" (its centre 360,1050) goes to the next page, as a Next button does.
    const transitions = [
      {from: 'page1', tap: {resourceId: 'com.example:id/sign_in'}, to: 'page2'},
      {from: 'page2', tap: {resourceId: 'com.example:id/sign_in'}, to: 'page3'},
    ]
    emu = await emulate({
      devices: [],
      scenario: {
        devices: {
          // A transition far longer than anything the test does meanwhile: what shows during one.
          slow: {screens: pages, initialScreen: 'page1', transitions, timing: {scale: 1, transitionMs: 60_000}},
          // The default transition (300 ms) and uiautomator's own idle wait (1 s of quiet).
          phone: {screens: pages, initialScreen: 'page1', transitions, timing: {scale: 1}},
        },
      },
    })
  })
  after(async () => {
    await emu?.close()
    tmp.cleanup()
  })

  it('shows the old screen while the transition runs; a tap then lands on the old screen, and the newest change wins', async () => {
    const device = emu.device('slow')
    await run('slow', 'input tap 360 1050')
    expect([device.transitionPending, title(device.dumpXml()), device.screenName]).to.deep.equal([
      true,
      'Page 1',
      'page1',
    ])
    // A second "Next" read off the old screen lands on the old screen's button: the app goes to page 2 again, not 3.
    await run('slow', 'input tap 360 1050')
    device.showScreen('page2') // the test's shortcut past the 60 s: the change that was on its way
    expect([device.transitionPending, device.screenName]).to.deep.equal([false, 'page2'])
  })

  it('`uiautomator dump` right after a tap waits for the new screen (its event restarts the quiet period)', async () => {
    const device = emu.device('phone')
    await run('phone', 'input tap 360 1050')
    expect(device.transitionPending).to.equal(true)
    expect(title(await run('phone', 'uiautomator dump /dev/tty'))).to.equal('Page 2')
    await run('phone', 'input tap 360 1050')
    expect(title(await run('phone', 'uiautomator dump /dev/tty'))).to.equal('Page 3')
  })
})
