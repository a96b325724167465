/**
 * Where an element tool touches, and why it refuses: the refusal names what a person or an agent can check on the
 * screenshot, never a guess. Real screens from ../shared/fixtures/real (skipped where absent).
 */
import {bareElementId, buildScreenModel, InvalidInputError, SnapshotDriver} from '@arc-cli/core'
import {formatCompact} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {touchPoint} from '../../src/tools/touch-target.js'
import {capture, displaysXml, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'

function refusal(run: () => unknown): InvalidInputError {
  try {
    run()
  } catch (error) {
    if (error instanceof InvalidInputError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

describe('touchPoint refusals', () => {
  it('a web menu laid out outside its parents (the Maps overflow popup): names the ancestor that leaves it no part, and where it is', async function () {
    if (!fixturesAvailable) this.skip()
    // The popup's items are children of the ⋮ button's web node [945,70][1071,202] in the dump, but drawn at
    // [498,217][1071,349]…: screen-state lists them on screen and the screenshot shows them; "off screen" was wrong.
    const model = buildScreenModel(
      await (await SnapshotDriver.open(fixturePath('maps-overflow-popup-only'))).captureScreen()
    )
    const item = model.elements.find((e) => e.text === 'About Timeline')
    expect(item?.flags.on).to.equal(true)
    const error = refusal(() => touchPoint({id: item!.id, element: item!, model}, 'click again'))
    expect(error.message).to.equal(
      `element ${item!.id} has no part inside its parents: its bounds [498,217][1071,349] lie outside those of an ancestor, View [945,70][1071,202]`
    )
    expect(error.actions).to.include(
      'If the screenshot shows it there (web content may be drawn outside its parents), tap it by position: arc tap 784 283'
    )
    // Compact screen-state offers the same point.
    expect(formatCompact(model)).to.match(new RegExp(`^${bareElementId(item!.id)} .*@784,283`, 'm'))
  })

  it('compact offers the point of the refusal, on the screen, for such an element partly past the edge', () => {
    const xml = dumpXml([
      {
        pkg: 'com.foo',
        bounds: [0, 0, 1080, 2400],
        children: [
          {
            cls: 'android.webkit.WebView',
            bounds: [0, 0, 1080, 2400],
            children: [
              {
                bounds: [0, 300, 100, 400],
                children: [{text: 'Menu', bounds: [900, 100, 1300, 200], attrs: {clickable: 'true'}}],
              },
            ],
          },
        ],
      },
    ])
    const model = buildScreenModel(capture(xml))
    const menu = model.elements.find((e) => e.text === 'Menu')!
    const error = refusal(() => touchPoint({id: menu.id, element: menu, model}, 'click again'))
    expect(error.actions?.[0]).to.match(/arc tap 990 150$/)
    expect(formatCompact(model)).to.match(new RegExp(`^${bareElementId(menu.id)} "Menu" @990,150$`, 'm'))
  })

  it('an element wholly below the screen is still "off screen"', () => {
    const xml = dumpXml([
      {
        pkg: 'com.foo',
        bounds: [0, 0, 1080, 2400],
        children: [
          {cls: 'android.widget.Button', text: 'Far', bounds: [0, 2500, 1080, 2600], attrs: {clickable: 'true'}},
        ],
      },
    ])
    const model = buildScreenModel(capture(xml))
    const far = model.elements.find((e) => e.text === 'Far')!
    const error = refusal(() => touchPoint({id: far.id, element: far, model}, 'click again'))
    expect(error.message).to.equal(`element ${far.id} is off screen: no part of it can be touched`)
  })
})

describe('touchPoint: windows stacked above the app', () => {
  // A picture-in-picture video in the bottom right corner, over a list of the app behind it: AOSP lists the pinned
  // activity's window as an accessibility window of TYPE_APPLICATION above the app (its own task), and the input
  // dispatcher gives a touch there to it (InputDispatcher findTouchedWindowAtLocked, front to back).
  const pip: [number, number, number, number] = [600, 1700, 1040, 2100]
  const row = (text: string, bounds: [number, number, number, number]): NodeSpec => ({
    cls: 'android.widget.Button',
    text,
    bounds,
    attrs: {clickable: 'true'},
  })
  const app: NodeSpec = {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      row('Wide', [200, 1800, 1080, 2000]),
      row('Hidden', [700, 1750, 1000, 2050]),
      row('Free', [0, 300, 1080, 500]),
    ],
  }
  const video: NodeSpec = {
    pkg: 'com.video',
    bounds: pip,
    children: [{cls: 'android.view.View', desc: 'Video', bounds: pip}],
  }

  function models() {
    const windows = buildScreenModel(
      capture(
        displaysXml({
          0: [
            {type: 'TYPE_APPLICATION', title: 'Video', layer: 2, bounds: pip, tree: video},
            {type: 'TYPE_APPLICATION', title: 'Example', layer: 1, focused: true, tree: app},
          ],
        })
      )
    )
    // A plain multi-window dump lists the topmost window first.
    const plain = buildScreenModel(capture(dumpXml([video, app])))
    return {windows, plain}
  }

  for (const form of ['windows', 'plain'] as const) {
    it(`a ${form} dump: the tap goes to the part of the element the window leaves, never under the window`, () => {
      const model = models()[form]
      const wide = model.elements.find((e) => e.text === 'Wide')!
      const point = touchPoint({id: wide.id, element: wide, model}, 'click again')
      const inside = (r: number[]) => point.x >= r[0]! && point.x < r[2]! && point.y >= r[1]! && point.y < r[3]!
      expect(inside(pip), `(${point.x}, ${point.y}) is on the picture-in-picture window`).to.equal(false)
      expect(inside(wide.bounds)).to.equal(true)
      // Compact screen-state offers the same point.
      expect(formatCompact(model)).to.match(
        new RegExp(`^${bareElementId(wide.id)} .*"Wide" @${point.x},${point.y}$`, 'm')
      )
      const free = model.elements.find((e) => e.text === 'Free')!
      expect(touchPoint({id: free.id, element: free, model}, 'click again')).to.deep.equal({x: 540, y: 400})
    })

    it(`a ${form} dump: an element wholly under the window is refused, naming the window`, () => {
      const model = models()[form]
      const hidden = model.elements.find((e) => e.text === 'Hidden')!
      const error = refusal(() => touchPoint({id: hidden.id, element: hidden, model}, 'click again'))
      expect(error.message).to.equal(
        `element ${hidden.id} is behind ${form === 'windows' ? '"Video" (com.video)' : '"com.video"'} [600,1700][1040,2100]: a tap there would land on it, not on the element`
      )
      expect(error.details).to.deep.include({element_id: hidden.id})
      expect(error.details.covered_by).to.have.length(1)
    })
  }

  it('the video window itself is tapped where it is', () => {
    const model = models().windows
    const v = model.elements.find((e) => e.desc === 'Video')!
    expect(touchPoint({id: v.id, element: v, model}, 'click again')).to.deep.equal({x: 820, y: 1900})
  })
})
