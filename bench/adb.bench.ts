/**
 * `npm run bench adb`: host overhead of the ADB driver against `arc emulate` (in process, real adbkit, real TCP).
 *
 * - screen-state: wall time of `captureScreen()` + screen model + TSV, minus the time of the same device commands
 *   (CAPTURE_COMMANDS) sent in parallel through bare adbkit with no arc code around them (what the virtual device spends).
 * - tap: wall time of one `driver.tap()` (queue, quoting, connection with no-spawn guard, exit trailer) minus a
 *   bare adbkit `shell:input tap` round trip.
 */
import {buildScreenModel} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'

import {fmt, median, percentile, timeRuns} from './stats.js'
import {CAPTURE_COMMANDS, withBenchDevice} from './support/bench-device.js'

export default async function bench(): Promise<void> {
  await withBenchDevice(async ({driver, bare, bareCapture}) => {
    const runs = 30
    const screenState = await timeRuns(
      async () => formatScreenState(buildScreenModel(await driver.captureScreen())),
      runs
    )
    // The device side: the same commands (CAPTURE_COMMANDS), in parallel as the driver sends them, with no arc code around them.
    const deviceSide = await timeRuns(bareCapture, runs)
    const tap = await timeRuns(() => driver.tap({x: 10, y: 20}), runs)
    const bareTap = await timeRuns(() => bare('input tap 10 20'), runs)

    const row = (name: string, times: number[]) =>
      console.log(
        `${name.padEnd(44)} median ${fmt(median(times)).padStart(10)}   p90 ${fmt(percentile(times, 90)).padStart(10)}`
      )
    row('screen-state via ADB driver (total)', screenState)
    row(`  same ${CAPTURE_COMMANDS.length} device commands, bare adbkit`, deviceSide)
    console.log(
      `${'  => host overhead of screen-state'.padEnd(44)} median ${fmt(median(screenState) - median(deviceSide)).padStart(10)}`
    )
    row('tap via ADB driver (total)', tap)
    row('  bare adbkit `input tap`', bareTap)
    console.log(
      `${'  => per-action overhead of tap'.padEnd(44)} median ${fmt(median(tap) - median(bareTap)).padStart(10)}`
    )
    console.log(`(${runs} runs each after 5 warm-up runs; emulator programs run as real processes on this host)`)
  })
}
