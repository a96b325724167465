/**
 * `npm run bench -- android11`: what a user waits for on a slow Android 11 phone, through the built CLI
 * (`bin/run.js`, after `npm run build`) against `arc emulate` with the `android-11` profile at a phone's own times
 * (timeScale 1): every `uiautomator dump` waits for a second of idle (AOSP DumpCommand's waitForIdle(1000, 10000))
 * after its VM starts, and every `input` call starts a VM (1 s: the profile's timing.vmStartMs).
 *
 * Rows: one screen read (`arc screen-state`: the on-device helper where it serves, and `--helper off`: uiautomator
 * dump), one tap (`arc tap`), 500 characters typed into the demo's field
 * (`arc type append`) at the default pace and at typing_speed 3000 (the issue's case: 25 chunks of 20 characters, a
 * 3 s pause between chunks). Each row gives the wall time of one run and how the command ended (exit status and
 * error code). Figures depend on the host; the emulated costs are fixed, so a change in a row is arc's doing.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator} from '@arc-cli/emulator'

import {fmt} from './stats.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const FIELD = 'dev.arc.demo.groceries:id/new_item'

interface Run {
  ms: number
  status: number | null
  code?: string
}

/** Runs `bin/run.js ARGS` against the emulator, asynchronously (the emulator runs in this process). */
function arc(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const start = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], {
      cwd: ROOT,
      env: {...process.env, ...env},
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', (status) => {
      const code = /Error \[([A-Z_]+)\]/.exec(stderr)?.[1]
      resolve({ms: Number(process.hrtime.bigint() - start) / 1e6, status, ...(code ? {code} : {})})
    })
  })
}

export default async function bench(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    console.log('skipped: no build (run `npm run build` first; the figures are for the built bin/run.js)')
    return
  }
  const cache = mkdtempSync(path.join(os.tmpdir(), 'arc-bench-android11-'))
  const row = (name: string, run: Run) =>
    console.log(
      `${name.padEnd(44)} ${fmt(run.ms).padStart(10)}   exit ${run.status}${run.code ? ` (${run.code})` : ''}`
    )
  try {
    for (const [name, extra] of [
      ['type append, 500 characters (default pace)', []],
      ['type append, 500 characters, typing_speed 3000', ['--typing-speed', '3000']],
    ] as Array<[string, string[]]>) {
      // A fresh device per typing run, so each types into the empty field.
      const emu = await startEmulator({
        port: 0,
        devices: [],
        timeScale: 1,
        scenario: {devices: {phone: {snapshot: DEMO_DIR, profile: 'android-11'}}},
      })
      try {
        const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ANDROID_SERIAL: 'phone', ARC_CACHE_DIR: cache}
        if (extra.length === 0) {
          row('screen-state (one read)', await arc(['screen-state'], env))
          // The read through uiautomator dump alone, as before the on-device helper (issue 22) could serve it.
          row('screen-state --helper off (uiautomator dump)', await arc(['screen-state', '--helper', 'off'], env))
          row('tap', await arc(['tap', '540', '1200'], env))
        }
        row(name, await arc(['type', 'append', '--res-id', FIELD, 'x'.repeat(500), ...extra], env))
      } finally {
        await emu.close()
      }
    }
    console.log('(one run each; android-11 profile at timeScale 1: 1 s per VM start, 1 s idle wait per dump)')
  } finally {
    rmSync(cache, {recursive: true, force: true})
  }
}
