/**
 * A process of its own that counts V8's full garbage collections while it annotates (`annotate`) or scales
 * (`scale`) a screenshot N times, and prints the count (one-decode.test.ts beside it):
 * `node --conditions=arc-source --import tsx count-collections.ts annotate|scale N`. In the test's own process the
 * count also holds whatever the other tests left on the heap, and under load it varied by a few; here it is this
 * work's alone.
 */
import {constants, PerformanceObserver, type PerformanceEntry} from 'node:perf_hooks'

import {DEMO_DIR, SnapshotDriver, buildScreenModel} from '@arc-cli/core'

import {annotateScreenshot} from '../src/annotate-screenshot.js'
import {fitImage} from '../src/fit-image.js'
import {DEFAULTS} from '../src/style/annotate-config.js'
import {resolveStyle} from '../src/style/resolve-style.js'
import {solidPng} from './support.js'

const [what, times] = process.argv.slice(2)
const n = Number(times)
let work: () => Promise<unknown>
if (what === 'annotate') {
  const driver = await SnapshotDriver.open(DEMO_DIR)
  const model = buildScreenModel(await driver.captureScreen())
  const png = await driver.screenshot()
  const options = {...DEFAULTS, style: resolveStyle({}, undefined)}
  work = () => annotateScreenshot(model, png, options)
} else if (what === 'scale') {
  const png = await solidPng(1080, 2400, '#d02020')
  work = () => fitImage(png, {maxSize: 700, format: 'jpeg', quality: 80, source: 'the test'})
} else throw new Error(`count-collections.ts: annotate or scale, not ${String(what)}`)
// The measuring canvases, the font and the code, made once per process.
await work()
let full = 0
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const {detail} = entry as PerformanceEntry & {detail?: {kind?: number}}
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++
  }
})
observer.observe({entryTypes: ['gc']})
for (let i = 0; i < n; i++) await work()
await new Promise((resolve) => setImmediate(resolve))
observer.disconnect()
process.stdout.write(`${full}\n`)
