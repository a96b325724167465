import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/** The demo app's state, as the test reaches it to make its list long (the app's own type is not exported). */
interface DemoAppState {
  state: {items: Array<{name: string; qty: string; done: boolean}>; first: number; confirmDelete?: number}
}

/**
 * A swipe lifted while the finger still moves flings a list on a phone: it goes on moving for half a second or more,
 * and a touch on it meanwhile only stops it (docs/emulate.md, "A phone's pace"). arc's scrolls must leave the list at
 * rest, or the next action's read sees rows in passing and its tap is taken by the list instead of the row.
 */
describe('scrolling a list that flings (the virtual device does as a phone)', function () {
  this.timeout(120_000)
  const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})
  let app: DemoAppState

  before(() => {
    const device = h.emu.device('emu-1')
    // A phone's own times, doubled: a fling then outlasts what a loaded test machine takes for the next command.
    device.timing.scale = 2
    // These tests ask where a tap leads (the row's delete dialog opens), not when: the dialog shows at once.
    device.timing.transitionMs = 0
    app = device.app as unknown as DemoAppState
    for (let i = 1; i <= 30; i++) app.state.items.push({name: `Item ${i}`, qty: '1', done: false})
    device.screens.set(device.app!.screenName, device.app!.draw())
  })

  it('in a batch, a click right after a scroll reaches the row it read, not a list still moving', async () => {
    const target = app.state.items.findIndex((item) => item.name === 'Item 4')
    const run = await runArc(['batch'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1', ARC_HELPER: 'auto'},
      input: 'scroll down\nclick --desc "Delete Item 4" --exact-match\n',
    })
    expect(run.code, run.stderr).to.equal(0)
    // The click's tap opened the row's delete dialog: it was not spent catching a fling.
    expect(app.state.confirmDelete, run.stdout).to.equal(target)
  })

  it('a one-shot scroll leaves the list at rest for the next command, whose read may come before a fling ends', async () => {
    const device = h.emu.device('emu-1')
    app.state.confirmDelete = undefined
    app.state.first = 0
    device.screens.set(device.app!.screenName, device.app!.draw())
    const target = app.state.items.findIndex((item) => item.name === 'Item 4')
    const env = {...h.env, ANDROID_SERIAL: 'emu-1', ARC_HELPER: 'auto'}
    const scroll = await runArc(['scroll', 'down'], {env})
    expect(scroll.code, scroll.stderr).to.equal(0)
    const click = await runArc(['click', '--desc', 'Delete Item 4', '--exact-match'], {env})
    expect(click.code, click.stderr).to.equal(0)
    expect(app.state.confirmDelete, click.stdout).to.equal(target)
  })
})
