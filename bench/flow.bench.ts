/**
 * `npm run bench -- flow`: a 20-step flow's wall time through one `arc test` process against the same 20 steps as
 * 20 separate `arc` processes run one after another (a shell script's way), both through the built bin/run.js (run
 * `npm run build` first) against the demo app of an in-process `arc emulate` (time scale 0: the device answers at
 * once, so what is measured is arc's own cost per step, process start-ups included). Each run is the whole of its
 * processes from spawn to exit; the two forms alternate, and the flow leaves the app as it found it.
 */
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {flowWord} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {ROOT} from './figure-blocks.js'
import {median, timeAlternating} from './stats.js'

const FIELD = 'dev.arc.demo.groceries:id/new_item'

/** The steps: add a row, find it, open and close its delete dialog, delete it, scroll the list and back, read. */
export const STEPS: string[][] = [
  ['type', 'append', '--res-id', FIELD, '--exact-match', 'Bench item'],
  ['click', '--text', 'ADD', '--exact-match'],
  ['assert', 'visible', '--text', 'Bench item', '--exact-match'],
  ['find', 'text', 'Bench item', '--exact-match'],
  ['click', '--desc', 'Delete Bench item', '--exact-match'],
  ['assert', 'visible', '--text', 'Delete Bench item?', '--exact-match'],
  ['press', 'back'],
  ['assert', 'gone', '--text', 'Delete Bench item?', '--exact-match'],
  ['click', '--desc', 'Delete Bench item', '--exact-match'],
  ['click', '--text', 'Delete', '--exact-match'],
  ['assert', 'gone', '--text', 'Bench item', '--exact-match'],
  ['scroll-to', '--text', 'Coffee beans', '--exact-match', '--max-scrolls', '5'],
  ['scroll', 'up'],
  ['tap', '540', '1200'],
  ['screen-state', '--detail', 'compact'],
  ['find', 'text', 'Lemons', '--exact-match'],
  ['shell', '--', 'getprop', 'ro.serialno'],
  ['device', 'info'],
  ['screen-state'],
  ['find', 'text', 'ADD', '--exact-match'],
]

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], {
      cwd: ROOT,
      env: {...process.env, ...env},
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`arc ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`))
    )
  })
}

export default async function bench(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.log('skipped: no build (run `npm run build` first; the figures are for the built bin/run.js)')
    return
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'arc-flow-bench-'))
  const emu = await startEmulator({port: 0, devices: [{serial: 'bench', app: 'demo'}], timeScale: 0})
  try {
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_CACHE_DIR: path.join(dir, 'cache')}
    const flow = path.join(dir, 'bench.flow')
    await writeFile(flow, STEPS.map((words) => words.map(flowWord).join(' ')).join('\n') + '\n')
    const oneProcess = () => run(['test', flow, '--device', 'bench'], env)
    const processes = async () => {
      for (const step of STEPS) await run(step, {...env, ANDROID_SERIAL: 'bench'})
    }
    const runs = 5
    const [test, separate] = await timeAlternating([oneProcess, processes], runs, 1)
    const a = median(test!)
    const b = median(separate!)
    console.log(
      `${STEPS.length}-step flow against arc emulate's demo app (time scale 0), median of ${runs} alternating runs: ` +
        `one arc test ${(a / 1000).toFixed(2)} s (${(a / STEPS.length).toFixed(0)} ms a step); ` +
        `${STEPS.length} separate arc processes ${(b / 1000).toFixed(2)} s (${(b / STEPS.length).toFixed(0)} ms a step): ` +
        `arc test ${(b / a).toFixed(1)}x faster`
    )
  } finally {
    await emu.close()
    await rm(dir, {recursive: true, force: true})
  }
}
