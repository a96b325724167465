/**
 * The `<displays>` form of `uiautomator dump --windows` (AOSP AccessibilityNodeInfoDumper.dumpWindowsToFile): every
 * window of every display with its accessibility metadata around its tree. arc asks every device for `--windows`;
 * builds whose uiautomator has the flag answer in this form, so reading it is reading their screens at all.
 */
import {buildScreenModel, InvalidDumpError, parseUiDump, sliceDump, type DeviceWindow} from '@arc-cli/core'
import {expect} from 'chai'

import {capture, displaysXml, dumpXml, type NodeSpec, type WindowSpec} from '@arc-cli/test-support/dump'

const appTree: NodeSpec = {
  pkg: 'com.foo',
  bounds: [0, 0, 1080, 2400],
  children: [{text: 'Hello', pkg: 'com.foo', attrs: {clickable: 'true'}, bounds: [100, 300, 500, 400]}],
}
const statusTree: NodeSpec = {
  pkg: 'com.android.systemui',
  bounds: [0, 0, 1080, 63],
  children: [{text: '12:30', pkg: 'com.android.systemui', bounds: [0, 0, 100, 63]}],
}
const gestureTree: NodeSpec = {
  pkg: 'com.vivo.upslide',
  bounds: [0, 2360, 1080, 2400],
  children: [{desc: 'Swipe', pkg: 'com.vivo.upslide', bounds: [0, 2360, 1080, 2400]}],
}
const keyboardTree: NodeSpec = {
  pkg: 'com.google.android.inputmethod.latin',
  bounds: [0, 1600, 1080, 2400],
  children: [{desc: 'q', pkg: 'com.google.android.inputmethod.latin', bounds: [0, 1600, 108, 1700]}],
}

const status: WindowSpec = {type: 'TYPE_SYSTEM', title: 'Status bar', layer: 4, tree: statusTree}
const gestures: WindowSpec = {type: 'TYPE_SYSTEM', title: 'SideSlideGestureBar-Bottom', layer: 3, tree: gestureTree}
const keyboard: WindowSpec = {type: 'TYPE_INPUT_METHOD', title: 'Gboard', layer: 2, tree: keyboardTree}
const app: WindowSpec = {type: 'TYPE_APPLICATION', title: 'Foo', layer: 1, focused: true, tree: appTree}

function headers(model: ReturnType<typeof buildScreenModel>): string[] {
  return model.windows.map(
    (w) =>
      `${w.pkg} ${w.type} ${w.title ?? '-'}${w.activity ? ` ${w.activity}` : ''} layer:${w.layer} focused:${w.focused}`
  )
}

describe('uiautomator dump --windows: the <displays> document', () => {
  it('reads every window of every display: its tree, and what the accessibility layer says of it', () => {
    const xml = displaysXml({
      0: [
        status,
        {...keyboard, rotation: 1},
        {
          ...app,
          children: [
            {
              type: 'TYPE_APPLICATION',
              title: 'Popup',
              layer: 5,
              tree: {pkg: 'com.foo', text: 'Copy', bounds: [10, 10, 200, 90]},
            },
          ],
        },
      ],
      2: [
        {
          type: 'TYPE_APPLICATION',
          title: 'Cast',
          layer: 0,
          bounds: [0, 0, 1920, 1080],
          tree: {pkg: 'com.cast', text: 'Now playing', bounds: [0, 0, 1920, 1080]},
        },
      ],
    })
    const h = parseUiDump(xml)
    expect(h.windows.map((w) => w.package)).to.deep.equal([
      'com.android.systemui',
      'com.google.android.inputmethod.latin',
      'com.foo',
      'com.foo',
      'com.cast',
    ])
    // The rotation is the main display's, from its first tree.
    expect(h.rotation).to.equal(0)
    expect(h.nodeCount).to.equal(2 + 2 + 1 + 2 + 1)
    const listed = h.listedWindows!
    expect(listed.map((w) => [w.title, w.type, w.layer, w.focused, w.displayId])).to.deep.equal([
      ['Status bar', 'TYPE_SYSTEM', 4, false, 0],
      ['Gboard', 'TYPE_INPUT_METHOD', 2, false, 0],
      ['Foo', 'TYPE_APPLICATION', 1, true, 0],
      // A child window comes inside its parent, before the parent's tree.
      ['Popup', 'TYPE_APPLICATION', 5, false, 0],
      ['Cast', 'TYPE_APPLICATION', 0, false, 2],
    ])
    expect(listed[0]).to.include({id: 100, active: false}).and.have.deep.property('bounds', [0, 0, 1080, 63])
    expect(listed.map((w) => w.root)).to.deep.equal([
      h.windows[0],
      h.windows[1],
      h.windows[3],
      h.windows[2],
      h.windows[4],
    ])
    // Nodes of another display carry it; the main display's stay as the dump wrote them.
    expect(h.windows[4]!.displayId).to.equal(2)
    expect(h.windows[4]!.children).to.deep.equal([])
    expect(h.windows[0]!.displayId).to.equal(undefined)
  })

  it('takes the rotation from the main display even when another display comes first in the document', () => {
    const xml = displaysXml({0: [{...app, rotation: 3}]}).replace(
      '<displays>',
      '<displays><display id="1"><window index="0" title="x" bounds="[0,0][10,10]" active="false" focused="false" accessibility-focused="false" id="9" layer="0" type="TYPE_APPLICATION"><hierarchy rotation="0"><node index="0" text="" resource-id="" class="a" package="p" content-desc="" bounds="[0,0][10,10]" /></hierarchy></window></display>'
    )
    expect(parseUiDump(xml).rotation).to.equal(3)
  })

  it("describes each window by the dump's own metadata: type, title, layer and focus", () => {
    const xml = displaysXml({0: [status, gestures, keyboard, app]})
    const model = buildScreenModel(capture(xml, undefined, {foreground: {package: 'com.foo', activity: '.Main'}}))
    expect(headers(model)).to.deep.equal([
      'com.android.systemui SYSTEM Status bar layer:4 focused:false',
      // The guess from the package would call a vendor's gesture bar an application window; the device says SYSTEM.
      'com.vivo.upslide SYSTEM SideSlideGestureBar-Bottom layer:3 focused:false',
      'com.google.android.inputmethod.latin INPUT_METHOD Gboard layer:2 focused:false',
      'com.foo APPLICATION Foo .Main layer:1 focused:true',
    ])
    expect(model.degraded).to.equal(false)
  })

  it("keeps the dump's word over the window manager's, which it still gives the device's type names", () => {
    const wm: DeviceWindow[] = [
      {
        z: 0,
        type: 'STATUS_BAR',
        package: 'com.android.systemui',
        title: 'StatusBar',
        frame: [0, 0, 1080, 63],
        visible: true,
        layer: 0,
        displayId: 0,
      },
      {
        z: 1,
        type: 'BASE_APPLICATION',
        package: 'com.foo',
        title: 'com.foo/com.foo.Main',
        frame: [0, 0, 1080, 2400],
        visible: true,
        layer: 0,
        displayId: 0,
      },
    ]
    const model = buildScreenModel(
      capture(displaysXml({0: [status, app]}), undefined, {windowManager: {windows: wm, focus: 'StatusBar'}})
    )
    expect(headers(model)).to.deep.equal([
      'com.android.systemui SYSTEM Status bar layer:4 focused:false',
      'com.foo APPLICATION Foo layer:1 focused:true',
    ])
    expect(model.windows.map((w) => w.deviceType)).to.deep.equal(['STATUS_BAR', 'BASE_APPLICATION'])
  })

  it('reports a type outside the spec list as SYSTEM, with the written name as the device type', () => {
    const model = buildScreenModel(
      capture(displaysXml({0: [{type: 'TYPE_WINDOW_CONTROL', title: 'Controls', layer: 0, tree: statusTree}]}))
    )
    expect(model.windows[0]).to.include({type: 'SYSTEM', deviceType: 'WINDOW_CONTROL'})
  })

  it('is degraded only when a window of the main display came without its tree', () => {
    const behindDialog: DeviceWindow = {
      z: 1,
      type: 'BASE_APPLICATION',
      package: 'com.foo',
      title: 'com.foo/com.foo.Main',
      frame: [0, 0, 1080, 2400],
      visible: true,
      layer: 0,
      displayId: 0,
    }
    const dialog: WindowSpec = {
      type: 'TYPE_APPLICATION',
      title: 'Delete?',
      layer: 0,
      focused: true,
      tree: {pkg: 'com.foo', text: 'Delete?', bounds: [100, 800, 980, 1400]},
    }
    // The accessibility layer lists only windows a user can reach: the app behind a modal dialog is not missing.
    const dialogOnly = buildScreenModel(
      capture(displaysXml({0: [dialog]}), undefined, {windowManager: {windows: [behindDialog]}})
    )
    expect(dialogOnly.degraded).to.equal(false)
    expect(buildScreenModel(capture(displaysXml({0: [{...status, tree: undefined}, app]}))).degraded).to.equal(true)
    expect(
      buildScreenModel(capture(displaysXml({0: [app], 1: [{type: 'TYPE_APPLICATION', layer: 0}]}))).degraded
    ).to.equal(false)
  })

  it('gives each element the id it has in a plain dump of the same trees', () => {
    const plain = buildScreenModel(capture(dumpXml([statusTree, appTree])))
    const windows = buildScreenModel(capture(displaysXml({0: [status, app]})))
    expect(windows.elements.map((e) => e.id)).to.deep.equal(plain.elements.map((e) => e.id))
    expect(windows.elements).to.have.length(2)
  })

  it('is cut out of what the device printed around it, up to </displays>', () => {
    const xml = displaysXml({0: [status, app]})
    expect(sliceDump(`log line\n${xml}UI hierchary dumped to: /dev/tty\n`)).to.equal(xml)
    expect(sliceDump(`${xml}\nUI hierarchy dumped to: /dev/tty\n`)).to.equal(xml)
    expect(parseUiDump(`${xml}UI hierchary dumped to: /dev/tty\n`).windows).to.have.length(2)
  })

  it('reads an empty list of windows as a screen with no window', () => {
    const h = parseUiDump(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays />`)
    expect(h.windows).to.deep.equal([])
    expect(h.listedWindows).to.deep.equal([])
    // As a device prints it: the message right after the empty document element.
    const printed = parseUiDump(
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays />UI hierchary dumped to: /dev/tty\n`
    )
    expect(printed.windows).to.deep.equal([])
    expect(printed.listedWindows).to.deep.equal([])
  })

  describe('refuses what uiautomator does not write, naming it', () => {
    const refused = (xml: string, message: RegExp) => {
      expect(() => parseUiDump(xml)).to.throw(InvalidDumpError, message)
    }

    it('elements out of place', () => {
      refused(
        displaysXml({0: [app]})
          .replace('<display id="0">', '<screen>')
          .replace('</display>', '</screen>'),
        /<screen> at line 1 inside <displays>/
      )
      refused(
        displaysXml({0: [app]})
          .replace('<window ', '<panel ')
          .replace('</window>', '</panel>'),
        /<panel> at line 1 inside <display>/
      )
      refused(
        displaysXml({0: [app]})
          .replace('<hierarchy rotation="0">', '<tree>')
          .replace('</hierarchy>', '</tree>'),
        /<tree> at line 1 inside <window>/
      )
    })

    it('a display without its number', () => {
      refused(
        displaysXml({0: [app]}).replace('<display id="0">', '<display>'),
        /<display> at line 1 without a display number/
      )
      refused(
        displaysXml({0: [app]}).replace('<display id="0">', '<display id="main">'),
        /without a display number \(id="main"\)/
      )
    })

    it('a window with two trees', () => {
      const one = `<hierarchy rotation="0">${dumpXml([statusTree]).split('<hierarchy rotation="0">')[1]}`
      refused(displaysXml({0: [app]}).replace('</window>', `${one}</window>`), /more than one tree/)
    })

    it('a document cut short, wherever it is cut', () => {
      const xml = displaysXml({0: [status, app]})
      for (let end = xml.indexOf('<displays>') + 10; end < xml.length; end += 37) {
        expect(() => parseUiDump(xml.slice(0, end)), `cut at ${end}`).to.throw(InvalidDumpError)
      }
    })
  })
})
