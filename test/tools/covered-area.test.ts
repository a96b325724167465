import {buildScreenModel, type DeviceWindow} from '@arc-cli/core'
import {expect} from 'chai'

import {coveringRects, freeArea, swipeInside, windowManagerRects} from '../../src/tools/covered-area.js'
import {parseWindowManager} from '@arc-cli/core/testing'
import {deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'
import {capture, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'

const appRoot: NodeSpec = {
  pkg: 'com.example',
  bounds: [0, 0, 1440, 2560],
  children: [{cls: 'android.widget.ListView', attrs: {scrollable: 'true'}, bounds: [0, 100, 1440, 2400]}],
}
const wmWindow = (
  title: string,
  type: string,
  frame: [number, number, number, number],
  visible = true,
  pkg = 'android'
): DeviceWindow => ({
  title,
  type,
  package: pkg,
  z: 0,
  layer: 0,
  displayId: 0,
  visible,
  frame,
})

describe('scroll area: what covers the app, and what is left', () => {
  it('a recorded dump without window-manager data: the keyboard and the thin system windows along an edge', () => {
    const xml = dumpXml([
      {pkg: 'com.touchtype.swiftkey', bounds: [0, 1600, 1080, 2274]},
      {pkg: 'com.android.systemui', bounds: [0, 2274, 1080, 2400]},
      {pkg: 'com.android.systemui', bounds: [0, 0, 1080, 63]},
      {
        pkg: 'com.android.systemui',
        bounds: [0, 0, 1080, 2400],
        children: [{cls: 'android.widget.TextView', text: 'Shade', bounds: [0, 0, 1080, 200]}],
      },
      {pkg: 'com.example', bounds: [0, 0, 1080, 2400]},
    ])
    const model = buildScreenModel(capture(xml))
    // The full-screen SystemUI window (an open shade) is not a bar: scrolling goes into it.
    expect(coveringRects(model)).to.deep.equal([
      [0, 1600, 1080, 2274],
      [0, 2274, 1080, 2400],
      [0, 0, 1080, 63],
    ])
    expect(freeArea([0, 0, 1080, 2400], coveringRects(model))).to.deep.equal([0, 63, 1080, 1600])
  })

  it('a landscape navigation bar on the side leaves the rest of the width', () => {
    expect(
      freeArea(
        [0, 0, 2400, 1080],
        [
          [2274, 0, 2400, 1080],
          [0, 0, 2400, 63],
        ]
      )
    ).to.deep.equal([0, 63, 2274, 1080])
  })

  it('a floating keyboard in the middle leaves the largest part beside it', () => {
    expect(freeArea([0, 0, 1080, 2400], [[100, 1000, 980, 1400]])).to.deep.equal([0, 0, 1080, 1000])
  })

  it("the window manager's bars and keyboard count when the dump lacks them; a near full-screen keyboard frame does not", () => {
    const xml = dumpXml([appRoot])
    const wm = (ime: DeviceWindow) => ({
      windows: [
        wmWindow('NavigationBar', 'NAVIGATION_BAR', [0, 2416, 1440, 2560]),
        wmWindow('StatusBar', 'STATUS_BAR', [0, 0, 1440, 72]),
        ime,
        wmWindow('Gone', 'NAVIGATION_BAR', [0, 0, 100, 2560], false),
      ],
    })
    const screen = {width: 1440, height: 2560}
    // Android 7 gives the input method a frame from below the status bar to the bottom; its keys are the bottom part.
    const old = buildScreenModel(
      capture(xml, screen, {windowManager: wm(wmWindow('InputMethod', 'INPUT_METHOD', [0, 72, 1440, 2560]))})
    )
    expect(coveringRects(old)).to.deep.equal([
      [0, 2416, 1440, 2560],
      [0, 0, 1440, 72],
    ])
    const tight = buildScreenModel(
      capture(xml, screen, {windowManager: wm(wmWindow('InputMethod', 'INPUT_METHOD', [0, 1500, 1440, 2560]))})
    )
    expect(freeArea([0, 0, 1440, 2560], coveringRects(tight))).to.deep.equal([0, 72, 1440, 1500])
  })

  it("the window manager alone: the shown keyboard's and bars' frames, the same free area as with the dump where they agree", () => {
    const screen = {width: 1080, height: 2400}
    const bars = [
      wmWindow('NavigationBar0', 'NAVIGATION_BAR', [0, 2274, 1080, 2400]),
      wmWindow('StatusBar', 'STATUS_BAR', [0, 0, 1080, 63]),
    ]
    const keyboard = wmWindow('InputMethod', 'INPUT_METHOD', [0, 1590, 1080, 2274], true, 'com.example.ime')
    const app = wmWindow('com.example/com.example.Main', 'BASE_APPLICATION', [0, 0, 1080, 2274], true, 'com.example')
    const hidden = wmWindow('InputMethod', 'INPUT_METHOD', [0, 63, 1080, 2400], false)
    const other = {...wmWindow('StatusBar', 'STATUS_BAR', [0, 0, 1920, 40]), displayId: 1}
    const wm = {windows: [keyboard, ...bars, app, hidden, other]}
    expect(windowManagerRects(wm, screen)).to.deep.equal([
      [0, 1590, 1080, 2274],
      [0, 2274, 1080, 2400],
      [0, 0, 1080, 63],
    ])
    // The dump of the same screen (its roots drawn where the window manager puts them) gives the same area.
    const xml = dumpXml([
      {pkg: 'com.example.ime', bounds: [0, 1590, 1080, 2274]},
      {pkg: 'android', bounds: [0, 2274, 1080, 2400]},
      {pkg: 'android', bounds: [0, 0, 1080, 63]},
      {pkg: 'com.example', bounds: [0, 0, 1080, 2274]},
    ])
    const model = buildScreenModel(capture(xml, screen, {windowManager: wm}))
    expect(freeArea([0, 0, 1080, 2400], windowManagerRects(wm, screen)!)).to.deep.equal(
      freeArea([0, 0, 1080, 2400], coveringRects(model))
    )
    expect(freeArea([0, 0, 1080, 2400], windowManagerRects(wm, screen)!)).to.deep.equal([0, 63, 1080, 1590])
  })

  it('the window manager alone cannot tell: no list, a shown keyboard with a near full-screen frame or none, a bar without a frame', () => {
    const screen = {width: 1440, height: 2560}
    const bar = wmWindow('StatusBar', 'STATUS_BAR', [0, 0, 1440, 72])
    expect(windowManagerRects(undefined, screen)).to.equal(undefined)
    expect(windowManagerRects({windows: []}, screen)).to.equal(undefined)
    // Android 7: the shown input method's frame runs from the status bar to the bottom; the keys are in the dump only.
    expect(
      windowManagerRects({windows: [wmWindow('InputMethod', 'INPUT_METHOD', [0, 72, 1440, 2560]), bar]}, screen)
    ).to.equal(undefined)
    const frameless = (title: string, type: string): DeviceWindow => ({
      title,
      type,
      z: 0,
      layer: 0,
      displayId: 0,
      visible: true,
    })
    expect(windowManagerRects({windows: [frameless('InputMethod', 'INPUT_METHOD'), bar]}, screen)).to.equal(undefined)
    expect(windowManagerRects({windows: [frameless('StatusBar', 'STATUS_BAR')]}, screen)).to.equal(undefined)
    // The same near full-screen frame hidden (keyboard down) is not in the way: the bars are enough.
    expect(
      windowManagerRects({windows: [wmWindow('InputMethod', 'INPUT_METHOD', [0, 72, 1440, 2560], false), bar]}, screen)
    ).to.deep.equal([[0, 0, 1440, 72]])
  })

  it('swipeInside centres the swipe and keeps 5% of the extent clear at each end', () => {
    expect(swipeInside([0, 100, 1000, 1100], 'down', 500)).to.deep.equal({from: {x: 500, y: 850}, to: {x: 500, y: 350}})
    expect(swipeInside([0, 100, 1000, 1100], 'up', 5000)).to.deep.equal({from: {x: 500, y: 150}, to: {x: 500, y: 1050}})
    expect(swipeInside([0, 0, 1000, 100], 'right', 400)).to.deep.equal({from: {x: 700, y: 50}, to: {x: 300, y: 50}})
  })

  describe('real window-manager captures', function () {
    before(function () {
      if (!deviceOutputAvailable) this.skip()
    })
    const wmOf = (file: string) => parseWindowManager(readDeviceOutput('dumpsys-window-windows', file), '')

    it('Android 15: the rounded-corner overlays (ScreenDecorOverlay, NAVIGATION_BAR_PANEL) cover nothing; the bars do', () => {
      const wm = wmOf('emulator-pixel-avd-android15plus.txt')
      const screen = {width: 1080, height: 2424}
      // The overlays span 0-196 and 2228-2424; the status bar ends at 142 and the taskbar starts at 2361.
      expect(wm.windows.filter((w) => w.title.startsWith('ScreenDecorOverlay')).map((w) => w.frame)).to.deep.equal([
        [0, 2228, 1080, 2424],
        [0, 0, 1080, 196],
      ])
      expect(freeArea([0, 0, 1080, 2424], windowManagerRects(wm, screen) ?? [])).to.deep.equal([0, 142, 1080, 2361])
      // An edge-to-edge app's bottom-navigation icon above the taskbar stays whole.
      expect(freeArea([100, 2240, 300, 2330], windowManagerRects(wm, screen, 'app') ?? [])).to.deep.equal([
        100, 2240, 300, 2330,
      ])
    })

    it('Android 7.1 with the status bar window filling the screen (shade or lock screen): a screen scroll goes into it, an app element is covered', () => {
      const wm = wmOf('meizu-mx6-flyme-android7.1.1.txt')
      const screen = {width: 1080, height: 1920}
      expect(wm.windows.find((w) => w.type === 'STATUS_BAR' && w.visible)?.frame).to.deep.equal([0, 0, 1080, 1920])
      expect(freeArea([0, 0, 1080, 1920], windowManagerRects(wm, screen) ?? [])).to.deep.equal([0, 0, 1080, 1920])
      const app = freeArea([0, 200, 1080, 400], windowManagerRects(wm, screen, 'app') ?? [])
      expect((app[2] - app[0]) * (app[3] - app[1])).to.equal(0)
    })
  })
})
