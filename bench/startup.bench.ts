/**
 * `npm run bench startup`: whole-process CPU time (user + system, every thread) of the built CLI (`bin/run.js`,
 * after `npm run build`) for `arc --version`, `arc tap` (against `arc emulate`) and `arc screen-state --device
 * demo`, against `node -e "import('@oclif/core')"` — the floor any oclif CLI pays. Target: within 1.3x.
 * Then 100 taps against `arc emulate`: 100 `arc tap` processes against one `arc batch` of 100 lines (wall time).
 * Then the same commands with `arc server` running (docs/server.md): wall time, the client process's CPU and the
 * server's CPU per command, and 100 `arc tap` processes through it.
 */
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {median} from './stats.js'
import {startArcServer} from './support/arc-processes.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const PRELOAD = fileURLToPath(new URL('./support/cpu-report.cjs', import.meta.url))

/** CPU milliseconds of `node ARGS` in a fresh process, median of `runs` (one warm-up). */
function cpu(args: string[], env: NodeJS.ProcessEnv, runs: number): number {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-bench-cpu-'))
  const file = path.join(dir, 'cpu.txt')
  try {
    for (let i = 0; i <= runs; i++) {
      const r = spawnSync(process.execPath, ['--require', PRELOAD, ...args], {
        cwd: ROOT,
        env: {...process.env, ARC_SERVER: 'off', ...env, ARC_BENCH_CPU_FILE: file},
      })
      if (r.status !== 0 && !args.includes('--version'))
        throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`)
    }
    const values = readFileSync(file, 'utf8').trim().split('\n').map(Number).slice(1)
    return median(values)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

export default async function bench(): Promise<void> {
  const run = path.join(ROOT, 'bin', 'run.js')
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.log('skipped: no build (run `npm run build` first; the figures are for the built bin/run.js)')
    return
  }
  // The emulator runs in process: its work is not in the child's CPU time.
  // timeScale 0: these figures are arc's own overhead, not a phone's idle waits (android11.bench.ts has those).
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', snapshot: DEMO_DIR}], timeScale: 0})
  try {
    const runs = 10
    const adb = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
    // spawnSync blocks this process, and with it the in-process emulator: tap goes through an async spawn.
    const floor = cpu(['-e', "import('@oclif/core')"], {}, runs)
    const rows: Array<[string, number]> = [
      ['arc --version', cpu([run, '--version'], {}, runs)],
      ['arc screen-state --device demo', cpu([run, 'screen-state', '--device', 'demo'], {}, runs)],
      ['arc tap 10 20 (arc emulate)', await cpuAsync([run, 'tap', '10', '20'], adb, runs)],
    ]
    console.log(`| command | CPU ms (median of ${runs}) | ratio to import('@oclif/core') | target <= 1.3x |`)
    console.log('| --- | ---: | ---: | --- |')
    console.log(`| node -e "import('@oclif/core')" | ${floor.toFixed(0)} | 1.00 | |`)
    for (const [name, ms] of rows) {
      const ratio = ms / floor
      console.log(`| ${name} | ${ms.toFixed(0)} | ${ratio.toFixed(2)} | ${ratio <= 1.3 ? 'met' : 'missed'} |`)
    }
    const taps = 100
    let start = Date.now()
    for (let i = 0; i < taps; i++) await wall([run, 'tap', String(i), '20'], adb)
    const separate = Date.now() - start
    start = Date.now()
    await wall([run, 'batch'], adb, Array.from({length: taps}, (_, i) => `tap ${i} 20`).join('\n'))
    const batch = Date.now() - start
    console.log(
      `\n${taps} taps against arc emulate: ${taps} processes ${(separate / 1000).toFixed(1)} s, one arc batch ${(batch / 1000).toFixed(1)} s (${(separate / batch).toFixed(1)}x faster)`
    )
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-bench-server-'))
    const server = await startArcServer(dir)
    try {
      const served = {...server.env, ...adb}
      console.log('\nWith `arc server` running (docs/server.md), the same commands as processes handed to it:')
      for (const [name, args] of [
        ['arc screen-state --device demo', [run, 'screen-state', '--device', 'demo']],
        ['arc tap 10 20 (arc emulate)', [run, 'tap', '10', '20']],
      ] as Array<[string, string[]]>) {
        const walls: number[] = []
        const before = server.cpuMs()
        const clientCpu = await cpuAsync(args, served, runs, walls)
        const serverCpu = (server.cpuMs() - before) / (runs + 1)
        console.log(
          `- ${name}: ${median(walls).toFixed(0)} ms wall; its own process ${clientCpu.toFixed(0)} ms CPU, the server ${serverCpu.toFixed(0)} ms CPU per command (medians of ${runs}; the server's a mean)`
        )
      }
      start = Date.now()
      for (let i = 0; i < taps; i++) await wall([run, 'tap', String(i), '20'], served)
      const throughServer = Date.now() - start
      console.log(
        `- ${taps} \`arc tap\` processes: ${(throughServer / 1000).toFixed(1)} s (${(separate / throughServer).toFixed(1)}x faster than without the server)`
      )
    } finally {
      await server.stop()
      rmSync(dir, {recursive: true, force: true})
    }
  } finally {
    await emu.close()
  }
}

/** As `cpu`, without blocking this process (its emulator); each run's wall time is added to `walls` when given. */
async function cpuAsync(args: string[], env: NodeJS.ProcessEnv, runs: number, walls?: number[]): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-bench-cpu-'))
  const file = path.join(dir, 'cpu.txt')
  try {
    for (let i = 0; i <= runs; i++) {
      const started = process.hrtime.bigint()
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['--require', PRELOAD, ...args], {
          cwd: ROOT,
          env: {...process.env, ARC_SERVER: 'off', ...env, ARC_BENCH_CPU_FILE: file},
          stdio: 'ignore',
        })
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited ${code}`))
        )
      })
      if (i > 0) walls?.push(Number(process.hrtime.bigint() - started) / 1e6)
    }
    return median(readFileSync(file, 'utf8').trim().split('\n').map(Number).slice(1))
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

/** Runs `node ARGS` to the end (stdin from `input`), failing on a non-zero exit. */
function wall(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: {...process.env, ARC_SERVER: 'off', ...env},
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    child.stdin?.end(input)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited ${code}`))))
  })
}
