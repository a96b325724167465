/**
 * `npm run bench tokens`: what one look at the screen costs, arc against mobile-mcp, on the real screens of
 * ../shared/fixtures/real served by `arc emulate` (a child process: mobile-mcp's adb calls are synchronous).
 *
 * - Tokens (o200k, gpt-tokenizer's o200k_base): the raw XML, arc's default TSV, arc `detail: compact`, arc's
 *   unchanged-screen line, and mobile-mcp 1.0.4's element list (`mobile_list_elements_on_screen`, text format)
 *   made by its own Android code (`AndroidRobot.getElementsOnScreen` + `formatElements`) through the real `adb`
 *   client. The mobile-mcp column is skipped, with the reason, where `adb` is not installed.
 * - Host time per read: arc's ADB driver (capture + model + compact text) against mobile-mcp's, same device, the
 *   two reads alternating; and host CPU per read (the emulator with the device programs it ran, plus this process
 *   with its adb clients).
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {existsSync, readdirSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {buildScreenModel, type ScreenModel} from '@arc-cli/core'
import {formatCompact, formatScreenState} from '@arc-cli/plugin-screen-state'
import {encode} from 'gpt-tokenizer/encoding/o200k_base'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {rememberScreen, unchangedLine} from '../plugins/screen-state/src/screen-changes.js'
import {fmt, median, timeAlternating, timeRuns} from './stats.js'
import {peerRequire} from './support/peer.js'
import {treeCpuMs} from './support/process-cpu.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const FIXTURES = path.resolve(ROOT, '..', 'shared', 'fixtures', 'real')
/** The mobile-mcp release compared; installed on first use (bench/support/peer.ts), not a dependency of arc. */
const MOBILE_MCP_VERSION = '1.0.4'

interface MobileMcp {
  elements(serial: string): Promise<string>
}

function loadMobileMcp(port: number): MobileMcp | string {
  if (spawnSync('adb', ['version']).status !== 0) return 'adb is not installed (apt-get install -y adb)'
  const require = peerRequire('@mobilenext/mobile-mcp', MOBILE_MCP_VERSION)
  if (typeof require === 'string') return require
  const {AndroidRobot} = require('@mobilenext/mobile-mcp/lib/android.js') as {
    AndroidRobot: new (serial: string) => {getElementsOnScreen(): Promise<unknown[]>}
  }
  const {formatElements} = require('@mobilenext/mobile-mcp/lib/format-elements.js') as {
    formatElements(elements: unknown[], format: 'text' | 'json'): string
  }
  // mobile-mcp runs `adb -s SERIAL …`; the adb client reaches arc emulate through ADB_SERVER_SOCKET.
  delete process.env.ANDROID_HOME
  process.env.ADB_SERVER_SOCKET = `tcp:127.0.0.1:${port}`
  return {
    async elements(serial) {
      const elements = await new AndroidRobot(serial).getElementsOnScreen()
      return elements.length === 0 ? '' : formatElements(elements, 'text')
    },
  }
}

async function startEmulatorProcess(devices: string[]): Promise<{port: number; child: ChildProcess}> {
  const args = [
    '--conditions=arc-source',
    path.join(ROOT, 'bin', 'dev.js'),
    'emulate',
    '--port',
    '0',
    ...devices.flatMap((d) => ['--serial', d]),
  ]
  // Token counts only: the device's idle waits (1 s per dump at a phone's times) would only slow the run.
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, ARC_EMULATE_TIME_SCALE: '0'},
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const m = /listening on [\d.]+:(\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`arc emulate exited ${code}: ${out}`)))
  })
  return {port, child}
}

const tokens = (text: string) => (text === '' ? 0 : encode(text).length)

export default async function bench(): Promise<void> {
  if (!existsSync(FIXTURES)) {
    console.log(`skipped: ${FIXTURES} is absent`)
    return
  }
  const names = readdirSync(FIXTURES, {withFileTypes: true})
    .filter((d) => d.isDirectory() && !d.name.startsWith('variant-'))
    .map((d) => d.name)
    .sort()
  const {port, child} = await startEmulatorProcess(names.map((n, i) => `s${i}=${path.join(FIXTURES, n)}`))
  try {
    const mm = loadMobileMcp(port)
    if (typeof mm === 'string') console.log(`mobile-mcp column skipped: ${mm}`)
    console.log(
      `mobile-mcp measured: @mobilenext/mobile-mcp ${MOBILE_MCP_VERSION}'s own Android path (AndroidRobot.getElementsOnScreen: a uiautomator dump per look through the adb client), not the mobilecli resident helper its users run by default`
    )
    console.log('| screen | raw XML | arc default | arc compact | arc unchanged | mobile-mcp | compact / mobile-mcp |')
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    const totals = {raw: 0, full: 0, compact: 0, mm: 0}
    let worst = 0
    let over = 0
    let compared = 0
    const models: Array<{serial: string; model: ScreenModel}> = []
    for (const [i, name] of names.entries()) {
      const serial = `s${i}`
      const driver = await connectAdbDriver({serial, port, host: '127.0.0.1', env: {}})
      const capture = await driver.captureScreen()
      await driver.close()
      const model = buildScreenModel(capture)
      models.push({serial, model})
      const raw = tokens(capture.xml)
      const full = tokens(formatScreenState(model))
      const compact = tokens(formatCompact(model))
      const ack = tokens(unchangedLine(rememberScreen(model)))
      const listed = typeof mm === 'string' ? undefined : tokens(await mm.elements(serial))
      let ratio = '-'
      if (listed) {
        const r = compact / listed
        worst = Math.max(worst, r)
        compared++
        if (r > 0.8) over++
        ratio = `${r.toFixed(2)}${r > 0.8 ? ' (missed)' : ''}`
        totals.mm += listed
        totals.compact += compact
      }
      totals.raw += raw
      totals.full += full
      console.log(
        `| ${name} | ${raw} | ${full} | ${compact} | ${ack} | ${listed === undefined ? 'skipped' : listed === 0 ? '0 (lists nothing)' : listed} | ${ratio} |`
      )
    }
    const allCompact = models.reduce((n, {model}) => n + tokens(formatCompact(model)), 0)
    console.log(
      `\nall ${names.length} screens: default ${(totals.full / totals.raw).toFixed(2)}x raw XML, compact ${(allCompact / totals.raw).toFixed(2)}x raw XML`
    )
    if (compared > 0) {
      console.log(
        `where mobile-mcp lists elements (${compared} screens): compact/mobile-mcp worst ${worst.toFixed(2)}, total ${(totals.compact / totals.mm).toFixed(2)}; target <= 0.8 on every screen: ${over === 0 ? 'met' : `missed on ${over}`}`
      )
    }

    // Host time per read on three screens of different sizes: arc (capture + model + compact) vs mobile-mcp.
    const sample = ['music-app-dsp-switches', 'xmlonly-androidtv-philo-top-269', 'maps-dialog-amp-escape']
      .map((n) => names.indexOf(n))
      .filter((i) => i >= 0)
    const runs = 15
    const warmup = 3
    // Host CPU per read, in two shares: the client (this process, with the adb clients it ran for mobile-mcp:
    // reading, parsing, formatting) and the virtual device (the emulator process with the device shells and
    // programs it ran: what a phone would spend on itself). CPU is steadier than wall time on a loaded machine.
    const cpuOf = async (work: () => Promise<unknown>) => {
      const before = [treeCpuMs(child.pid as number), treeCpuMs('self')]
      const times = await timeRuns(work, runs, warmup)
      const after = [treeCpuMs(child.pid as number), treeCpuMs('self')]
      const share = (k: 0 | 1) =>
        before[k] === undefined || after[k] === undefined
          ? undefined
          : ((after[k] as number) - (before[k] as number)) / (runs + warmup)
      return {times, device: share(0), client: share(1)}
    }
    const cpuLines: string[] = []
    const cpuText = (r: {device?: number; client?: number}) =>
      `${fmt((r.device as number) + (r.client as number))} (client ${fmt(r.client as number)} + device ${fmt(r.device as number)})`
    for (const i of sample) {
      const serial = `s${i}`
      const driver = await connectAdbDriver({serial, port, host: '127.0.0.1', env: {}})
      const arcRead = async () => formatCompact(buildScreenModel(await driver.captureScreen()))
      try {
        if (typeof mm === 'string') {
          console.log(`${names[i]}: arc ${fmt(median(await timeRuns(arcRead, runs, warmup)))}; mobile-mcp skipped`)
          continue
        }
        const theirRead = () => mm.elements(serial)
        // Wall time with the two reads alternating; CPU (which needs each tool's reads in one stretch) after.
        const [ours, theirs] = (await timeAlternating([arcRead, theirRead], runs, warmup)) as [number[], number[]]
        console.log(
          `${names[i]}: arc ${fmt(median(ours))}, mobile-mcp ${fmt(median(theirs))} (median of ${runs}, alternating, host time per read)`
        )
        const arc = await cpuOf(arcRead)
        const their = await cpuOf(theirRead)
        if (
          arc.device !== undefined &&
          arc.client !== undefined &&
          their.device !== undefined &&
          their.client !== undefined
        ) {
          cpuLines.push(
            `${names[i]}: arc ${cpuText(arc)}, mobile-mcp ${cpuText(their)} (mean of ${runs + warmup}, host CPU ms per read)`
          )
        }
      } finally {
        await driver.close()
      }
    }
    for (const line of cpuLines) console.log(line)
  } finally {
    child.kill('SIGTERM')
  }
}
