import {bareElementId, buildScreenModel, MemoryDeviceState, type ScreenModel} from '@arc-cli/core'
import {capture, displaysXml, type NodeSpec, type WindowSpec} from '@arc-cli/test-support/dump'
import {expect} from 'chai'

import {screenStateView} from '../src/screen-state-views.js'

/** An app with a search field and three buttons, the way the on-device helper dumps it (every window, its layer). */
const app: WindowSpec = {
  type: 'TYPE_APPLICATION',
  title: 'Example',
  layer: 1,
  focused: true,
  tree: {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: (
      [
        ['Open inbox', [0, 1000, 1080, 1200]],
        ['Archive', [0, 1200, 1080, 1400]],
        ['Settings', [0, 1500, 1080, 1700]],
      ] as const
    ).map(([text, bounds]): NodeSpec => ({
      cls: 'android.widget.Button',
      pkg: 'com.example',
      text,
      attrs: {clickable: 'true'},
      bounds: [...bounds],
    })),
  },
}
/** The search field's suggestions dropdown, a window of its own over the app's from y 330 to 1300. */
const dropdown: WindowSpec = {
  type: 'TYPE_APPLICATION',
  title: 'Suggestions',
  layer: 2,
  bounds: [0, 330, 1080, 1300],
  tree: {
    cls: 'android.widget.ListView',
    pkg: 'com.example',
    bounds: [0, 330, 1080, 1300],
    children: [
      {
        cls: 'android.widget.TextView',
        pkg: 'com.example',
        text: 'Report spam',
        attrs: {clickable: 'true'},
        bounds: [0, 1050, 1080, 1150],
      },
    ],
  },
}
const model = (windows: WindowSpec[]): ScreenModel => buildScreenModel(capture(displaysXml({0: windows})))

describe('screen-state changes: what an agent needs to know changed', () => {
  it('a dropdown arriving over an unchanged app: the diff says which of its buttons it covers, and where the rest are tapped now', async () => {
    const state = new MemoryDeviceState()
    const before = model([app])
    await screenStateView(state, before, 'full', 'diff')
    const after = model([dropdown, app])
    const {text, data} = await screenStateView(state, after, 'full', 'diff')
    const id = (text: string) => bareElementId(after.elements.find((e) => e.text === text)!.id)
    // The app's buttons kept their ids, words and bounds; two of them can no longer be tapped where they were.
    expect(after.elements.filter((e) => e.window.title === 'Example').map((e) => e.id)).to.deep.equal(
      before.elements.map((e) => e.id)
    )
    const lines = text.split('\n')
    expect(lines[0]).to.match(/^changed since last read \(screen \w+ -> \w+\): \+1 -0 ~2$/)
    expect(lines.slice(1)).to.deep.equal([
      `+ ${id('Report spam')} "Report spam" @540,1100`,
      `~ ${id('Open inbox')} btn "Open inbox" covered`,
      `~ ${id('Archive')} btn "Archive" @540,1350`,
    ])
    expect(data.changed).to.deep.equal([id('Open inbox'), id('Archive')].map((bare) => `node_${bare}`))
    // Closing it again is a change too: the buttons are back where a tap reaches them whole.
    const closed = (await screenStateView(state, model([app]), 'full', 'diff')).text.split('\n')
    expect(closed.slice(1)).to.deep.equal([
      `~ ${id('Open inbox')} btn "Open inbox" @540,1100`,
      `~ ${id('Archive')} btn "Archive" @540,1300`,
      `- ${id('Report spam')}`,
    ])
  })

  it('a row scrolled off the screen comes as off, with no point to tap (a tap there is refused)', async () => {
    const list = (top: number): ScreenModel =>
      buildScreenModel(
        capture(
          displaysXml({
            0: [
              {
                type: 'TYPE_APPLICATION',
                title: 'Example',
                layer: 1,
                focused: true,
                tree: {
                  pkg: 'com.example',
                  bounds: [0, 0, 1080, 2400],
                  children: [
                    {
                      cls: 'android.widget.Button',
                      pkg: 'com.example',
                      text: 'Next',
                      attrs: {clickable: 'true'},
                      bounds: [0, top, 1080, top + 200],
                    },
                  ],
                },
              },
            ],
          })
        )
      )
    const state = new MemoryDeviceState()
    await screenStateView(state, list(2000), 'full', 'diff')
    const moved = list(2500)
    const id = bareElementId(moved.elements[0]!.id)
    const {text} = await screenStateView(state, moved, 'full', 'diff')
    expect(text.split('\n').slice(1)).to.deep.equal([`~ ${id} btn "Next" off`])
  })
})
