import {spawn, type ChildProcess} from 'node:child_process'
import {chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runProgram, type ArcRun} from '@arc-cli/test-support/run-arc'

const BIN = path.join(ROOT, 'bin', 'run.js')

/**
 * `arc server` (src/server/, docs/server.md) as users meet it: the built arc, each command a process of its own, a
 * server in a temporary folder of this file's own (TMPDIR), so no other test's arc finds it.
 */
describe('arc server: later commands run in a resident arc, with the same output and exit', function () {
  this.timeout(60_000)
  const h = useEmulator()
  let tmp: string
  let work: string
  let server: ChildProcess | undefined
  let serverLog = ''

  /** The environment of every process here: the folder of this file's servers, and no opt-out inherited. */
  function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const out: NodeJS.ProcessEnv = {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', TMPDIR: tmp, ...extra}
    for (const key of ['ARC_SERVER', 'ANDROID_SERIAL', 'ARC_CONFIG', 'FORCE_COLOR'])
      if (!(key in extra)) delete out[key]
    return out
  }

  function arc(args: string[], extra: NodeJS.ProcessEnv = {}, cwd = work): Promise<ArcRun> {
    return runProgram(process.execPath, [BIN, ...args], {cwd, env: env(extra), timeoutMs: 30_000})
  }

  async function status(): Promise<{running: boolean; commands?: number; busy?: boolean; pid?: number}> {
    const run = await arc(['server', 'status', '--json'])
    expect(run.code, run.stderr).to.equal(0)
    return JSON.parse(run.stdout) as {running: boolean; commands?: number; busy?: boolean}
  }

  /** Starts `arc server` and resolves once it says it listens. */
  async function startServer(args: string[] = []): Promise<ChildProcess> {
    serverLog = ''
    const child = spawn(process.execPath, [BIN, 'server', ...args], {cwd: work, env: env()})
    child.stdout.on('data', (d: Buffer) => (serverLog += d))
    child.stderr.on('data', (d: Buffer) => (serverLog += d))
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (serverLog.includes('listening on')) resolve()
        else if (child.exitCode !== null) reject(new Error(`arc server exited ${child.exitCode}: ${serverLog}`))
        else setTimeout(check, 20)
      }
      check()
    })
    return child
  }

  function exited(child: ChildProcess): Promise<number | null> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  }

  before(async () => {
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current (it said why on stderr)').to.equal(
      'dist'
    )
    tmp = mkdtempSync(path.join(os.tmpdir(), 'arc-server-test-'))
    work = path.join(tmp, 'work')
    rmSync(work, {recursive: true, force: true})
    ;(await import('node:fs')).mkdirSync(work)
  })

  afterEach(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL')
      await exited(server)
    }
    server = undefined
  })

  after(() => rmSync(tmp, {recursive: true, force: true}))

  it('prints, writes and exits as arc itself does, in the client’s folder and environment', async () => {
    // A config in the client's folder and a device named only by the environment: both are the client's, not the
    // server's (which runs elsewhere, with neither).
    writeFileSync(path.join(work, '.arcrc.json'), JSON.stringify({elements: {wait: '0'}}))
    const lines: Array<{args: string[]; env?: NodeJS.ProcessEnv}> = [
      {args: ['screen-state', '--device', 'demo']},
      {args: ['screen-state', '--json'], env: {ANDROID_SERIAL: 'demo'}},
      {args: ['find', '--text', 'q', '--device', 'demo', '--json']},
      {args: ['tap', '1', '2', '--device', 'demo']},
      {args: ['tap', '1', '2', '--device', 'demo', '--json']},
      {args: ['tap', '--device', 'demo']},
      {args: ['tap', '1', '2', '--devcie', 'demo']},
      {args: ['config']},
      {args: ['config', '--json'], env: {ARC_HELPER: 'off'}},
      {args: ['annotate', '--device', 'demo', '-o', 'shot.jpg']},
    ]
    const alone: ArcRun[] = []
    const shots: Buffer[] = []
    for (const line of lines) {
      alone.push(await arc(line.args, {...line.env, ARC_SERVER: 'off'}))
      if (existsSync(path.join(work, 'shot.jpg'))) {
        shots.push(readFileSync(path.join(work, 'shot.jpg')))
        rmSync(path.join(work, 'shot.jpg'))
      }
    }
    server = await startServer()
    for (const [k, line] of lines.entries()) {
      const served = await arc(line.args, line.env)
      const expected = alone[k] as ArcRun
      expect(served, `arc ${line.args.join(' ')}`).to.deep.equal(expected)
    }
    // The annotation went to the client's folder, byte for byte the one arc made alone.
    expect(readFileSync(path.join(work, 'shot.jpg')).equals(shots[0] as Buffer)).to.equal(true)
    // Every line ran in the server (none fell back to a process of its own, which would also match).
    expect((await status()).commands).to.equal(lines.length)
  })

  it('acts on a device as arc alone does, each tap one device command once a read gave the screen size', async () => {
    server = await startServer()
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    const taps = () => h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap').length
    const read = await arc(['screen-state'], device)
    expect(read.code, read.stderr).to.equal(0)
    const from = h.emu.commands.length
    for (const [x, y] of [
      [100, 200],
      [110, 210],
    ]) {
      const tap = await arc(['tap', String(x), String(y)], device)
      expect(tap.code, tap.stderr).to.equal(0)
    }
    expect(taps()).to.equal(2)
    // The screen's size is the server's from the read before: no `dumpsys window displays` before each tap, which
    // each one-shot `arc tap` sends. Each tap is one shell: the display's power check, then the input.
    expect(h.argvSince(from)).to.deep.equal([
      ['dumpsys', 'power'],
      ['input', 'tap', '100', '200'],
      ['dumpsys', 'power'],
      ['input', 'tap', '110', '210'],
    ])
    expect((await status()).commands).to.equal(3)
  })

  it('leaves help, version, unknown commands and stdin readers to the client’s own process', async () => {
    server = await startServer()
    for (const args of [['--version'], ['tap', '--help'], ['tpa', '1', '2'], ['batch'], ['test']]) {
      const alone = await arc(args, {ARC_SERVER: 'off'})
      expect(await arc(args), `arc ${args.join(' ')}`).to.deep.equal(alone)
    }
    expect((await status()).commands).to.equal(0)
  })

  it('says OUTPUT_FAILED (exit 13), as arc alone does, when the reader of its stdout goes away', async () => {
    server = await startServer()
    /** `arc annotate -o - | head -c 10`: a JPEG larger than a pipe holds, its reader gone after 10 bytes. */
    const cut = (extra: NodeJS.ProcessEnv) =>
      runProgram(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${BIN}" annotate --device demo -o - | head -c 10 > /dev/null; exit \${PIPESTATUS[0]}`,
        ],
        {cwd: work, env: env(extra), timeoutMs: 30_000}
      )
    for (const extra of [{ARC_SERVER: 'off'}, {}]) {
      const run = await cut(extra)
      expect(run.code, `${JSON.stringify(extra)}: ${run.stderr}`).to.equal(13)
      expect(run.stderr).to.match(/^Error \[OUTPUT_FAILED\]: stdout was closed before arc finished writing/m)
    }
    expect((await status()).commands).to.equal(1)
  })

  it('sends a second client away while a command runs, instead of making it wait', async () => {
    server = await startServer()
    const long = arc(['wait', 'element', '--text', 'Nothing here', '--timeout', '3s', '--device', 'demo'])
    // Until the server says a command runs, the second one would not prove anything.
    for (let busy = false; !busy;) busy = (await status()).busy === true
    const second = await arc(['screen-state', '--device', 'demo', '--json'])
    expect(second.code, second.stderr).to.equal(0)
    expect((await status()).busy, 'the wait still runs: the second command did not wait for it').to.equal(true)
    const first = await long
    expect(first.code, first.stderr).to.equal(11)
    // The wait ran in the server; the screen read beside it in its own process.
    expect((await status()).commands).to.equal(1)
  })

  it('passes Ctrl-C to the command, which cancels as arc alone does, and goes on serving', async () => {
    server = await startServer()
    const client = spawn(
      process.execPath,
      [BIN, 'wait', 'element', '--text', 'Nothing here', '--timeout', '20s', '--device', 'demo'],
      {cwd: work, env: env()}
    )
    let stderr = ''
    client.stderr.on('data', (d: Buffer) => (stderr += d))
    for (let busy = false; !busy;) busy = (await status()).busy === true
    client.kill('SIGINT')
    expect(await exited(client)).to.equal(130)
    expect(stderr).to.match(/^Error \[CANCELLED\]/m)
    const next = await arc(['screen-state', '--device', 'demo'])
    expect(next.code, next.stderr).to.equal(0)
    expect((await status()).commands).to.equal(2)
  })

  it('says SERVER_LOST (exit 24) when the server dies during a command', async () => {
    server = await startServer()
    const pending = arc(['wait', 'element', '--text', 'Nothing here', '--timeout', '20s', '--device', 'demo', '--json'])
    for (let busy = false; !busy;) busy = (await status()).busy === true
    server.kill('SIGKILL')
    const run = await pending
    expect(run.code).to.equal(24)
    expect(JSON.parse(run.stdout).error.code).to.equal('SERVER_LOST')
    // The socket left behind answers nobody: the next command runs in its own process.
    const next = await arc(['screen-state', '--device', 'demo'])
    expect(next.code, next.stderr).to.equal(0)
  })

  it('stops when arc’s files change, and the command runs with the new files instead', async () => {
    server = await startServer()
    const file = path.join(ROOT, 'dist', 'commands', 'version.js')
    const before = statSync(file)
    try {
      utimesSync(file, before.atime, new Date(before.mtimeMs + 1000))
      const run = await arc(['screen-state', '--device', 'demo'])
      expect(run.code, run.stderr).to.equal(0)
      expect(await exited(server)).to.equal(0)
      expect(serverLog).to.include("arc's files changed")
    } finally {
      utimesSync(file, before.atime, before.mtime)
    }
  })

  it('is not used from a folder others may enter, and refuses to start there', async () => {
    server = await startServer()
    const folder = path.join(tmp, `arc-${process.getuid?.()}`)
    chmodSync(folder, 0o755)
    try {
      const run = await arc(['screen-state', '--device', 'demo'])
      expect(run.code, run.stderr).to.equal(0)
      expect((await status()).commands).to.equal(0)
      server.kill('SIGKILL')
      await exited(server)
      const refused = await arc(['server'])
      expect(refused.code, refused.stdout).to.equal(13)
      expect(refused.stderr).to.match(
        /^Error \[OUTPUT_FAILED\]: arc server cannot listen on .*: .* is not this user's alone/
      )
    } finally {
      chmodSync(folder, 0o700)
    }
  })

  it('stops by itself after --idle without a command, and on `arc server stop`, leaving no socket', async () => {
    server = await startServer(['--idle', '300ms'])
    expect(await exited(server)).to.equal(0)
    expect(serverLog).to.match(/stopped \(no command for 300 ms\)/)
    expect((await status()).running).to.equal(false)
    server = await startServer(['--idle', '0'])
    const stop = await arc(['server', 'stop'])
    expect(stop.code, stop.stderr).to.equal(0)
    expect(stop.stdout).to.match(/^arc server: stopped \(pid \d+\)$/m)
    expect(await exited(server)).to.equal(0)
    expect((await status()).running).to.equal(false)
    const again = await arc(['server', 'stop'])
    expect(again.stdout).to.equal('arc server: not running\n')
  })

  it('refuses an --idle that is not a duration (INVALID_INPUT, exit 2) and listens nowhere', async () => {
    const run = await arc(['server', '--idle', 'soon'])
    expect(run.code).to.equal(2)
    expect(run.stderr).to.match(/^Error \[INVALID_INPUT\]: --idle must be a duration/)
    expect((await status()).running).to.equal(false)
  })
})
