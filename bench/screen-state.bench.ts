/**
 * screen-state in-process: parse + model + ids + TSV for each real fixture, and how much smaller the TSV is than
 * the XML it comes from. Run: npm run bench screen-state
 */
import {fileURLToPath} from 'node:url'

import {buildScreenModel, SnapshotDriver, type ScreenCapture} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'

import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {fmt, median, timeRuns} from './stats.js'

export default async function bench(): Promise<void> {
  const sources: Array<[string, string]> = [['demo', fileURLToPath(new URL('../packages/core/demo/', import.meta.url))]]
  if (fixturesAvailable) {
    for (const name of fixtureNames()) sources.push([name, fixturePath(name)])
  } else console.log('(../shared/fixtures/real absent: demo only)')
  const medians: number[] = []
  let xmlBytes = 0
  let tsvBytes = 0
  let worst: [string, number] = ['', 0]
  for (const [name, dir] of sources) {
    const capture: ScreenCapture | undefined = await (
      await SnapshotDriver.open(dir)
    )
      .captureScreen()
      .catch(() => undefined)
    if (!capture) continue
    const raw = {...capture, hierarchy: undefined}
    const times = await timeRuns(() => formatScreenState(buildScreenModel(raw)), 30, 5)
    const m = median(times)
    medians.push(m)
    if (m > worst[1]) worst = [name, m]
    xmlBytes += Buffer.byteLength(capture.xml)
    tsvBytes += Buffer.byteLength(formatScreenState(buildScreenModel(raw)))
  }
  console.log(`screens: ${medians.length}`)
  console.log(
    `parse+ids+TSV per screen: median of medians ${fmt(median(medians))}, slowest ${worst[0]} ${fmt(worst[1])}`
  )
  console.log(
    `size: XML ${xmlBytes} bytes -> TSV ${tsvBytes} bytes (${((tsvBytes / xmlBytes) * 100).toFixed(1)}% of the XML)`
  )
}
