/**
 * `npm run bench annotate`: in-process time and memory of one annotation of a 1080x2400 screenshot with 100+
 * marks (decode PNG, resize to 700 px, place labels, draw, encode JPEG q80), after warm-up; then the label
 * overlap counts on every real fixture pair. The issue's budget: median <= 60 ms, < 100 MB added peak memory.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'

import {DEMO_DIR, SnapshotDriver, buildScreenModel} from '@arc-cli/core'
import {annotateScreenshot, resolveAnnotateOptions} from '@arc-cli/plugin-annotate'

import {measureOverlaps} from '../plugins/annotate/scripts/measure-overlaps.js'
import {fixturePath} from '@arc-cli/test-support/paths'
import {fmt, median, percentile, timeRuns} from './stats.js'

/** A built-in preset at the default format, quality and size (no config file). */
const presetOptions = (preset: string) => resolveAnnotateOptions({config: {}}, {style: preset})

async function load(dir: string) {
  const driver = await SnapshotDriver.open(dir)
  return {model: buildScreenModel(await driver.captureScreen()), png: await driver.screenshot()}
}

export default async function bench(): Promise<void> {
  // bili-home-feed: 1080x2400, 193 marks. Without ../shared, the bundled demo (1080x2400, fewer marks).
  const fixture = fixturePath('bili-home-feed')
  const source = existsSync(path.join(fixture, 'screen.png')) ? fixture : DEMO_DIR
  const {model, png} = await load(source)
  const defaults = presetOptions('default')
  const maxRssBefore = process.resourceUsage().maxRSS
  const rssBefore = process.memoryUsage().rss
  // One annotation, as `arc annotate` does it once per process: its added peak is what a CLI run costs.
  await annotateScreenshot(model, png, defaults)
  const maxRssOne = process.resourceUsage().maxRSS

  for (const preset of ['default', 'som'] as const) {
    const options = presetOptions(preset)
    let marks = 0
    let bytes = 0
    const times = await timeRuns(async () => {
      const image = await annotateScreenshot(model, png, options)
      marks = image.map.marks.length
      bytes = image.data.length
    }, 40)
    console.log(
      `${path.basename(source)} ${model.screen.width}x${model.screen.height}, preset ${preset}: ${marks} marks, ${bytes} bytes JPEG; ` +
        `median ${fmt(median(times))}, p90 ${fmt(percentile(times, 90))}, min ${fmt(Math.min(...times))} (40 runs after 5 warm-up)`
    )
  }
  const maxRssAfter = process.resourceUsage().maxRSS
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`
  console.log(
    `memory: RSS before ${(rssBefore / 1024 / 1024).toFixed(1)} MB; one annotation adds ${mb(maxRssOne - maxRssBefore)} to the peak; ` +
      `after 90 more back to back the peak is ${mb(maxRssAfter - maxRssBefore)} above the start ` +
      `(decoded frames are freed when the garbage collector gets to them)`
  )

  const rows = await measureOverlaps(['default', 'som'])
  if (rows.length === 0) {
    console.log('label overlaps: skipped (../shared/fixtures/real is absent)')
    return
  }
  for (const preset of ['default', 'som']) {
    const mine = rows.filter((r) => r.preset === preset)
    const overlapping = mine.filter((r) => r.overlaps > 0).map((r) => `${r.fixture} ${r.overlaps}`)
    console.log(
      `label overlaps, ${preset}: ${mine.reduce((s, r) => s + r.overlaps, 0)} pairs over ${mine.length} fixture pairs ` +
        `(${mine.reduce((s, r) => s + r.marks, 0)} marks, ${mine.reduce((s, r) => s + r.overText, 0)} labels over text)` +
        `${overlapping.length ? `: ${overlapping.join(', ')}` : ''}`
    )
  }
}
