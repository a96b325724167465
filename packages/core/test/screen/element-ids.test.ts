import {execFileSync} from 'node:child_process'

import {buildScreenModel, ELEMENT_ID_PATTERN, isAmbiguousId, SnapshotDriver, type ScreenModel} from '@arc-cli/core'
import {expect} from 'chai'

import {capture, dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {fixtureNames, fixturePath, requireFixtures, ROOT} from '@arc-cli/test-support/paths'
import {emptyTally, measure, PERTURBATIONS, TALLY_KEYS} from '@arc-cli/test-support/perturb'

const model = (windows: NodeSpec[]): ScreenModel => buildScreenModel(capture(dumpXml(windows)))
const idOf = (m: ScreenModel, text: string): string | undefined =>
  m.elements.find((e) => e.text === text || e.desc === text)?.id

/** A list of contact rows, each an avatar (no label), a name and a checkbox: the member-picker shape. */
function contacts(names: string[], scrollable = false): NodeSpec[] {
  return [
    {
      children: [
        {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          res: 'com.example:id/list',
          attrs: {scrollable: String(scrollable)},
          children: names.map((name, i) => ({
            cls: 'android.widget.LinearLayout',
            attrs: {clickable: 'true'},
            bounds: [0, i * 100, 1080, i * 100 + 100] as [number, number, number, number],
            children: [
              {cls: 'android.widget.ImageView', res: 'com.example:id/avatar'},
              {cls: 'android.widget.TextView', res: 'com.example:id/name', text: name},
              {
                cls: 'android.widget.CheckBox',
                res: 'com.example:id/check',
                attrs: {checkable: 'true', clickable: 'true'},
              },
            ],
          })),
        },
      ],
    },
  ]
}

describe('element ids', () => {
  it('are node_ + 6 characters without look-alikes (l, i, o, 0, 1), unique within a screen', () => {
    const m = model([
      {children: Array.from({length: 300}, (_, i) => ({cls: 'android.widget.Button', text: `Button ${i}`}))},
    ])
    const ids = m.elements.map((e) => e.id)
    expect(new Set(ids).size).to.equal(ids.length)
    for (const id of ids) {
      expect(id).to.match(ELEMENT_ID_PATTERN)
      expect(id.slice(5)).to.not.match(/[lio01]/)
    }
  })

  it('do not depend on bounds or on clipping', () => {
    const a = model([{text: 'Title', bounds: [0, 0, 100, 50]}])
    const b = model([{text: 'Title', bounds: [0, 900, 100, 925]}])
    expect(a.elements[0]?.id).to.equal(b.elements[0]?.id)
  })

  it("keep an anchored node's id when its text changes (a clock), but not an unanchored one's", () => {
    const clock = (t: string) =>
      model([
        {
          children: [
            {cls: 'android.widget.TextView', res: 'com.example:id/clock', text: t},
            {cls: 'android.widget.TextView', text: t},
          ],
        },
      ])
    const a = clock('12:00')
    const b = clock('12:01')
    expect(a.elements[0]?.id).to.equal(b.elements[0]?.id)
    expect(a.elements[1]?.id).to.not.equal(b.elements[1]?.id)
  })

  it("keep an edit field's id when its text changes, and separate windows", () => {
    const field = (text: string) =>
      model([
        {children: [{cls: 'android.widget.EditText', text, res: 'com.example:id/q'}]},
        {pkg: 'com.android.systemui', children: [{cls: 'android.widget.EditText', text, res: 'com.example:id/q'}]},
      ])
    const a = field('')
    const b = field('hello')
    expect(a.elements.map((e) => e.id)).to.deep.equal(b.elements.map((e) => e.id))
    expect(a.elements[0]?.id).to.not.equal(a.elements[1]?.id)
  })

  for (const scrollable of [true, false]) {
    it(`give every row's look-alike views ids of their own, kept when the list scrolls (scrollable=${scrollable})`, () => {
      const before = model(contacts(['Ann', 'Bob', 'Cid', 'Dee'], scrollable))
      const after = model(contacts(['Bob', 'Cid', 'Dee', 'Eve'], scrollable))
      const avatars = (m: ScreenModel) => m.elements.filter((e) => e.resId.endsWith('avatar')).map((e) => e.id)
      expect(avatars(before).every((id) => !isAmbiguousId(id))).to.equal(true)
      // Bob's avatar keeps its id; Ann's id names nothing after she scrolled away (never Bob's avatar).
      expect(avatars(after).slice(0, 3)).to.deep.equal(avatars(before).slice(1))
      expect(after.byId.has(avatars(before)[0] as string)).to.equal(false)
    })
  }

  it('never lengthen or move an id when a look-alike arrives: both become ambiguous (-n), which actions refuse', () => {
    const one = model([
      {
        children: [
          {cls: 'android.widget.Button', text: 'OK'},
          {cls: 'android.widget.TextView', text: 'Other'},
        ],
      },
    ])
    const two = model([
      {
        children: [
          {cls: 'android.widget.Button', text: 'OK'},
          {cls: 'android.widget.Button', text: 'OK'},
          {cls: 'android.widget.TextView', text: 'Other'},
        ],
      },
    ])
    const ok = idOf(one, 'OK') as string
    expect(isAmbiguousId(ok)).to.equal(false)
    expect(idOf(two, 'Other')).to.equal(idOf(one, 'Other'))
    const oks = two.elements.filter((e) => e.text === 'OK').map((e) => e.id)
    expect(oks.map(isAmbiguousId)).to.deep.equal([true, true])
    expect(oks[0]?.replace(/-1$/, '-2')).to.equal(oks[1])
    expect(two.byId.has(ok)).to.equal(false)
  })

  it('are the same in another process', async () => {
    const here = buildScreenModel(await (await SnapshotDriver.open(`${ROOT}packages/core/demo`)).captureScreen())
    const out = execFileSync(
      process.execPath,
      ['--conditions=arc-source', '--import', 'tsx', 'bin/dev.js', 'screen-state', '--device', 'demo'],
      {cwd: ROOT, encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}}
    )
    const there = out
      .split('\n')
      .filter((l) => l.startsWith('node_'))
      .map((l) => l.split('\t')[0])
    expect(there).to.deep.equal(here.elements.map((e) => e.id))
  })

  describe('persistence on the real fixtures (figures: npm run measure:ids)', function () {
    before(function () {
      requireFixtures(this)
    })

    for (const [name, perturb] of Object.entries(PERTURBATIONS)) {
      it(`keeps >= 95% of unchanged elements' ids and hits no wrong target under: ${name}`, async () => {
        const sum = emptyTally()
        let screens = 0
        for (const fixture of fixtureNames()) {
          const base = await (await SnapshotDriver.open(fixturePath(fixture))).captureScreen().catch(() => undefined)
          if (!base) continue
          const tally = measure(base, buildScreenModel(base), perturb)
          if (!tally) continue
          screens++
          for (const k of TALLY_KEYS) sum[k] += tally[k]
        }
        expect(screens).to.be.greaterThan(5)
        expect(sum.wrong).to.equal(0)
        expect(sum.kept / sum.total).to.be.at.least(0.95)
        // Look-alikes act by their ordinal while their group is as it was: on the same screen, none is refused.
        if (name === 'unchanged screen') expect([sum.refused, sum.ordinalKept]).to.deep.equal([0, sum.ambiguous])
      })
    }
  })
})
