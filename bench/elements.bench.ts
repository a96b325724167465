/**
 * `npm run bench elements`: host cost of the element tools against `arc emulate` (in process, real adbkit).
 *
 * - click_element: wall time of the handler (id check, screen read, stale check, visible-part centre, tap)
 *   minus the same device commands sent through bare adbkit (the reads of a capture in parallel, CAPTURE_COMMANDS,
 *   then `input tap`): what arc adds over the commands it sends.
 * - wait_for_idle poll: the host work of one poll on the demo screen (parse, screen model, 256-slot fingerprint
 *   of an already-read dump, plus the similarity), without the device read and the 500 ms sleep.
 */
import {buildScreenModel, MemoryDeviceState, rememberScreen} from '@arc-cli/core'

import {clickElement} from '../src/tools/click-element.js'
import {fingerprint, similarity} from '../src/tools/wait-idle.js'
import {fmt, median, percentile, timeRuns} from './stats.js'
import {CAPTURE_COMMANDS, withBenchDevice} from './support/bench-device.js'

export default async function bench(): Promise<void> {
  await withBenchDevice(async ({driver, bare, bareCapture}) => {
    const state = new MemoryDeviceState()
    const capture = await driver.captureScreen()
    const model = buildScreenModel(capture)
    await rememberScreen(state, model)
    // The ADD button: a tap on it switches nothing in this scenario, so every run sees the same screen.
    const add = model.elements.find((e) => e.text === 'ADD')!.id
    const ctx = {driver, state, config: {}, json: false, cwd: process.cwd(), warn() {}, progress() {}} as never

    const runs = 30
    const click = await timeRuns(
      () => clickElement.handler(ctx, clickElement.input.parse({element_id: add}) as never),
      runs
    )
    const deviceSide = await timeRuns(async () => {
      await bareCapture()
      await bare('input tap 919 294')
    }, runs)
    const previous = fingerprint(model.hierarchy.windows)
    const poll = await timeRuns(
      () => similarity(previous, fingerprint(buildScreenModel({...capture, hierarchy: undefined}).hierarchy.windows)),
      200,
      20
    )

    const row = (name: string, times: number[]) =>
      console.log(
        `${name.padEnd(48)} median ${fmt(median(times)).padStart(10)}   p90 ${fmt(percentile(times, 90)).padStart(10)}`
      )
    row('click_element via ADB driver (total)', click)
    row(`  same ${CAPTURE_COMMANDS.length + 1} device commands, bare adbkit`, deviceSide)
    console.log(
      `${'  => host overhead of click_element'.padEnd(48)} median ${fmt(median(click) - median(deviceSide)).padStart(10)}`
    )
    row(`wait_for_idle poll, host work (${model.hierarchy.nodeCount} nodes)`, poll)
    console.log(
      `(${runs} click runs, 200 poll runs, after warm-up; emulator programs run as real processes on this host)`
    )
  })
}
