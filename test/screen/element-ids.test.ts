import {execFileSync} from 'node:child_process'

import {buildScreenModel, isEditable, SnapshotDriver, type ScreenCapture, type ScreenModel, type UiNode} from '@arc-cli/core'
import {expect} from 'chai'

import {capture, dumpXml} from '../support/dump.js'
import {fixtureNames, fixturePath, requireFixtures, ROOT} from '../support/paths.js'
import {cloneWindows, leaf, shiftBounds, walk} from '../support/perturb.js'

function idsOf(model: ScreenModel): Map<UiNode, string> {
  return new Map(model.elements.map((e) => [e.node, e.id]))
}

/** Rebuilds a model from perturbed window trees (same screen, same foreground). */
function rebuild(base: ScreenCapture, model: ScreenModel, windows: UiNode[]): ScreenModel {
  return buildScreenModel({...base, hierarchy: {...model.hierarchy, windows}})
}

interface Tally {
  kept: number
  total: number
}

/**
 * Applies a perturbation to a copy of the screen and counts how many unchanged elements kept their id.
 * `perturb` changes the copy and returns the original nodes it changed or removed (not counted).
 */
function measure(base: ScreenCapture, model: ScreenModel, perturb: (windows: UiNode[], copyOf: Map<UiNode, UiNode>) => Set<UiNode> | undefined): Tally | undefined {
  const {windows, copyOf} = cloneWindows(model.hierarchy.windows)
  const changed = perturb(windows, copyOf)
  if (!changed) return undefined
  const after = idsOf(rebuild(base, model, windows))
  let kept = 0
  let total = 0
  for (const element of model.elements) {
    if (changed.has(element.node)) continue
    total++
    if (after.get(copyOf.get(element.node) as UiNode) === element.id) kept++
  }
  return {kept, total}
}

/** Scroll: the first scrollable container with 3+ children moves its content up by one child's height, the first child leaves and a new one arrives at the end. */
function scroll(windows: UiNode[], copyOf: Map<UiNode, UiNode>): Set<UiNode> | undefined {
  const original = [...copyOf.keys()].find((n) => n.scrollable && n.children.length >= 3)
  if (!original) return undefined
  const container = copyOf.get(original) as UiNode
  const first = container.children[0] as UiNode
  const dy = first.bounds[3] - first.bounds[1] || 100
  for (const child of container.children) shiftBounds(child, -dy)
  container.children.shift()
  const arrival = leaf(container, 'a new row scrolled in')
  container.children.push(arrival)
  return new Set(walk([original.children[0] as UiNode]))
}

/** Typing: every editable field gets new text. The fields themselves must keep their ids too. */
function typeInto(windows: UiNode[]): Set<UiNode> | undefined {
  const fields = [...walk(windows)].filter(isEditable)
  if (fields.length === 0) return undefined
  for (const field of fields) field.text = `${field.text} typed by arc`
  return new Set()
}

/** Unrelated text: the middle text-bearing, non-editable node changes its text. */
function changeText(windows: UiNode[], copyOf: Map<UiNode, UiNode>): Set<UiNode> | undefined {
  const texts = [...copyOf.keys()].filter((n) => n.text !== '' && !isEditable(n))
  const target = texts[Math.floor(texts.length / 2)]
  if (!target) return undefined
  ;(copyOf.get(target) as UiNode).text = `${target.text} (changed)`
  return new Set([target])
}

/** A sibling inserted above: a new labelled view becomes the first child of the middle element's parent. */
function insertSibling(windows: UiNode[], copyOf: Map<UiNode, UiNode>): Set<UiNode> | undefined {
  const parents = [...copyOf.keys()].filter((n) => n.children.length > 0 && n.parent)
  const target = parents[Math.floor(parents.length / 2)]
  if (!target) return undefined
  const copy = copyOf.get(target) as UiNode
  copy.children.unshift(leaf(copy, 'Inserted banner'))
  return new Set()
}

const PERTURBATIONS = {scroll, type: typeInto, 'unrelated text': changeText, 'sibling above': insertSibling}

describe('element ids', () => {
  it('are node_<hash> with at least 4 base-32 characters, unique within a screen', () => {
    const xml = dumpXml([{children: Array.from({length: 300}, (_, i) => ({cls: 'android.widget.ImageView', attrs: {clickable: 'true'}, bounds: [0, i, 10, i + 1] as [number, number, number, number]}))}])
    const model = buildScreenModel(capture(xml))
    const ids = model.elements.map((e) => e.id)
    expect(ids).to.have.length(300)
    expect(new Set(ids).size).to.equal(300)
    for (const id of ids) expect(id).to.match(/^node_[0-9a-v]{4,}$/)
  })

  it('do not depend on bounds', () => {
    const a = buildScreenModel(capture(dumpXml([{text: 'Title', bounds: [0, 0, 100, 50]}])))
    const b = buildScreenModel(capture(dumpXml([{text: 'Title', bounds: [0, 900, 100, 950]}])))
    expect(a.elements[0]?.id).to.equal(b.elements[0]?.id)
  })

  it('keep an edit field\'s id when its text changes, and separate windows', () => {
    const field = (text: string) => dumpXml([{children: [{cls: 'android.widget.EditText', text, res: 'com.example:id/q'}]}, {pkg: 'com.android.systemui', children: [{cls: 'android.widget.EditText', text, res: 'com.example:id/q'}]}])
    const a = buildScreenModel(capture(field('')))
    const b = buildScreenModel(capture(field('hello')))
    expect(a.elements.map((e) => e.id)).to.deep.equal(b.elements.map((e) => e.id))
    expect(a.elements[0]?.id).to.not.equal(a.elements[1]?.id)
  })

  it('are the same in another process', async () => {
    const here = buildScreenModel(await (await SnapshotDriver.open(`${ROOT}packages/core/demo`)).captureScreen())
    const out = execFileSync(process.execPath, ['--conditions=arc-source', '--import', 'tsx', 'bin/dev.js', 'screen-state', '--device', 'demo'], {cwd: ROOT, encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}})
    const there = out.split('\n').filter((l) => l.startsWith('node_')).map((l) => l.split('\t')[0])
    expect(there).to.deep.equal(here.elements.map((e) => e.id))
  })

  describe('persistence on the real fixtures', function () {
    before(function () {
      requireFixtures(this)
    })

    for (const [name, perturb] of Object.entries(PERTURBATIONS)) {
      it(`keeps >= 95% of unchanged elements' ids under: ${name}`, async () => {
        let kept = 0
        let total = 0
        let screens = 0
        for (const fixture of fixtureNames()) {
          const base = await (await SnapshotDriver.open(fixturePath(fixture))).captureScreen().catch(() => undefined)
          if (!base) continue
          const model = buildScreenModel(base)
          const tally = measure(base, model, perturb)
          if (!tally) continue
          screens++
          kept += tally.kept
          total += tally.total
        }
        const rate = kept / total
        console.log(`      ${name}: ${kept}/${total} ids kept (${(rate * 100).toFixed(2)}%) over ${screens} screens`)
        expect(screens).to.be.greaterThan(5)
        expect(rate).to.be.at.least(0.95)
      })
    }
  })
})
