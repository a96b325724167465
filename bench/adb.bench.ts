/**
 * `npm run bench adb`: host overhead of the ADB driver against `arc emulate` (in process, real adbkit, real TCP).
 *
 * - screen-state: wall time of `captureScreen()` + screen model + TSV, minus the time of the same five device
 *   commands sent in parallel through bare adbkit with no arc code around them (what the virtual device spends).
 * - tap: wall time of one `driver.tap()` (queue, quoting, connection with no-spawn guard, exit trailer) minus a
 *   bare adbkit `shell:input tap` round trip.
 */
import {DEMO_DIR, buildScreenModel} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'
import {formatScreenState} from '@arc-cli/plugin-screen-state'
import adbkit from '@devicefarmer/adbkit'

import {connectAdbDriver} from '../packages/core/src/driver/adb/connect.js'
import {fmt, median, percentile, timeRuns} from './stats.js'

type AdbClass = typeof adbkit.Adb
const Adb: AdbClass = (adbkit as {Adb?: AdbClass}).Adb ?? (adbkit as unknown as AdbClass)

export default async function bench(): Promise<void> {
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', snapshot: DEMO_DIR}]})
  try {
    const driver = await connectAdbDriver({host: '127.0.0.1', port: emu.port, env: {}})
    const client = Adb.createClient({host: '127.0.0.1', port: emu.port, bin: '/bin/false'})
    const device = client.getDevice('bench')
    const bare = async (command: string) => Adb.util.readAll(await device.shell(command))

    const runs = 30
    const screenState = await timeRuns(async () => formatScreenState(buildScreenModel(await driver.captureScreen())), runs)
    // The device side: the same five commands, in parallel as the driver sends them, with no arc code around them.
    const deviceSide = await timeRuns(
      () =>
        Promise.all([
          bare('uiautomator dump --windows /dev/tty'),
          bare('wm size'),
          bare('wm density'),
          bare('dumpsys window displays'),
          bare('dumpsys window windows'),
        ]),
      runs,
    )
    const tap = await timeRuns(() => driver.tap({x: 10, y: 20}), runs)
    const bareTap = await timeRuns(() => bare('input tap 10 20'), runs)

    const row = (name: string, times: number[]) =>
      console.log(`${name.padEnd(44)} median ${fmt(median(times)).padStart(10)}   p90 ${fmt(percentile(times, 90)).padStart(10)}`)
    row('screen-state via ADB driver (total)', screenState)
    row('  same 5 device commands, bare adbkit', deviceSide)
    console.log(`${'  => host overhead of screen-state'.padEnd(44)} median ${fmt(median(screenState) - median(deviceSide)).padStart(10)}`)
    row('tap via ADB driver (total)', tap)
    row('  bare adbkit `input tap`', bareTap)
    console.log(`${'  => per-action overhead of tap'.padEnd(44)} median ${fmt(median(tap) - median(bareTap)).padStart(10)}`)
    console.log(`(${runs} runs each after 5 warm-up runs; emulator programs run as real processes on this host)`)
    await driver.close()
  } finally {
    await emu.close()
  }
}
