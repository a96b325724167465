/**
 * `npm run phone-check [-- --device SERIAL]`: a check anyone with a phone can run once (docs/devices.md, "Checking a
 * phone"). It drives the phone through the built arc (bin/run.js) as a user would, exercises each path issue 21
 * found risky on real phones, times a screen read, a tap and typing, and prints a Markdown report to paste into an
 * issue. It runs against `arc emulate` too (ADB_SERVER_SOCKET), which is how its test runs it.
 *
 * What it does to the phone, all of it harmless: screen reads and screenshots, `arc doctor` (one press of left
 * Shift), one tap at the top-left corner pixel (the status bar, which a tap does not open), `input text` of 50
 * letters (typed into the focused field if there is one: run it on a screen without one), and reads of
 * `pm list users` and `dumpsys power`; unless ARC_HELPER=off, arc's on-device helper is put in /data/local/tmp (by
 * `arc doctor`, kept for later runs) and reads the screen through UiAutomation. Exit status: 0 when the report was made (whatever it found), 1 when arc could
 * not reach the device at all.
 */
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = path.join(ROOT, 'bin', 'run.js')

interface Run {
  code: number
  stdout: string
  stderr: string
  ms: number
}

function arc(args: string[], device: string | undefined): Promise<Run> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    // The device flag goes before a `--` (after it every word is the device command's, `arc shell -- …`).
    const end = args.indexOf('--') === -1 ? args.length : args.indexOf('--')
    const words = [...args.slice(0, end), ...(device ? ['--device', device] : []), ...args.slice(end)]
    const child = spawn(process.execPath, [BIN, ...words], {
      cwd: ROOT,
      env: {...process.env, NO_COLOR: '1'},
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({code: code ?? -1, stdout, stderr, ms: Math.round(performance.now() - started)})
    )
  })
}

const firstLine = (text: string) => text.trim().split('\n')[0]?.slice(0, 300) ?? ''
const errorOf = (run: Run) =>
  run.code === 0 ? 'ok' : `exit ${run.code}: ${firstLine(run.stderr) || firstLine(run.stdout)}`

interface Doctor {
  serial: string
  android: {release: string | null; sdk: number | null; model: string | null; build_type: string | null}
  capabilities: Array<{id: string; status: string; detail: string; fallback: string; backend: string}>
  costs: {read_ms: number | null; input_ms: number | null}
}

function parseArgs(argv: string[]): {device?: string} {
  const out: {device?: string} = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--device' || a === '-d') out.device = argv[++i]
    else if (a.startsWith('--device=')) out.device = a.slice('--device='.length)
    else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: npm run phone-check [-- --device SERIAL]\nPrints a Markdown report of what this phone does on the paths arc found risky (issue 21).\n'
      )
      process.exit(0)
    } else {
      process.stderr.write(`phone-check: unknown argument ${JSON.stringify(a)} (allowed: --device SERIAL)\n`)
      process.exit(2)
    }
  }
  return out
}

/** What a result's `backend` says served a capability (arc's helper or ADB), in how many ms. */
type Served = Record<string, {by: string; ms: number; fallback?: string}>

function servedNote(backend: Served | undefined, capability: string): string {
  const use = backend?.[capability]
  if (!use) return ''
  return `; served by ${use.by === 'helper' ? 'the on-device helper' : 'ADB'} in ${use.ms} ms${use.fallback ? ` (helper: ${use.fallback.slice(0, 120)})` : ''}`
}

async function main(): Promise<number> {
  const {device} = parseArgs(process.argv.slice(2))
  if (!existsSync(path.join(ROOT, 'dist', 'commands'))) {
    process.stderr.write('phone-check: arc is not built here; run `npm run build` first\n')
    return 1
  }
  const lines: string[] = []
  const row = (what: string, result: string) =>
    lines.push(`| ${what} | ${result.replaceAll('|', '\\|').replaceAll('\n', ' ')} |`)

  const doctorRun = await arc(['doctor', '--json'], device)
  if (doctorRun.code !== 0) {
    process.stderr.write(
      `phone-check: arc doctor failed (${errorOf(doctorRun)}); is the phone attached and authorized (\`arc devices\`)?\n`
    )
    return 1
  }
  const doctor = JSON.parse(doctorRun.stdout) as Doctor
  const a = doctor.android
  const cap = (id: string) => doctor.capabilities.find((c) => c.id === id)
  const serial = device ?? doctor.serial

  lines.push(`## arc phone check: ${a.model ?? 'unknown model'}, Android ${a.release ?? '?'} (API ${a.sdk ?? '?'})`, '')
  lines.push(`Serial \`${doctor.serial}\`, ${a.build_type ?? '?'} build, ${new Date().toISOString()}.`, '')
  lines.push('| check | result |', '|---|---|')

  // Input really accepted (MIUI/HyperOS refuse it until "USB debugging (Security settings)").
  const input = cap('input')
  row(
    'input accepted (`arc doctor` presses left Shift)',
    input ? `${input.status}: ${input.detail}${input.fallback ? `; ${input.fallback}` : ''}` : 'not reported'
  )
  row(
    'per-call costs (`arc doctor`)',
    `screen read ${doctor.costs.read_ms ?? 'failed'} ms, one input call ${doctor.costs.input_ms ?? 'failed'} ms`
  )
  row('backends', doctor.capabilities.map((c) => `${c.id}: ${c.backend}`).join('; '))

  // A screen read, timed; its warnings (a display that is off) and whether every window came.
  const read = await arc(['screen-state', '--json'], device)
  let readNote = errorOf(read)
  if (read.code === 0) {
    const state = JSON.parse(read.stdout) as {warnings?: string[]; windows?: unknown[]; backend?: Served}
    readNote = `ok, ${state.windows?.length ?? '?'} windows${servedNote(state.backend, 'screen')}${state.warnings?.length ? `; warnings: ${state.warnings.join(' / ')}` : ''}`
  }
  row('screen read (`arc screen-state`, whole process)', `${read.ms} ms, ${readNote}`)

  // arc's on-device helper (issue 22): whether it runs here, one read through it, and the same read over uiautomator.
  const helper = cap('helper')
  row('on-device helper (`arc doctor`)', helper ? `${helper.status}: ${helper.detail}` : 'not reported')
  const helperDump = cap('helper-dump')
  if (helperDump) row('one read through the helper (`arc doctor`)', `${helperDump.status}: ${helperDump.detail}`)
  const viaDump = await arc(['screen-state', '--json', '--helper', 'off'], device)
  row('screen read over uiautomator (`--helper off`, whole process)', `${viaDump.ms} ms, ${errorOf(viaDump)}`)

  // Two reads at once: one UiAutomation at a time on a phone.
  const [one, two] = await Promise.all([
    arc(['screen-state', '--json'], device),
    arc(['screen-state', '--json'], device),
  ])
  row('two screen reads at once', `first ${errorOf(one)} (${one.ms} ms); second ${errorOf(two)} (${two.ms} ms)`)

  // Display power and a screenshot (black for secure windows and a sleeping display).
  const power = await arc(['shell', '--', 'dumpsys', 'power'], device)
  const wakefulness =
    /mWakefulness=(\w+)/.exec(power.stdout)?.[1] ?? /Display Power: state=(\w+)/.exec(power.stdout)?.[1] ?? 'unknown'
  row('display power (`dumpsys power`)', wakefulness)
  // The annotated image goes to a folder of its own, removed after: the report needs only whether it was black.
  const shotDir = mkdtempSync(path.join(os.tmpdir(), 'arc-phone-check-'))
  const shot = await arc(['screen-state', '--json', '--screenshot', path.join(shotDir, 'screen.jpg')], device).finally(
    () => rmSync(shotDir, {recursive: true, force: true})
  )
  const shotWarnings = shot.code === 0 ? ((JSON.parse(shot.stdout) as {warnings?: string[]}).warnings ?? []) : []
  row(
    'annotated screenshot',
    shot.code === 0 ? (shotWarnings.length ? `warnings: ${shotWarnings.join(' / ')}` : 'not black') : errorOf(shot)
  )

  // A plain screenshot, timed: which backend took it (the helper's UiAutomation PNG, or screencap) and whether the
  // capture came out black (a FLAG_SECURE window, a sleeping display).
  const plainDir = mkdtempSync(path.join(os.tmpdir(), 'arc-phone-check-'))
  const plain = await arc(['screenshot', '-o', path.join(plainDir, 'screen.png'), '--json'], device).finally(() =>
    rmSync(plainDir, {recursive: true, force: true})
  )
  let plainNote = errorOf(plain)
  if (plain.code === 0) {
    const result = JSON.parse(plain.stdout) as {width?: number; height?: number; black?: boolean; backend?: Served}
    plainNote = `ok, ${result.width}x${result.height}${result.black ? ', black' : ''}${servedNote(result.backend, 'screenshot')}`
  }
  row('plain screenshot (`arc screenshot`, whole process)', `${plain.ms} ms, ${plainNote}`)

  // A tap, timed: the top-left corner pixel (the status bar: a tap there opens nothing).
  const tap = await arc(['tap', '0', '0'], device)
  row('tap at (0, 0) (whole process)', `${tap.ms} ms, ${errorOf(tap)}`)

  // Typing, timed: `input text` of 50 letters (arc's typing tools add a read-back on a field).
  const typed = await arc(
    ['shell', '--', 'input', 'text', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx'],
    device
  )
  row(
    'typing 50 letters (`input text`, whole process)',
    `${typed.ms} ms, ${errorOf(typed)}${typed.stdout.trim() ? `; printed: ${firstLine(typed.stdout)}` : ''}`
  )

  // Output noise: anything a command prints besides its own result.
  const noise = await arc(['shell', '--', 'input', 'keyevent', 'KEYCODE_SHIFT_LEFT'], device)
  row(
    'output of a silent `input keyevent`',
    noise.stdout.trim() || noise.stderr.trim()
      ? JSON.stringify(`${noise.stdout}${noise.stderr}`.trim().slice(0, 200))
      : 'none'
  )

  // Users and work profiles: apps of other users are invisible to `pm` without --user.
  const users = await arc(['shell', '--', 'pm', 'list', 'users'], device)
  const userLines = users.stdout
    .split('\n')
    .filter((l) => /UserInfo\{/.test(l))
    .map((l) => l.trim())
  row('users (`pm list users`)', userLines.length ? userLines.join('; ') : errorOf(users))

  lines.push(
    '',
    `Made by \`npm run phone-check\`${serial ? ` for ${serial}` : ''}; see docs/devices.md, "Checking a phone".`
  )
  process.stdout.write(`${lines.join('\n')}\n`)
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`phone-check: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
)
