import {spawn, type ChildProcess} from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import {connect, createServer} from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {ROOT} from '@arc-cli/test-support/paths'
import {runProgram, type ArcRun} from '@arc-cli/test-support/run-arc'

import {frame, FrameReader, PROTOCOL} from '../../src/server/protocol.js'

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
    const value = JSON.parse(run.stdout) as {running: boolean; commands?: number; busy?: boolean}
    // Its --json is snake_case like every result's (docs/json.md): started_at, idle_ms.
    expect(Object.keys(value).filter((k) => /[A-Z]/.test(k))).to.deep.equal([])
    if ('pid' in value) expect(value).to.have.keys(SERVER_STATUS_KEYS)
    return value
  }

  const SERVER_STATUS_KEYS = [
    'running',
    'answering',
    'pid',
    'root',
    'socket',
    'started_at',
    'commands',
    'busy',
    'idle_ms',
  ]

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

  /**
   * A client speaking the protocol itself (src/server/protocol.ts): sends a run request for `args`, then `after` frames
   * once the server accepts, and collects the frames until the server closes.
   */
  async function rawClient(
    args: string[],
    extra: NodeJS.ProcessEnv,
    after: Array<'G' | 'I'>
  ): Promise<Array<{type: string; body: string}>> {
    const socket = path.join(
      tmp,
      `arc-${process.getuid?.()}`,
      readdirSync(path.join(tmp, `arc-${process.getuid?.()}`))[0] as string
    )
    const conn = connect(socket)
    const reader = new FrameReader()
    const frames: Array<{type: string; body: string}> = []
    const request = {
      protocol: PROTOCOL,
      kind: 'run',
      root: realpathSync(ROOT),
      argv: args,
      cwd: work,
      env: env(extra),
      umask: 0o022,
      stdout: {tty: false},
      stderr: {tty: false},
    }
    conn.on('connect', () => conn.write(frame('R', JSON.stringify(request))))
    return new Promise((resolve) => {
      conn.on('data', (chunk: Buffer) => {
        for (const {type, body} of reader.push(chunk)) {
          frames.push({type, body: body.toString()})
          if (type !== 'A') continue
          if (after.length === 0) conn.destroy()
          for (const t of after) conn.write(frame(t))
        }
      })
      conn.on('close', () => resolve(frames))
    })
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
      // What a process says once (an unwritable cache folder), each command says once, as a process of its own would.
      {args: ['screen-state', '--device', 'demo'], env: {ARC_CACHE_DIR: '/proc/arc-no-such-folder'}},
      {args: ['screen-state', '--device', 'demo'], env: {ARC_CACHE_DIR: '/proc/arc-no-such-folder'}},
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

  it('acts on a device as arc alone does, reading the screen size afresh for each command', async () => {
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    const taps = () => h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap').length
    /** The device commands of two taps, after a read, with `extra` in the environment. */
    const twoTaps = async (extra: NodeJS.ProcessEnv) => {
      const read = await arc(['screen-state'], {...device, ...extra})
      expect(read.code, read.stderr).to.equal(0)
      const from = h.emu.commands.length
      for (const [x, y] of [
        [100, 200],
        [110, 210],
      ]) {
        const tap = await arc(['tap', String(x), String(y)], {...device, ...extra})
        expect(tap.code, tap.stderr).to.equal(0)
      }
      return h.argvSince(from)
    }
    const alone = await twoTaps({ARC_SERVER: 'off'})
    server = await startServer()
    // Between two commands another process may turn or resize the screen, which the server would not hear of: each
    // tap asks the size as a one-shot `arc tap` does, never trusting an earlier command's read.
    expect(await twoTaps({})).to.deep.equal(alone)
    expect(alone.filter((argv) => argv[0] === 'dumpsys' && argv[1] === 'window')).to.have.length(2)
    expect(taps()).to.equal(4)
    expect((await status()).commands).to.equal(3)
  })

  it('leaves help, version, unknown commands, stdin readers and commands that run until stopped to the client’s own process', async () => {
    server = await startServer()
    for (const args of [
      ['--version'],
      ['tap', '--help'],
      ['tpa', '1', '2'],
      ['batch'],
      ['test'],
      // A word after a command that takes none: oclif alone reads it as part of an unknown command's name.
      ['details', 'node_x', '--device', 'demo'],
      ['press', 'back', 'extra', '--device', 'demo', '--json'],
      // Until stopped: run alone, so a client killed meanwhile leaves nothing behind.
      ['logs', '--device', 'demo'],
      ['screenrecord', '-o', 'never.mp4', '--device', 'demo'],
    ]) {
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

  it('starts a command it was told to cancel before it listened cancelled: nothing reaches the device', async () => {
    server = await startServer()
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    const from = h.emu.commands.length
    const inputs = h.emu.device('emu-1').inputEvents.length
    // A client as bin/run.js is, whose Ctrl-C comes right after its go: before the command has loaded.
    const frames = await rawClient(['long-press', '100', '200'], device, ['G', 'I'])
    expect(frames.at(-1)).to.deep.equal({type: 'X', body: JSON.stringify({status: 130})})
    expect(
      frames
        .filter((f) => f.type === 'E')
        .map((f) => f.body)
        .join('')
    ).to.match(/^Error \[CANCELLED\]/m)
    expect(h.emu.device('emu-1').inputEvents.length).to.equal(inputs)
    expect(h.argvSince(from).filter((argv) => argv[0] === 'input')).to.deep.equal([])
  })

  it('runs nothing for a client that never says go, and a stopped server does not hold a client up', async () => {
    server = await startServer()
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    const taps = () => h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap').length
    const before = taps()
    // Accepted, then the client goes away without its go: as a client that gave up waiting does.
    const frames = await rawClient(['tap', '10', '20'], device, [])
    expect(frames.map((f) => f.type)).to.deep.equal(['A'])
    // A server stopped with SIGSTOP: the command runs in the client's own process after the handshake's limit.
    server.kill('SIGSTOP')
    try {
      const run = await arc(['tap', '30', '40'], device)
      expect(run.code, run.stderr).to.equal(0)
    } finally {
      server.kill('SIGCONT')
    }
    const after = await status()
    expect(after.commands, 'neither tap ran in the server').to.equal(0)
    expect(taps()).to.equal(before + 1)
  })

  it('tells a client too slow to say go that it gave up, and that client runs the command itself, once', async () => {
    server = await startServer()
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    const taps = () => h.emu.device('emu-1').inputEvents.filter((e) => e.type === 'tap').length
    const before = taps()
    const folder = path.join(tmp, `arc-${process.getuid?.()}`)
    const socket = path.join(folder, readdirSync(folder)[0] as string)
    // The server's side: a client that says nothing after the request (stopped past the server's wait for its go)
    // is told `N` before the close, never left to read a bare close after `A` as a server lost mid-command.
    const conn = connect(socket)
    const reader = new FrameReader()
    const frames: Array<{type: string; body: string}> = []
    conn.on('connect', () =>
      conn.write(
        frame(
          'R',
          JSON.stringify({
            protocol: PROTOCOL,
            kind: 'run',
            root: realpathSync(ROOT),
            argv: ['tap', '10', '20'],
            cwd: work,
            env: env(device),
            umask: 0o022,
            stdout: {tty: false},
            stderr: {tty: false},
          })
        )
      )
    )
    conn.on('data', (chunk: Buffer) => {
      for (const {type, body} of reader.push(chunk)) frames.push({type, body: body.toString()})
    })
    await new Promise((resolve) => conn.on('close', resolve))
    expect(frames).to.deep.equal([
      {type: 'A', body: ''},
      {type: 'N', body: JSON.stringify({reason: 'no go'})},
    ])
    expect((await status()).commands).to.equal(0)
    // The client's side, against a server of this test's own on the same socket that answers its go with `N`:
    // the command runs in the client, once, with its own output and exit, not SERVER_LOST.
    const stopped = await arc(['server', 'stop'])
    expect(stopped.code, stopped.stderr).to.equal(0)
    await exited(server)
    const fake = createServer((client) => {
      const frames = new FrameReader()
      client.on('data', (chunk: Buffer) => {
        for (const {type} of frames.push(chunk)) {
          if (type === 'R') client.write(frame('A'))
          if (type === 'G') client.end(frame('N', JSON.stringify({reason: 'no go'})))
        }
      })
    })
    await new Promise<void>((resolve) => fake.listen(socket, resolve))
    try {
      const run = await arc(['tap', '30', '40'], device)
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stdout).to.equal('Tap executed at (30, 40)\n')
    } finally {
      await new Promise((resolve) => fake.close(resolve))
    }
    expect(taps()).to.equal(before + 1)
  })

  it('keeps serving when the reader of its own log goes away', async () => {
    server = await startServer()
    // `arc server 2>&1 | head -2`: the reader of the server's stdout and stderr gone after its first lines.
    server.stdout?.destroy()
    server.stderr?.destroy()
    const device = {...h.env, ANDROID_SERIAL: 'emu-1'}
    for (const [x, y] of [
      ['10', '20'],
      ['30', '40'],
    ]) {
      const run = await arc(['tap', x as string, y as string], device)
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stdout).to.equal(`Tap executed at (${x}, ${y})\n`)
    }
    const after = await status()
    expect(after.running, 'the server still runs').to.equal(true)
    expect(after.commands, 'both taps ran in the server').to.equal(2)
  })

  it('keeps serving from a folder that went away, and logs command names, never their words', async () => {
    const gone = mkdtempSync(path.join(tmp, 'gone-'))
    serverLog = ''
    const child = spawn(process.execPath, [BIN, 'server'], {cwd: gone, env: env()})
    server = child
    child.stdout.on('data', (d: Buffer) => (serverLog += d))
    child.stderr.on('data', (d: Buffer) => (serverLog += d))
    while (!serverLog.includes('listening on')) await new Promise((resolve) => setTimeout(resolve, 20))
    rmSync(gone, {recursive: true})
    // A file written at the top of the installation (a screenshot, an edited README) is not a rebuild.
    const stray = path.join(ROOT, `.arc-server-test-${process.pid}`)
    writeFileSync(stray, 'x')
    rmSync(stray)
    const secret = 'pa55-word-not-for-logs'
    const typing = ['type', 'append', 'node_x', secret, '--device', 'demo']
    const alone = await arc(typing, {ARC_SERVER: 'off'})
    expect(alone.code).to.not.equal(0)
    expect(await arc(typing)).to.deep.equal(alone)
    const read = await arc(['screen-state', '--device', 'demo'])
    expect(read.code, read.stderr).to.equal(0)
    expect((await status()).commands).to.equal(2)
    expect(serverLog).to.match(/arc server: type:append: exit \d+ in \d+ ms/)
    expect(serverLog).to.not.include(secret)
  })

  it('refuses a socket path too long for a Unix socket (OUTPUT_FAILED, exit 13), naming TMPDIR', async () => {
    const deep = path.join(tmp, 'd'.repeat(60), 'e'.repeat(40))
    ;(await import('node:fs')).mkdirSync(deep, {recursive: true})
    const run = await arc(['server'], {TMPDIR: deep})
    expect(run.code, run.stdout).to.equal(13)
    expect(run.stderr).to.match(/over the 107 a Unix socket's address holds/)
    expect(run.stderr).to.match(/Set TMPDIR to a shorter folder/)
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

  it('stops on SIGHUP (its terminal or SSH session gone) as on SIGTERM: cleanly, exit 0, leaving no socket', async () => {
    // SIGHUP ended it outright: a command running then was cut off with the process, its put-backs undone.
    for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
      server = await startServer(['--idle', '0'])
      server.kill(signal)
      expect(await exited(server), `${signal}: ${serverLog}`).to.equal(0)
      expect(serverLog).to.include(`stopped (${signal})`)
      expect((await status()).running).to.equal(false)
    }
  })

  it('started twice at once, serves once: the other says so (already running, or SERVER_RUNNING while it starts), and none runs unreachable', async () => {
    // The moment between finding no server and listening, widened by a preload: the first start listens 2 s late,
    // the second removes what it takes for a dead server's socket 4 s late. Both used to find no server; the second
    // then removed the first's socket and listened in its place, and the first ran on unreachable, holding its
    // devices, until its --idle.
    const slowStart = [
      "import fs from 'node:fs'",
      "import net from 'node:net'",
      "import {syncBuiltinESMExports} from 'node:module'",
      "const sock = (where) => typeof where === 'string' && where.endsWith('.sock')",
      "if (process.env.SLOW_START === 'listen') {",
      '  const listen = net.Server.prototype.listen',
      '  net.Server.prototype.listen = function (...args) {',
      "    if (!sock(typeof args[0] === 'string' ? args[0] : args[0]?.path)) return listen.apply(this, args)",
      '    setTimeout(() => listen.apply(this, args), 2000)',
      '    return this',
      '  }',
      '} else {',
      '  const rm = fs.rmSync',
      '  fs.rmSync = (where, options) => {',
      '    if (sock(String(where))) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000)',
      '    return rm(where, options)',
      '  }',
      '  syncBuiltinESMExports()',
      '}',
    ].join('\n')
    const starts = ['listen', 'rm'].map((slow) => {
      const child = spawn(
        process.execPath,
        [`--import=data:text/javascript,${encodeURIComponent(slowStart)}`, BIN, 'server', '--idle', '0'],
        {cwd: work, env: env({SLOW_START: slow})}
      )
      let log = ''
      child.stdout.on('data', (d: Buffer) => (log += d))
      child.stderr.on('data', (d: Buffer) => (log += d))
      return {child, log: () => log}
    })
    try {
      // Each either listens or has exited.
      for (const start of starts)
        while (!start.log().includes('listening on') && start.child.exitCode === null)
          await new Promise((resolve) => setTimeout(resolve, 20))
      const serving = starts.filter((start) => start.child.exitCode === null)
      expect(
        serving.map((start) => start.log()),
        'exactly one serves'
      ).to.have.length(1)
      const winner = serving[0]!
      server = winner.child
      const loser = starts.find((start) => start !== winner)!
      // The other start says so: the winner already serves (exit 0), or is still starting (SERVER_RUNNING, 25).
      if (loser.child.exitCode === 0) {
        expect(loser.log()).to.match(new RegExp(`already running \\(pid ${winner.child.pid}\\)`))
      } else {
        expect(loser.child.exitCode, loser.log()).to.equal(25)
        expect(loser.log()).to.match(/^Error \[SERVER_RUNNING\]: another arc server of this installation is starting/)
        // It names the winner when the winner could tell (here the winner may be the start held up in its removal).
        const named = /\(pid (\d+)\)/.exec(loser.log())
        if (named) expect(Number(named[1]), loser.log()).to.equal(winner.child.pid)
      }
      // The one serving is the one the socket leads to.
      expect((await status()).pid).to.equal(winner.child.pid)
      // And a start after it succeeds without serving: the server it asks for runs.
      const again = await arc(['server'])
      expect(again.code, again.stderr).to.equal(0)
      expect(again.stdout).to.match(new RegExp(`already running \\(pid ${winner.child.pid}\\)`))
      const stop = await arc(['server', 'stop'])
      expect(stop.code, stop.stderr).to.equal(0)
      expect(await exited(winner.child)).to.equal(0)
    } finally {
      for (const start of starts) if (start.child.exitCode === null) start.child.kill('SIGKILL')
    }
  })

  it('refuses an --idle that is not a duration (INVALID_INPUT, exit 2) and listens nowhere', async () => {
    const run = await arc(['server', '--idle', 'soon'])
    expect(run.code).to.equal(2)
    expect(run.stderr).to.match(/^Error \[INVALID_INPUT\]: --idle must be a duration/)
    expect((await status()).running).to.equal(false)
  })
})
