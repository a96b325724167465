/**
 * `npm run bench helper`: one look at the screen (`captureScreen()` + the screen model) through arc's on-device
 * helper against the uiautomator dump path, on `arc emulate` run as its own process (so the CPU this process spends
 * is arc's alone, the host's share of a look), with the emulated waits off (ARC_EMULATE_TIME_SCALE=0: uiautomator's
 * idle wait and the VM starts a phone would add are not arc's cost; docs/devices.md has the phone's).
 *
 * Figures: wall time per look and per screenshot (median, p90), host CPU per look (and per screenshot: screencap -p
 * against the helper's full PNG and its 1024-pixel JPEG, with the bytes each sends) (this process's user + system
 * time over the runs; the JPEG's scaling and encoding run in the emulator's process, as on a phone they run there),
 * and the bytes each look moves for the hierarchy: the helper's request and response frames against what
 * `uiautomator dump --windows /dev/tty` prints (both also read one `dumpsys window -a`, counted apart).
 */
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {buildScreenModel} from '@arc-cli/core'
import adbkit from '@devicefarmer/adbkit'

import {
  closeHelperSessions,
  connectAdbDriver,
  encodeRequest,
  helperSession,
  type AdbDriver,
} from '@arc-cli/core/testing'
import {fmt, median, percentile, timeRuns} from './stats.js'

type AdbClass = typeof adbkit.Adb
const Adb: AdbClass = (adbkit as {Adb?: AdbClass}).Adb ?? (adbkit as unknown as AdbClass)
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** A phone's real screen (photos, text), where a JPEG's size differs from a PNG's as on a phone; the demo is flat. */
const REAL_SCREEN = path.resolve(ROOT, '../shared/fixtures/real/bili-home-feed')

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function untilListening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`arc emulate did not listen on ${port}`)
}

export default async function bench(): Promise<void> {
  const port = await freePort()
  const emulator = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin/run.js'),
      'emulate',
      '--port',
      String(port),
      '--serial',
      'bench=demo',
      ...(existsSync(REAL_SCREEN) ? ['--serial', `real=${REAL_SCREEN}`] : []),
    ],
    {
      env: {...process.env, ARC_EMULATE_TIME_SCALE: '0'},
      stdio: 'ignore',
    }
  )
  const drivers: AdbDriver[] = []
  try {
    await untilListening(port)
    const open = async (helper: 'off' | 'auto', serial = 'bench') => {
      const driver = (await connectAdbDriver({host: '127.0.0.1', port, env: {}, serial, helper})) as AdbDriver
      drivers.push(driver)
      return driver
    }
    const viaDump = await open('off')
    const viaHelper = await open('auto')
    const look = (driver: AdbDriver) => async () => buildScreenModel(await driver.captureScreen())
    const runs = 40
    const warm = 5
    const cpu = {dump: 0, helper: 0}
    const timed = (key: 'dump' | 'helper', driver: AdbDriver) => async () => {
      const before = process.cpuUsage()
      await look(driver)()
      const used = process.cpuUsage(before)
      cpu[key] += (used.user + used.system) / 1000
    }
    // The dump path first, then the helper's (it lets go of UiAutomation after each read, so uiautomator could run
    // between; the two are still not interleaved, so neither waits on the other's connection).
    const dumpTimes = await timeRuns(timed('dump', viaDump), runs, warm)
    const device = Adb.createClient({host: '127.0.0.1', port, bin: '/bin/false'}).getDevice('bench')
    const dumpBytes = (await Adb.util.readAll(await device.shell('uiautomator dump --windows /dev/tty'))).length
    // The helper's start (a push on first use, then app_process) is paid once per process: once here, before its runs.
    const started = performance.now()
    await look(viaHelper)()
    const startMs = performance.now() - started
    const helperTimes = await timeRuns(timed('helper', viaHelper), runs, warm)
    const perLook = (ms: number) => ms / (runs + warm)

    // A screenshot: screencap -p against the helper's UiAutomation.takeScreenshot PNG (the same image here).
    const shotCpu = {dump: 0, helper: 0, small: 0}
    // What `screenshot --max-size 1024 -o x.jpg` and MCP with format jpeg ask: a 1024-pixel JPEG at the default
    // quality, scaled and encoded where the screen is (arc emulate's process here, the phone on a phone).
    const SMALL = {maxSize: 1024, format: 'jpeg', quality: 90} as const
    const shot = (key: 'dump' | 'helper' | 'small', driver: AdbDriver) => async () => {
      const before = process.cpuUsage()
      await driver.screenshot(key === 'small' ? SMALL : undefined)
      const used = process.cpuUsage(before)
      shotCpu[key] += (used.user + used.system) / 1000
    }
    const screencapTimes = await timeRuns(shot('dump', viaDump), runs, warm)
    const helperShotTimes = await timeRuns(shot('helper', viaHelper), runs, warm)
    const smallShotTimes = await timeRuns(shot('small', viaHelper), runs, warm)
    const fullPngBytes = (await viaHelper.screenshot()).length
    const smallJpegBytes = (await viaHelper.screenshot(SMALL)).length

    // Bytes of the hierarchy per look: the helper's frames against uiautomator's printout.
    const session = await helperSession(viaHelper.shell)
    const request = encodeRequest(1, ['dump'])
    const response = 9 + (await session.request(['dump'], 10_000)).length
    const windowBytes = (await Adb.util.readAll(await device.shell('dumpsys window -a'))).length

    const row = (name: string, times: number[], cpuMs: number) =>
      console.log(
        `${name.padEnd(36)} wall median ${fmt(median(times)).padStart(9)}  p90 ${fmt(percentile(times, 90)).padStart(9)}   host CPU ${fmt(perLook(cpuMs)).padStart(9)} per call`
      )
    row('look via uiautomator dump', dumpTimes, cpu.dump)
    row('look via the on-device helper', helperTimes, cpu.helper)
    row('screenshot via screencap -p', screencapTimes, shotCpu.dump)
    row('screenshot via the on-device helper', helperShotTimes, shotCpu.helper)
    row('1024 px JPEG q90 via the helper', smallShotTimes, shotCpu.small)
    console.log(
      `screenshot bytes over ADB (demo screen): full-size PNG ${fullPngBytes} B; 1024 px JPEG q90 from the helper ${smallJpegBytes} B`
    )
    if (existsSync(REAL_SCREEN)) {
      // The same two requests on a real phone's 1080x2400 screen (bili-home-feed): the bytes a phone would send.
      const real = await open('auto', 'real')
      const realFull = await timeRuns(() => real.screenshot(), 10, 2)
      const realSmall = await timeRuns(() => real.screenshot(SMALL), 10, 2)
      const wall = (name: string, times: number[]) =>
        console.log(
          `${name.padEnd(36)} wall median ${fmt(median(times)).padStart(9)}  p90 ${fmt(percentile(times, 90)).padStart(9)}   (10 runs after 2 warm-up)`
        )
      wall('real screen: full PNG, helper', realFull)
      wall('real screen: 1024 JPEG q90, helper', realSmall)
      console.log(
        `screenshot bytes over ADB (bili-home-feed): full-size PNG ${(await real.screenshot()).length} B; 1024 px JPEG q90 from the helper ${(await real.screenshot(SMALL)).length} B`
      )
    } else console.log('(../shared/fixtures/real absent: no real-screen rows)')
    console.log(`helper start (push if needed + app_process + hello), once per process: ${fmt(startMs)}`)
    console.log(
      `hierarchy bytes per look: helper ${request.length} B request + ${response} B response; uiautomator dump --windows /dev/tty ${dumpBytes} B`
    )
    console.log(`both also read dumpsys window -a: ${windowBytes} B per look`)
    console.log(
      `(${runs} looks each after ${warm} warm-up looks, the dump path first; arc emulate in its own process, emulated waits off)`
    )
  } finally {
    for (const driver of drivers) await driver.close()
    await closeHelperSessions()
    emulator.kill('SIGINT')
  }
}
