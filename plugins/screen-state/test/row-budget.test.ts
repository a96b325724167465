import {bareElementId, buildScreenModel, MemoryDeviceState, SnapshotDriver} from '@arc-cli/core'
import {capture, displaysXml, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {expect} from 'chai'

import {DEFAULT_MAX_ROWS} from '../src/row-budget.js'
import {screenStateView} from '../src/screen-state-views.js'
import {getScreenState} from '../src/tools/get-screen-state.js'

/** A long list: `n` rows of 80 px, the first ones on the 2400 px screen, the rest below it. */
function longList(n: number, added = 0) {
  const rows: NodeSpec[] = Array.from({length: n + added}, (_, i) => ({
    cls: 'android.widget.TextView',
    text: `Item ${i + 1}`,
    bounds: [0, i * 80, 1080, i * 80 + 80],
    attrs: {clickable: 'true'},
  }))
  return buildScreenModel(
    capture(dumpXml([{cls: 'android.widget.FrameLayout', bounds: [0, 0, 1080, 2400], children: rows}]))
  )
}

const rows = (text: string) => text.split('\n').filter((l) => /^node_\w+\t/.test(l)).length

describe('screen-state: a size bound on every form', () => {
  const model = longList(2000)

  it('the default TSV stops at max_rows (on-screen rows kept first) and says what it left out and how to see it', async () => {
    const {text, data} = await screenStateView(new MemoryDeviceState(), model, 'full', 'off', DEFAULT_MAX_ROWS)
    expect(rows(text)).to.equal(DEFAULT_MAX_ROWS)
    expect(text).to.include('\nnode_').and.include('Item 1\t')
    expect(text.split('\n').at(-1)).to.equal(
      `note:${2000 - DEFAULT_MAX_ROWS} of 2000 element rows left out (all of them off screen) by max_rows ${DEFAULT_MAX_ROWS}: max_rows 0 (--max-rows 0) shows every row; find (arc find) looks elements up by text, desc or id`
    )
    const windows = data.windows as Array<{elements: unknown[]}>
    expect(windows.flatMap((w) => w.elements)).to.have.length(DEFAULT_MAX_ROWS)
    expect(data.rows_left_out).to.equal(2000 - DEFAULT_MAX_ROWS)
  })

  it('compact and the diff are bounded too; max_rows 0 prints every row', async () => {
    const compact = (await screenStateView(new MemoryDeviceState(), model, 'compact', 'off', 100)).text
    expect(compact.split('\n').length).to.be.at.most(100 + 4)
    expect(compact).to.include('1900 of 2000 element rows left out')
    const state = new MemoryDeviceState()
    await screenStateView(state, model, 'full', 'off', 100)
    // 300 rows more below: a diff of 300 added rows, cut to 100.
    const diff = (await screenStateView(state, longList(2000, 300), 'full', 'diff', 100)).text
    expect(diff).to.match(/^changed since last read .*: \+300 -0 ~0\n/)
    // The summary line, 100 rows, the note.
    expect(diff.split('\n').filter((line) => line.startsWith('+ '))).to.have.length(100)
    expect(diff.split('\n')).to.have.length(100 + 2)
    expect(diff).to.include('200 more changed rows left out by max_rows 100')
    expect(rows((await screenStateView(new MemoryDeviceState(), model, 'full', 'off', 0)).text)).to.equal(2000)
  })

  it('a dialog over a long list keeps its buttons under a small bound, whatever order the dump lists the windows in', async () => {
    const button = (text: string, left: number): NodeSpec => ({
      cls: 'android.widget.Button',
      pkg: 'com.example',
      text,
      attrs: {clickable: 'true'},
      bounds: [left, 1300, left + 300, 1400],
    })
    const feed = longList(30).windows[0]!.root
    const list: NodeSpec = {
      pkg: 'com.example',
      bounds: [0, 0, 1080, 2400],
      children: feed.children.map((n) => ({
        text: n.text,
        pkg: 'com.example',
        attrs: {clickable: 'true'},
        bounds: n.bounds,
      })),
    }
    const dialog: NodeSpec = {
      pkg: 'com.example',
      bounds: [100, 1000, 980, 1500],
      children: [
        {text: 'Delete all 30 items?', pkg: 'com.example', bounds: [140, 1040, 940, 1200]},
        button('Cancel', 140),
        button('Delete', 640),
      ],
    }
    // The app's window is listed first; its layer says the dialog is on top.
    const model = buildScreenModel(
      capture(
        displaysXml({
          0: [
            {type: 'TYPE_APPLICATION', title: 'Example', layer: 1, tree: list},
            {type: 'TYPE_APPLICATION', title: 'Delete', layer: 2, focused: true, tree: dialog},
          ],
        })
      )
    )
    const inDialog = model.windows.find((w) => w.title === 'Delete')!.elements.map((e) => bareElementId(e.id))
    expect(inDialog).to.have.length(3)
    for (const detail of ['full', 'compact'] as const) {
      const {text} = await screenStateView(new MemoryDeviceState(), model, detail, 'off', 10)
      for (const id of inDialog) expect(text, `${detail}: ${id}`).to.match(new RegExp(`^(node_)?${id}\\b`, 'm'))
      expect(text, detail).to.include('23 of 33 element rows left out (23 of them on screen)')
    }
  })

  it('the bound is on by default, over MCP as on the command line', () => {
    expect(getScreenState.input.parse({}).max_rows).to.equal(DEFAULT_MAX_ROWS)
  })

  it('the default bound leaves every real screen whole', async function () {
    if (!fixturesAvailable) this.skip()
    for (const name of fixtureNames()) {
      const real = buildScreenModel(await (await SnapshotDriver.open(fixturePath(name))).captureScreen())
      expect(real.elements.length, name).to.be.below(DEFAULT_MAX_ROWS)
    }
  })
})
