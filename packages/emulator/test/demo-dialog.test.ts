/**
 * The demo app's delete dialog takes a phone's time to show: the delete button's click runs after ACTION_UP and
 * AlertDialog.show() adds a window that appears once drawn, its enter animation running (the device's
 * timing.transitionMs, 300 ms by default). Meanwhile every read shows the list without it and a touch reaches the
 * list; once it shows, its window's event moves the accessibility clock, so `uiautomator dump` waits for it.
 */
import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {clientFor, emulate, shell} from './support.js'

/** The centre of the "Delete Lemons" button of the demo's first screen (its bounds in the bundled dump). */
function deleteButton(xml: string, name: string): string {
  const node = new RegExp(`content-desc="Delete ${name}"[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(xml)
  if (!node) throw new Error(`no delete button for ${name} in the dump`)
  const [l, t, r, b] = node.slice(1).map(Number) as [number, number, number, number]
  return `${Math.floor((l + r) / 2)} ${Math.floor((t + b) / 2)}`
}

describe('emulator: the demo app’s dialog shows after its transition, not at the tap', () => {
  let emu: Emulator
  const run = (command: string) => shell(clientFor(emu), 'emu-1', command)
  const dialogShown = (xml: string) => xml.includes('text="Delete Lemons?"')

  beforeEach(async () => {
    emu = await emulate({devices: [{serial: 'emu-1', app: 'demo'}]})
  })
  afterEach(async () => emu.close())

  it('reads right after the tap show the list; a touch meanwhile reaches the list under the coming dialog', async () => {
    const device = emu.device('emu-1')
    // A transition far longer than anything the test does meanwhile: what shows during one.
    device.timing.scale = 1
    device.timing.transitionMs = 60_000
    const windows = async () => (await run('dumpsys window windows')).match(/^ {2}Window #\d+/gm)?.length
    const ticked = () => device.dumpXml().match(/checked="true"/g)?.length ?? 0
    const [windowsBefore, tickedBefore] = [await windows(), ticked()]
    await run(`input tap ${deleteButton(device.dumpXml(), 'Lemons')}`)
    expect(dialogShown(device.dumpXml())).to.equal(false)
    expect(await windows()).to.equal(windowsBefore)
    // Lemons' check box lies under where the dialog will be: the list still takes the touch and ticks it.
    await run('input tap 78 1354')
    expect([dialogShown(device.dumpXml()), ticked()]).to.deep.equal([false, tickedBefore + 1])
  })

  it('`uiautomator dump` right after the tap waits for the dialog (its window’s event restarts the quiet period)', async () => {
    const device = emu.device('emu-1')
    device.timing.scale = 1
    await run(`input tap ${deleteButton(device.dumpXml(), 'Lemons')}`)
    expect(dialogShown(device.dumpXml())).to.equal(false)
    const started = performance.now()
    expect(dialogShown(await run('uiautomator dump /dev/tty'))).to.equal(true)
    // The dialog's own event came after the tap's: the dump's quiet second counted from it.
    expect(device.lastAccessibilityEvent()).to.be.above(started)
  })
})
