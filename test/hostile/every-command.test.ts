import {expect} from 'chai'
import {execFileSync, spawn} from 'node:child_process'
import {mkdir, readdir, symlink} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {Config, type Command} from '@oclif/core'
import {runCommand} from '@oclif/test'

import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {isRoot, scratch} from '@arc-cli/test-support/hostile'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

/**
 * The standing hostile-input suite: EVERY command oclif knows (read from the loaded configuration, so a new command
 * is covered without a line here) runs in process against `arc emulate` with each of its arguments and option
 * flags, one at a time, set to each odd value below, the rest as the command's first example gives them. A case
 * fails on exit status INTERNAL, a stack trace in the output, or running past CASE_LIMIT_MS. The counts and the
 * slowest case are printed at the end.
 */
const INTERNAL = exitCodeFor('INTERNAL')
const STACK = /\n\s+at [^\n]*(\(|:\d+:\d+)/
/** A case still running after this long counts as hung (arc's own limits end a device command in 20 s). */
const CASE_LIMIT_MS = 15_000
/** A command's first run also compiles its modules from source (arc's canvas and image code: seconds under load). */
const WARM_UP_LIMIT_MS = 90_000

/**
 * Commands that serve until stopped run as processes of their own instead (SERVERS below), from these command
 * lines: over stdio, `mcp serve` ends when its input does.
 */
const NOT_IN_PROCESS: Record<string, string> = {
  emulate: '--port 0',
  'mcp:serve': '--stdio --device demo',
  server: '--idle 0',
}
/** A server still running this long after its start took its flags: it is serving, and is stopped with SIGINT. */
const SERVING_MS = 4000

/**
 * The first example of a few commands, made to end at once: waits and recordings with a short limit, so that a
 * value that is accepted is not mistaken for a hang.
 */
const BASE: Record<string, string> = {
  'wait:element': 'text Done --timeout 1',
  'wait:gone': 'text Nothing --timeout 1',
  'wait:idle': '--timeout 1',
  assert: 'visible --text Welcome --timeout 1',
  screenrecord: '-o demo.mp4 --time-limit 1',
  'scroll-to': 'node_a3f2kq --max-scrolls 1',
  devices: '--timeout-ms 100',
}

/** Flags every device command shares: their odd values are tried on these commands only, not on all 60. */
const SHARED_FLAGS = ['device', 'adb-host', 'adb-port', 'helper']
const SHARED_ON = new Set(['press:back', 'screen-state', 'files:read', 'devices'])

/** Words of an example as a POSIX shell splits them (quotes and backslashes; no expansion). */
function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | undefined
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word = (word ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '"') {
      word ??= ''
      for (i++; i < line.length && line[i] !== '"'; i++) word += line[i] === '\\' ? line[++i] : line[i]
    } else if (c === '\\') word = (word ?? '') + (line[++i] ?? '')
    else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + c
  }
  if (word !== undefined) words.push(word)
  return words
}

interface Parsed {
  positional: string[]
  flags: Array<[string, string | undefined]>
}

/** A command line split into its positionals and flags (by the command's own flag table: which take a value). */
function splitArgv(words: string[], command: Command.Loadable): Parsed {
  const out: Parsed = {positional: [], flags: []}
  const byChar = new Map<string | undefined, string>(Object.entries(command.flags).map(([name, f]) => [f.char, name]))
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string
    if (word === '--') {
      out.positional.push(...words.slice(i + 1))
      break
    }
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(word)
    const short = /^-([a-zA-Z])$/.exec(word)
    const name = long ? (long[1] as string) : short ? byChar.get(short[1] as string) : undefined
    if (name === undefined) {
      out.positional.push(word)
      continue
    }
    const takesValue = command.flags[name]?.type === 'option'
    out.flags.push([name, takesValue ? (long?.[2] ?? words[++i]) : undefined])
  }
  return out
}

function joinArgv(id: string, parsed: Parsed): string[] {
  const flags = parsed.flags.map(([name, value]) => (value === undefined ? `--${name}` : `--${name}=${value}`))
  return [...id.split(':'), ...flags, ...(parsed.positional.length > 0 ? ['--', ...parsed.positional] : [])]
}

interface Outcome {
  argv: string[]
  ms: number
  exit: number
  problem?: string
}

function shown(argv: string[]): string {
  return argv
    .map((a) => (a.length > 40 ? `${JSON.stringify(a.slice(0, 20))}…(${a.length} chars)` : JSON.stringify(a)))
    .join(' ')
}

describe('hostile: every command against odd values', function () {
  const h = useEmulator()
  let dir: string
  let values: Array<[string, string]>
  const outcomes: Outcome[] = []
  let commands: Command.Loadable[] = []
  let servers: Command.Loadable[] = []
  const saved: Record<string, string | undefined> = {}
  let cwd: string
  /** The real stream writers: a case cut off as hung leaves oclif's capture of them in place. */
  const writers = {stdout: process.stdout.write, stderr: process.stderr.write}

  before(async function () {
    this.timeout(120_000)
    dir = await scratch('arc-every-command-')
    await mkdir(path.join(dir, 'a-folder'))
    await symlink('loop', path.join(dir, 'loop'))
    // A character device of the suite's own (as /dev/zero: endless zeros) where this user may make one, so that a
    // command that renames over its output never touches the machine's /dev.
    let device = '/dev/zero'
    if (isRoot && process.platform === 'linux') {
      try {
        execFileSync('mknod', ['-m', '666', path.join(dir, 'zero'), 'c', '1', '5'], {stdio: 'ignore'})
        device = path.join(dir, 'zero')
      } catch {
        // not allowed here (a container without CAP_MKNOD): the real /dev/zero, which arc writes into, never over
      }
    }
    values = [
      ['empty', ''],
      ['whitespace', '\t\n \r'],
      ['1 MB', 'x'.repeat(1 << 20)],
      ['control characters', '\u001b[31mred\u0007\u007f\u009b\u0001\u0008'],
      ['unicode and emoji', 'café 中文 👍🏽 \u202ertl\u0301'],
      ['-1', '-1'],
      ['NaN', 'NaN'],
      ['1e309', '1e309'],
      ['400 nines', '9'.repeat(400)],
      ['shell metacharacters', '$(touch pwned)`touch pwned`;|&<>\'"\\*?~{a,b}'],
      ['a folder', path.join(dir, 'a-folder')],
      ['a character device', device],
      ['a missing path', path.join(dir, 'missing', 'x')],
      ['a link loop', path.join(dir, 'loop')],
      ['__proto__', '__proto__'],
    ]
    const config = await inDevelopment(async () => Config.load(await sourceOptions()))
    const chosen = config.commands
      .filter((c) => (process.env.HOSTILE_ONLY ?? c.id).split(',').includes(c.id))
      .sort((a, b) => a.id.localeCompare(b.id))
    commands = chosen.filter((c) => !(c.id in NOT_IN_PROCESS))
    servers = chosen.filter((c) => c.id in NOT_IN_PROCESS)
    for (const name of [
      'ADB_SERVER_SOCKET',
      'ARC_CACHE_DIR',
      'ANDROID_SERIAL',
      'ANDROID_ADB_SERVER_PORT',
      'ARC_CONFIG',
    ])
      saved[name] = process.env[name]
    delete process.env.ANDROID_SERIAL
    delete process.env.ANDROID_ADB_SERVER_PORT
    delete process.env.ARC_CONFIG
    Object.assign(process.env, h.env)
    cwd = process.cwd()
    process.chdir(dir)
    // The first device command in this process loads the driver's modules from source: not a case's own time.
    await inDevelopment(async () => runCommand(['screen-state'], await sourceOptions()))
  })

  after(function () {
    process.stdout.write = writers.stdout
    process.stderr.write = writers.stderr
    process.chdir(cwd)
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    const passed = outcomes.filter((o) => o.problem === undefined).length
    const slowest = outcomes.reduce<Outcome | undefined>((a, b) => (a === undefined || b.ms > a.ms ? b : a), undefined)
    console.log(
      `      hostile inputs: ${outcomes.length} cases tried over ${commands.length + servers.length} commands, ${passed} passed` +
        (slowest ? `; slowest ${slowest.ms} ms: arc ${shown(slowest.argv)} (exit ${slowest.exit})` : '')
    )
  })

  async function attempt(argv: string[], limitMs = CASE_LIMIT_MS): Promise<Outcome> {
    const started = Date.now()
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), limitMs)))
    const run = inDevelopment(async () => runCommand(argv, await sourceOptions()))
    const result = await Promise.race([run, hung]).finally(() => clearTimeout(timer))
    const ms = Date.now() - started
    if (process.env.HOSTILE_TRACE)
      (await import('node:fs')).appendFileSync(process.env.HOSTILE_TRACE, `${ms} ${shown(argv)}\n`)
    process.exitCode = undefined
    if (process.cwd() !== dir) process.chdir(dir)
    // A command may set the environment for the steps it runs (`arc test --adb-host` does): the next case starts
    // from the suite's own, on the emulator.
    for (const name of ['ANDROID_SERIAL', 'ANDROID_ADB_SERVER_PORT', 'ARC_CONFIG']) delete process.env[name]
    Object.assign(process.env, h.env)
    if (result === 'hung') {
      process.stdout.write = writers.stdout
      process.stderr.write = writers.stderr
      const last = h.emu.commands.slice(-3).map((c) => c.argv.join(' ').slice(0, 60))
      return {
        argv,
        ms,
        exit: -1,
        problem: `still running after ${limitMs} ms (last device commands: ${last.join('; ')})`,
      }
    }
    const error = result.error as (Error & {oclif?: {exit?: number}}) | undefined
    const exit = error === undefined ? 0 : (error.oclif?.exit ?? -1)
    const output = `${result.stdout}\n${result.stderr}`
    let problem: string | undefined
    if (exit === INTERNAL) problem = `exit INTERNAL: ${result.stderr.slice(0, 400)}`
    else if (exit === -1) problem = `threw past the command: ${error?.stack ?? String(error)}`.slice(0, 600)
    else if (STACK.test(output)) problem = `a stack trace in the output: ${output.slice(0, 600)}`
    return {argv, ms, exit, ...(problem === undefined ? {} : {problem})}
  }

  // HOSTILE_ONLY=tap,files:push runs those commands alone and HOSTILE_TRACE=FILE logs each case's time (to debug).
  /** One spawned run of a server command: its exit and output, or SIGINT once it has served SERVING_MS. */
  function serve(argv: string[]): Promise<Outcome> {
    const started = Date.now()
    return new Promise((resolve) => {
      const child = spawn(process.execPath, arcNodeArgs(argv), {
        cwd: dir,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'},
      })
      let output = ''
      child.stdout.on('data', (d: Buffer) => (output += d))
      child.stderr.on('data', (d: Buffer) => (output += d))
      child.stdin.end()
      const stop = setTimeout(() => child.kill('SIGINT'), SERVING_MS)
      const killed = setTimeout(() => child.kill('SIGKILL'), CASE_LIMIT_MS)
      child.on('close', (code, signal) => {
        clearTimeout(stop)
        clearTimeout(killed)
        const exit = code ?? -1
        let problem: string | undefined
        if (signal === 'SIGKILL')
          problem = `did not stop within ${CASE_LIMIT_MS} ms of its start (SIGINT at ${SERVING_MS})`
        else if (exit === INTERNAL) problem = `exit INTERNAL: ${output.slice(0, 400)}`
        else if (STACK.test(output)) problem = `a stack trace in the output: ${output.slice(0, 600)}`
        resolve({argv, ms: Date.now() - started, exit, ...(problem === undefined ? {} : {problem})})
      })
    })
  }

  it('covers every command oclif lists, bar those that serve until stopped', function () {
    if (process.env.HOSTILE_ONLY) return
    expect(commands.length).to.be.greaterThan(60)
    expect(commands.map((c) => c.id)).to.include.members(['tap', 'files:push', 'screen-state', 'annotate', 'batch'])
  })

  // One case per command listed at load time: the commands are read in `before`, so the cases are made per run.
  it('never ends INTERNAL, with a stack trace, or past the case limit, for any command and odd value', async function () {
    this.timeout(0)
    const failures: string[] = []
    for (const command of commands) {
      const line = BASE[command.id] ?? (command.examples?.[0] as string | undefined) ?? ''
      const words = shellWords((typeof line === 'string' ? line : '').replaceAll(/<%=.*?%>/g, ' '))
      // The example's own command words come first ("files write downloads …" → positionals after the id's words).
      const idWords = command.id.split(':')
      const rest = words.slice(0, idWords.length).join(' ') === idWords.join(' ') ? words.slice(idWords.length) : words
      const base = splitArgv(rest, command)
      const argCount = Object.keys(command.args ?? {}).length
      const slots: Array<{what: string; set: (value: string) => Parsed}> = []
      for (let i = 0; i < Math.max(argCount, base.positional.length); i++) {
        slots.push({
          what: `argument ${i + 1}`,
          set: (value) => {
            const positional = [...base.positional]
            while (positional.length < i) positional.push('x')
            positional[i] = value
            return {positional, flags: base.flags}
          },
        })
      }
      for (const [name, flag] of Object.entries(command.flags)) {
        if (flag.type !== 'option') continue
        if (SHARED_FLAGS.includes(name) && !SHARED_ON.has(command.id)) continue
        slots.push({
          what: `--${name}`,
          set: (value) => ({
            positional: base.positional,
            flags: [...base.flags.filter(([n]) => n !== name), [name, value]],
          }),
        })
      }
      // Its first run in this process loads the command's modules from source: paid here, not by a case.
      const example = await attempt(joinArgv(command.id, base), WARM_UP_LIMIT_MS)
      if (example.problem) failures.push(`${command.id} as its example runs it: ${example.problem}`)
      for (const slot of slots) {
        for (const [label, value] of values) {
          const outcome = await attempt(joinArgv(command.id, slot.set(value)))
          outcomes.push(outcome)
          if (outcome.problem) failures.push(`${command.id} ${slot.what} = ${label}: ${outcome.problem}`)
        }
      }
    }
    expect(await readdir(dir), 'a shell metacharacter ran on this machine').to.not.include('pwned')
    expect(failures, failures.join('\n\n')).to.deep.equal([])
  })
  // Each its own process (a few at once): the values most likely to get past a flag's own check.
  it('the servers (emulate, mcp serve, server) never end INTERNAL, with a stack trace, or fail to stop, on odd flag values', async function () {
    this.timeout(0)
    const picked = values.filter(([label]) =>
      ['empty', 'control characters', '-1', '1e309', 'a missing path'].includes(label)
    )
    const runs: Array<{what: string; argv: string[]}> = []
    for (const command of servers) {
      const base = splitArgv(shellWords(NOT_IN_PROCESS[command.id] as string), command)
      for (const [name, flag] of Object.entries(command.flags)) {
        if (flag.type !== 'option') continue
        for (const [label, value] of picked) {
          const parsed = {positional: [], flags: [...base.flags.filter(([n]) => n !== name), [name, value]]} as Parsed
          runs.push({what: `${command.id} --${name} = ${label}`, argv: joinArgv(command.id, parsed)})
        }
      }
    }
    const failures: string[] = []
    const next = async (): Promise<void> => {
      for (let run = runs.shift(); run !== undefined; run = runs.shift()) {
        const outcome = await serve(run.argv)
        outcomes.push(outcome)
        if (outcome.problem) failures.push(`${run.what}: ${outcome.problem}`)
      }
    }
    await Promise.all([next(), next(), next()])
    expect(failures, failures.join('\n\n')).to.deep.equal([])
  })
})
