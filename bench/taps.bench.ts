/**
 * `npm run bench -- taps`: taps per second through one `arc batch` of 100 `tap` lines (the built bin/run.js, so run
 * `npm run build` first) against a loop of 100 `adb shell input tap` processes (the adb client, when `adb` is on
 * the PATH; skipped otherwise), both against the same `arc emulate` device. The batch runs as a user runs it (the
 * helper mode `auto`): a batch is a resident host, so its taps go through arc's on-device helper, started once for
 * the batch (its app_process start is inside the time), each tap one framed request; the lines say which backend
 * served the taps, counted on the device (helper `tap` requests, `input tap` programs), and every device command the
 * batch sent. The same batch with ARC_HELPER=off (each tap one shell command: `dumpsys power` and `input tap`) is
 * printed beside it, and arc's own host CPU per line (the batch process's CPU for 100 taps less that for 1, per line).
 */
import {spawn, spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {ROOT} from './figure-blocks.js'
import {median} from './stats.js'

const TAPS = 100
const PRELOAD = path.join(ROOT, 'bench', 'support', 'cpu-report.cjs')

function run(command: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {cwd: ROOT, env: {...process.env, ...env}, stdio: ['pipe', 'ignore', 'pipe']})
    let stderr = ''
    child.stderr?.on('data', (d) => (stderr += d))
    child.stdin?.end(input)
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`))
    )
  })
}

export default async function bench(): Promise<void> {
  const bin = path.join(ROOT, 'bin', 'run.js')
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.log('skipped: no build (run `npm run build` first; the figures are for the built bin/run.js)')
    return
  }
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', snapshot: DEMO_DIR}]})
  try {
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ANDROID_SERIAL: 'bench'}
    const device = emu.device('bench')
    const script = Array.from({length: TAPS}, (_, i) => `tap ${10 + i} 20`).join('\n')
    // Puts the helper's dex on the device once, as any earlier arc run there would have.
    await run(process.execPath, [bin, 'batch', '--quiet'], env, 'tap 1 1\n')
    const batch = async (label: string, mode: string): Promise<number> => {
      const from = emu.commands.length
      const asked = device.helperRequests.length
      const start = performance.now()
      await run(process.execPath, [bin, 'batch', '--quiet'], {...env, ARC_HELPER: mode}, script)
      const ms = performance.now() - start
      const sent = emu.commands.slice(from).map((c) => c.argv.slice(0, 2).join(' '))
      const helperTaps = device.helperRequests.slice(asked).filter((r) => r[0] === 'tap').length
      const inputs = sent.filter((c) => c === 'input tap').length
      const servedBy =
        helperTaps === TAPS && inputs === 0
          ? `the on-device helper (${helperTaps} tap requests)`
          : inputs === TAPS && helperTaps === 0
            ? `ADB (${inputs} input tap)`
            : `mixed: ${helperTaps} helper tap requests, ${inputs} input tap`
      const counts = new Map<string, number>()
      for (const c of sent) counts.set(c, (counts.get(c) ?? 0) + 1)
      console.log(
        `one arc batch of ${TAPS} taps (${label}): ${(ms / 1000).toFixed(2)} s, ${((TAPS * 1000) / ms).toFixed(1)} taps/s; ` +
          `served by ${servedBy}; ${sent.length} device commands (${[...counts].map(([c, n]) => `${n} ${c}`).join(', ') || 'none'})`
      )
      return ms
    }
    const batchMs = await batch('helper auto, as a user runs it', 'auto')
    await batch('ARC_HELPER=off', 'off')
    // arc's own host work per line: the batch process's CPU (user + system, cpu-report.cjs) for 100 taps less that
    // for 1 tap (start-up, the helper's start), over the 99 lines between; medians of 3 runs of each, alternating.
    const cpuFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'arc-bench-taps-')), 'cpu')
    const cpuMs = async (lines: string): Promise<number> => {
      await writeFile(cpuFile, '')
      await run(
        process.execPath,
        ['--require', PRELOAD, bin, 'batch', '--quiet'],
        {...env, ARC_BENCH_CPU_FILE: cpuFile},
        lines
      )
      return Number((await readFile(cpuFile, 'utf8')).trim())
    }
    const many: number[] = []
    const one: number[] = []
    for (let i = 0; i < 3; i++) {
      many.push(await cpuMs(script))
      one.push(await cpuMs('tap 1 1\n'))
    }
    await rm(path.dirname(cpuFile), {recursive: true, force: true})
    console.log(
      `arc's host CPU per tap line in a batch (helper auto): ${((median(many) - median(one)) / (TAPS - 1)).toFixed(2)} ms ` +
        `(process CPU ${median(many).toFixed(0)} ms for ${TAPS} taps, ${median(one).toFixed(0)} ms for 1; medians of 3)`
    )
    const adb = spawnSync('adb', ['version'], {encoding: 'utf8'})
    if (adb.status !== 0) {
      console.log(`a loop of ${TAPS} \`adb shell input tap\`: skipped (no \`adb\` on the PATH)`)
      return
    }
    const start = performance.now()
    for (let i = 0; i < TAPS; i++)
      await run(
        'adb',
        ['-H', '127.0.0.1', '-P', String(emu.port), '-s', 'bench', 'shell', 'input', 'tap', String(10 + i), '20'],
        {}
      )
    const adbMs = performance.now() - start
    console.log(
      `a loop of ${TAPS} \`adb shell input tap\` processes: ${(adbMs / 1000).toFixed(2)} s, ${((TAPS * 1000) / adbMs).toFixed(1)} taps/s ` +
        `(arc batch ${(adbMs / batchMs).toFixed(2)}x the adb loop's rate; goal > 1)`
    )
  } finally {
    await emu.close()
  }
}
