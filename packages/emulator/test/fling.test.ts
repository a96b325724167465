import {expect} from 'chai'
import type {Emulator} from '@arc-cli/emulator'

import {liftVelocity} from '../src/commands/app-process.js'
import {splineFling} from '../src/demo-app/demo-app.js'
import {clientFor, emulate, shell, type AdbClient} from './support.js'

interface DemoAppState {
  state: {items: Array<{name: string; qty: string; done: boolean}>; first: number; confirmDelete?: number}
}

describe('a list flung by a swipe lifted while moving (the demo app, as RecyclerView does)', () => {
  let emu: Emulator
  let client: AdbClient
  let app: DemoAppState
  const names = () =>
    emu
      .device('emu-1')
      .screen.dump.nodes.filter((n) => n.resourceId.endsWith(':id/item_name'))
      .map((n) => n.text)

  beforeEach(async () => {
    emu = await emulate({devices: [{serial: 'emu-1', app: 'demo'}]})
    client = clientFor(emu)
    const device = emu.device('emu-1')
    // A phone's own times, doubled, so the fling outlasts what a loaded machine takes between two commands.
    device.timing.scale = 2
    // These tests ask where a tap leads (the row's delete dialog opens), not when: the dialog shows at once.
    device.timing.transitionMs = 0
    app = device.app as unknown as DemoAppState
    for (let i = 1; i <= 30; i++) app.state.items.push({name: `Item ${i}`, qty: '1', done: false})
    device.screens.set(device.app!.screenName, device.app!.draw())
  })
  afterEach(async () => emu.close())

  it('OverScroller’s spline: how far and how long a fling goes from the lift’s speed', () => {
    // 4000 px/s at 420 dpi: ln(0.35 × 4000 / (0.015 × 9.80665 × 39.37 × 420 × 0.84)) = −0.378.
    expect(splineFling(4000).distance).to.be.closeTo(1059, 5)
    expect(splineFling(4000).ms).to.be.closeTo(757, 5)
  })

  it('the VelocityTracker’s speed at the lift: the last move’s, or none after 40 ms standing still', () => {
    expect(
      liftVelocity([
        [0, 0, 0],
        [0, 100, 100],
      ])
    ).to.equal(1000)
    expect(
      liftVelocity([
        [0, 0, 0],
        [0, 100, 100],
        [0, 100, 139],
      ])
    ).to.equal(1000)
    expect(
      liftVelocity([
        [0, 0, 0],
        [0, 100, 100],
        [0, 100, 140],
      ])
    ).to.equal(0)
  })

  it('keeps moving after `input swipe` returns; uiautomator’s dump waits for it to come to rest', async () => {
    // 1200 px in 300 ms: the finger's 8 rows, then 4000 px/s flings 1059 px, 7 rows more.
    expect(await shell(client, 'emu-1', 'input swipe 540 1426 540 226 300')).to.equal('')
    expect(emu.device('emu-1').motionLeftMs()).to.be.above(0)
    const xml = await shell(client, 'emu-1', 'uiautomator dump /dev/tty')
    expect(app.state.first).to.equal(15)
    expect(xml).to.include('text="Item 7"')
    expect(names()[0]).to.equal('Item 7')
  })

  it('a tap on the list while it flings stops it there and clicks nothing', async () => {
    await shell(client, 'emu-1', 'input swipe 540 1426 540 226 300')
    // The delete button of the second row shown: a tap on it would open the delete dialog if the list were at rest.
    await shell(client, 'emu-1', 'input tap 985 619')
    expect(app.state.confirmDelete).to.equal(undefined)
    const stopped = app.state.first
    expect(stopped).to.be.below(15)
    await shell(client, 'emu-1', 'uiautomator dump /dev/tty')
    expect(app.state.first, 'a caught fling does not go on').to.equal(stopped)
    await shell(client, 'emu-1', 'input tap 985 619')
    expect(app.state.confirmDelete).to.equal(stopped + 1)
  })

  it('a slow swipe (under 50 dp/s) does not fling', async () => {
    emu.device('emu-1').timing.scale = 0.01
    await shell(client, 'emu-1', 'input swipe 540 1426 540 1126 6000')
    expect(emu.device('emu-1').motionLeftMs()).to.equal(0)
    expect(app.state.first).to.equal(2)
  })
})
