/**
 * Counts overlapping label pairs on every real fixture pair (window_dump.xml + screen.png) for the given
 * presets, at the default size. `npm run bench annotate` prints the same figures; this script prints them per
 * fixture: `node --conditions=arc-source --import tsx plugins/annotate/scripts/measure-overlaps.ts [preset…]`.
 */
import {existsSync, readdirSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {buildScreenModel, SnapshotDriver} from '@arc-cli/core'

import {annotateScreenshot, DEFAULTS} from '../src/annotate-screenshot.js'
import {BUILTIN_PRESETS} from '../src/style/presets.js'

export const FIXTURES = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)), '..', 'shared', 'fixtures', 'real')

export function fixturePairs(): string[] {
  if (!existsSync(FIXTURES)) return []
  return readdirSync(FIXTURES, {withFileTypes: true})
    .filter((d) => d.isDirectory() && existsSync(path.join(FIXTURES, d.name, 'screen.png')))
    .map((d) => d.name)
    .sort()
}

export interface OverlapRow {
  fixture: string
  preset: string
  marks: number
  overlaps: number
}

export async function measureOverlaps(presets: string[]): Promise<OverlapRow[]> {
  const rows: OverlapRow[] = []
  for (const name of fixturePairs()) {
    const driver = await SnapshotDriver.open(path.join(FIXTURES, name))
    const model = buildScreenModel(await driver.captureScreen())
    const png = await driver.screenshot()
    for (const preset of presets) {
      const style = {name: preset, style: BUILTIN_PRESETS[preset] as (typeof BUILTIN_PRESETS)[string]}
      const image = await annotateScreenshot(model, png, {...DEFAULTS, style})
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
