/**
 * Where an element tool touches, and why it refuses: the refusal names what a person or an agent can check on the
 * screenshot, never a guess. Real screens from ../shared/fixtures/real (skipped where absent).
 */
import {bareElementId, buildScreenModel, InvalidInputError, SnapshotDriver} from '@arc-cli/core'
import {formatCompact} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {touchPoint} from '../../src/tools/touch-target.js'
import {capture, dumpXml} from '@arc-cli/test-support/dump'
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
