/**
 * Counts overlapping label pairs on every real fixture pair (window_dump.xml + screen.png) for the given
 * presets, at the default size. `npm run bench annotate` prints the same figures; this script prints them per
 * fixture: `node --conditions=arc-source --import tsx plugins/annotate/scripts/measure-overlaps.ts [preset…]`.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {buildScreenModel, SnapshotDriver} from '@arc-cli/core'

import {fixtureNames, fixturePath} from '@arc-cli/test-support/paths'
import {annotateScreenshot} from '../src/annotate-screenshot.js'
import {resolveAnnotateOptions} from '../src/annotate-options.js'

/** Fixture folders with both the dump and the screenshot, sorted. */
function fixturePairs(): string[] {
  return fixtureNames().filter((name) => existsSync(fixturePath(name, 'screen.png')))
}

interface OverlapRow {
  fixture: string
  preset: string
  marks: number
  overlaps: number
  /** Labels that cover an on-screen element showing text (its own or another's): words a reader cannot see. */
  overText: number
}

type Rect = [number, number, number, number]
const hits = (a: Rect, b: Rect) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]

export async function measureOverlaps(presets: string[]): Promise<OverlapRow[]> {
  const rows: OverlapRow[] = []
  for (const name of fixturePairs()) {
    const driver = await SnapshotDriver.open(fixturePath(name))
    const model = buildScreenModel(await driver.captureScreen())
    const png = await driver.screenshot()
    for (const preset of presets) {
      // The built-in preset at the default format and size: no config file is read.
      const image = await annotateScreenshot(model, png, resolveAnnotateOptions({config: {}}, {style: preset}))
      const {x, y} = image.map.scale
      const text = model.elements
        .filter((e) => e.flags.on && e.text.trim() !== '')
        .map((e) => [e.bounds[0] * x, e.bounds[1] * y, e.bounds[2] * x, e.bounds[3] * y] as Rect)
      const overText = image.map.marks.filter((m) => text.some((t) => hits(m.label_rect, t))).length
      rows.push({fixture: name, preset, marks: image.map.marks.length, overlaps: image.map.label_overlaps, overText})
    }
  }
  return rows
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const presets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['default', 'som']
  const rows = await measureOverlaps(presets)
  for (const row of rows)
    console.log(
      `${row.fixture}\t${row.preset}\t${row.marks} marks\t${row.overlaps} overlaps\t${row.overText} over text`
    )
  for (const preset of presets) {
    const mine = rows.filter((r) => r.preset === preset)
    const sum = (f: (r: OverlapRow) => number) => mine.reduce((s, r) => s + f(r), 0)
    console.log(
      `${preset}: ${sum((r) => r.overlaps)} overlapping pairs, ${sum((r) => r.overText)} of ${sum((r) => r.marks)} labels over text, ${mine.length} fixtures`
    )
  }
}
