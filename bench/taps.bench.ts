/**
 * `npm run bench -- taps`: taps per second through one `arc batch` of 100 `tap` lines (the built bin/run.js, so run
 * `npm run build` first) against a loop of 100 `adb shell input tap` processes (the adb client, when `adb` is on
 * the PATH; skipped otherwise), both against the same `arc emulate` device, and the device commands the batch sent
 * (one `input tap` per line, plus one screen-size read for the batch).
 */
import {spawn, spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {ROOT} from './figure-blocks.js'

const TAPS = 100

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
    const script = Array.from({length: TAPS}, (_, i) => `tap ${10 + i} 20`).join('\n')
    await run(process.execPath, [bin, 'batch'], env, 'tap 1 1\n')
    const from = emu.commands.length
    let start = performance.now()
    await run(process.execPath, [bin, 'batch'], env, script)
    const batchMs = performance.now() - start
    const sent = emu.commands.slice(from).map((c) => c.argv.slice(0, 2).join(' '))
    const inputs = sent.filter((c) => c === 'input tap').length
    console.log(
      `one arc batch of ${TAPS} taps: ${(batchMs / 1000).toFixed(2)} s, ${((TAPS * 1000) / batchMs).toFixed(1)} taps/s; ` +
        `${sent.length} device commands (${inputs} input tap, ${sent.length - inputs} other: ${[...new Set(sent.filter((c) => c !== 'input tap'))].join(', ') || 'none'})`
    )
    const adb = spawnSync('adb', ['version'], {encoding: 'utf8'})
    if (adb.status !== 0) {
      console.log(`a loop of ${TAPS} \`adb shell input tap\`: skipped (no \`adb\` on the PATH)`)
      return
    }
    start = performance.now()
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
