import {SnapshotDriver, buildScreenModel} from '@arc-cli/core'
import {annotateScreenshot, DEFAULTS, BUILTIN_PRESETS} from './src/index.js'
const d = await SnapshotDriver.open('/work/shared/fixtures/real/bili-home-feed')
const model = buildScreenModel(await d.captureScreen()); const png = await d.screenshot()
const opts = {...DEFAULTS, style: {name: 'default', style: BUILTIN_PRESETS.default!}}
for (let i = 0; i < 5; i++) await annotateScreenshot(model, png, opts)
const t: number[] = []
for (let i = 0; i < 40; i++) { const s = performance.now(); await annotateScreenshot(model, png, opts); t.push(performance.now() - s) }
t.sort((a,b)=>a-b); console.log('annotate median', t[20]!.toFixed(1), 'min', t[0]!.toFixed(1))
