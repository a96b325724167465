import {buildScreenModel, type DeviceWindow} from '@arc-cli/core'
import {expect} from 'chai'

import {capture, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'

const app: NodeSpec = {pkg: 'com.foo', bounds: [0, 0, 1080, 2400], children: [{text: 'Hello', pkg: 'com.foo'}]}
const status: NodeSpec = {
  pkg: 'com.android.systemui',
  res: 'com.android.systemui:id/status_bar',
  bounds: [0, 0, 1080, 63],
}
const ime: NodeSpec = {
  pkg: 'com.google.android.inputmethod.latin',
  bounds: [0, 1600, 1080, 2400],
  children: [{desc: 'q', pkg: 'com.google.android.inputmethod.latin'}],
}
const gestures: NodeSpec = {
  pkg: 'com.vivo.upslide',
  bounds: [0, 2360, 1080, 2400],
  children: [{desc: 'Swipe', pkg: 'com.vivo.upslide'}],
}

function win(
  z: number,
  type: string,
  pkg: string,
  title: string,
  frame: [number, number, number, number],
  visible = true
): DeviceWindow {
  return {z, type, package: pkg, title, frame, visible, layer: 0, displayId: 0}
}

const wmStatus = win(0, 'STATUS_BAR', 'com.android.systemui', 'StatusBar', [0, 0, 1080, 63])
const wmIme = win(1, 'INPUT_METHOD', 'com.google.android.inputmethod.latin', 'InputMethod', [0, 1600, 1080, 2400])
const wmGestures = win(
  2,
  'NAVIGATION_BAR_PANEL',
  'com.vivo.upslide',
  'SideSlideGestureBar-Bottom',
  [0, 2360, 1080, 2400]
)
const wmApp = win(3, 'BASE_APPLICATION', 'com.foo', 'com.foo/com.foo.Main', [0, 0, 1080, 2400])
const wmWallpaper = win(4, 'WALLPAPER', 'com.android.systemui', 'ImageWallpaper', [0, 0, 1080, 2400])

function headers(model: ReturnType<typeof buildScreenModel>) {
  return model.windows.map((w) => `${w.pkg} ${w.type} ${w.title ?? '-'} layer:${w.layer} focused:${w.focused}`)
}

describe('window metadata from the window manager, matched to the dump', () => {
  it('takes stacking order from the device: a status bar and keyboard dumped below the app end up above it', () => {
    const xml = dumpXml([app, status, ime, gestures])
    const model = buildScreenModel(
      capture(xml, undefined, {
        windowManager: {windows: [wmStatus, wmIme, wmGestures, wmApp, wmWallpaper], focus: wmApp.title},
      })
    )
    expect(headers(model)).to.deep.equal([
      'com.foo APPLICATION com.foo/com.foo.Main layer:0 focused:true',
      'com.android.systemui SYSTEM StatusBar layer:3 focused:false',
      'com.google.android.inputmethod.latin INPUT_METHOD InputMethod layer:2 focused:false',
      // A gesture bar is the system's, not an app's, whatever package draws it.
      'com.vivo.upslide SYSTEM SideSlideGestureBar-Bottom layer:1 focused:false',
    ])
    expect(model.windows.map((w) => w.deviceType)).to.deep.equal([
      'BASE_APPLICATION',
      'STATUS_BAR',
      'INPUT_METHOD',
      'NAVIGATION_BAR_PANEL',
    ])
    expect(model.degraded).to.equal(false)
  })

  it('without the window manager (a recorded dump) the guess stands: the gesture bar is typed APPLICATION', () => {
    const model = buildScreenModel(capture(dumpXml([app, status, ime, gestures])))
    expect(headers(model)).to.deep.equal([
      'com.foo APPLICATION - layer:3 focused:true',
      'com.android.systemui SYSTEM - layer:2 focused:false',
      'com.google.android.inputmethod.latin INPUT_METHOD - layer:1 focused:false',
      'com.vivo.upslide APPLICATION - layer:0 focused:false',
    ])
  })

  it('a full-screen app alone on screen is a whole dump, not a degraded one', () => {
    const hiddenBars = [
      {...wmStatus, visible: false},
      {...wmApp, z: 1},
      {...wmWallpaper, z: 2},
    ]
    const model = buildScreenModel(
      capture(dumpXml([app]), undefined, {allWindows: false, windowManager: {windows: hiddenBars, focus: wmApp.title}})
    )
    expect(model.degraded).to.equal(false)
    expect(headers(model)).to.deep.equal(['com.foo APPLICATION com.foo/com.foo.Main layer:0 focused:true'])
  })

  it('is degraded only when a shown window really is missing from the dump', () => {
    const model = buildScreenModel(
      capture(dumpXml([app]), undefined, {windowManager: {windows: [wmStatus, wmIme, wmApp, wmWallpaper]}})
    )
    expect(model.degraded).to.equal(true)
  })

  it('gives focus to the window the device focused, a system window included', () => {
    const model = buildScreenModel(
      capture(dumpXml([status, app]), undefined, {windowManager: {windows: [wmStatus, wmApp], focus: 'StatusBar'}})
    )
    expect(model.windows.map((w) => w.focused)).to.deep.equal([true, false])
  })

  it('matches two windows of one package by their frames', () => {
    const dialog: NodeSpec = {pkg: 'com.foo', bounds: [0, 1376, 1080, 2030], children: [{text: 'OK', pkg: 'com.foo'}]}
    const wmDialog = win(0, 'APPLICATION', 'com.foo', 'com.foo/com.foo.Main', [0, 1376, 1080, 2030])
    const model = buildScreenModel(
      capture(dumpXml([app, dialog]), undefined, {windowManager: {windows: [wmDialog, {...wmApp, z: 1}]}})
    )
    expect(model.windows.map((w) => `${w.type} layer:${w.layer}`)).to.deep.equal([
      'APPLICATION layer:0',
      'APPLICATION layer:1',
    ])
  })
})
