/**
 * Counts overlapping label pairs on every real fixture pair (window_dump.xml + screen.png) for the given
 * presets, at the default size. `npm run bench annotate` prints the same figures; this script prints them per
 * fixture: `node --conditions=arc-source --import tsx plugins/annotate/scripts/measure-overlaps.ts [preset…]`.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {buildScreenModel, SnapshotDriver} from '@arc-cli/core'

import {fixtureNames, fixturePath} from '../../../test/support/paths.js'
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
}

export async function measureOverlaps(presets: string[]): Promise<OverlapRow[]> {
  const rows: OverlapRow[] = []
  for (const name of fixturePairs()) {
    const driver = await SnapshotDriver.open(fixturePath(name))
    const model = buildScreenModel(await driver.captureScreen())
    const png = await driver.screenshot()
    for (const preset of presets) {
      // The built-in preset at the default format and size: no config file is read.
      const image = await annotateScreenshot(model, png, resolveAnnotateOptions({config: {}}, {style: preset}))
      rows.push({fixture: name, preset, marks: image.map.marks.length, overlaps: image.map.labelOverlaps})
    }
  }
  return rows
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const presets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['default', 'som']
  const rows = await measureOverlaps(presets)
  for (const row of rows) console.log(`${row.fixture}\t${row.preset}\t${row.marks} marks\t${row.overlaps} overlaps`)
  for (const preset of presets) {
    const mine = rows.filter((r) => r.preset === preset)
    console.log(`${preset}: ${mine.reduce((s, r) => s + r.overlaps, 0)} overlapping pairs over ${mine.length} fixtures`)
  }
}
