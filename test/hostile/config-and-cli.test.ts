import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {closeSync, existsSync, openSync} from 'node:fs'
import {chmod, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'

import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {isRoot, scratch, tree} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

const PROTOTYPE_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']
const NO_STACK = /\n\s+at /

/** A project folder (package.json stops the config search) holding one config file. */
async function project(file: string, content: string): Promise<string> {
  const dir = await scratch()
  await writeFile(path.join(dir, 'package.json'), '{}\n')
  await writeFile(path.join(dir, file), content)
  return dir
}

describe('hostile: prototype-named keys', function () {
  for (const name of PROTOTYPE_NAMES) {
    it(`--style ${name}: exit INVALID_INPUT (2), "unknown preset", no file written`, async () => {
      const dir = await scratch()
      const run = await runArc(['annotate', '-d', 'demo', '--style', name, '-o', 'x.jpg'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr).to.include(`unknown preset "${name}"`).and.not.match(NO_STACK)
      expect(await tree(dir)).to.deep.equal({})
    })
  }

  it('config presets named toString and constructor work like any name; __proto__ is refused (exit 3)', async () => {
    const ok = await project(
      '.arcrc.json',
      JSON.stringify({
        annotate: {style: 'constructor', presets: {constructor: {color: 'blue'}, toString: {extends: 'constructor'}}},
      })
    )
    const run = await runArc(['annotate', '-d', 'demo', '-o', 'x.jpg'], {cwd: ok})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.include('style constructor')
    const bad = await project('.arcrc.json', '{"annotate": {"presets": {"__proto__": {"color": "red"}}}}')
    const refused = await runArc(['config'], {cwd: bad})
    expect(refused.code, refused.stderr).to.equal(exitCodeFor('INVALID_CONFIG'))
    expect(refused.stderr).to.include('annotate.presets.__proto__: a key named __proto__ is not allowed')
  })

  it('a colour named constructor: exit 3 "not a colour", never INTERNAL', async () => {
    const dir = await project('.arcrc.json', JSON.stringify({annotate: {presets: {mine: {color: 'constructor'}}}}))
    const run = await runArc(['config'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_CONFIG'))
    expect(run.stderr).to.include('annotate.presets.mine.color: not a colour')
  })
})

describe('hostile: config that every command refuses', function () {
  const presets: Record<string, {extends: string}> = {}
  for (let i = 0; i < 100_000; i++) presets[`p${i}`] = {extends: `p${i + 1}`}
  const cases: Array<{name: string; config: unknown; says: string}> = [
    {
      name: 'a 100,000-long extends chain',
      config: {annotate: {presets}},
      says: 'the chain of presets is longer than 32',
    },
    {
      name: 'an extends cycle',
      config: {annotate: {presets: {a: {extends: 'b'}, b: {extends: 'a'}}}},
      says: 'in a cycle (a -> b -> a)',
    },
    {
      name: 'an unknown annotate.style',
      config: {annotate: {style: 'nope'}},
      says: 'annotate.style: unknown preset "nope"',
    },
    {name: 'quality: 500', config: {annotate: {quality: 500}}, says: 'annotate.quality'},
    {name: 'color: notacolour', config: {annotate: {presets: {mine: {color: 'notacolour'}}}}, says: 'not a colour'},
  ]
  for (const c of cases) {
    it(`${c.name}: arc config and screen-state exit INVALID_CONFIG (3)`, async () => {
      const dir = await project('.arcrc.json', JSON.stringify(c.config))
      const before = await tree(dir)
      for (const args of [['config'], ['screen-state', '-d', 'demo']]) {
        const run = await runArc(args, {cwd: dir})
        expect(run.code, `${args[0]}: ${run.stderr}`).to.equal(exitCodeFor('INVALID_CONFIG'))
        expect(run.stderr).to.include(c.says).and.not.match(NO_STACK)
      }
      expect(await tree(dir)).to.deep.equal(before)
    })
  }

  it('a syntax error in arc.config.js: exit 3 naming the file and the SyntaxError', async () => {
    const dir = await project('arc.config.js', 'export default {device: "demo",\n')
    const run = await runArc(['config'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_CONFIG'))
    expect(run.stderr)
      .to.include(path.join(dir, 'arc.config.js'))
      .and.include('SyntaxError')
      .and.not.include('bug in Node')
  })

  it('an endless loop in arc.config.js: exit 3 after the 5 s load limit, arc does not hang', async () => {
    const dir = await project('arc.config.js', 'while (true) {}\n')
    const run = await runArc(['screen-state', '-d', 'demo'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_CONFIG'))
    expect(run.stderr).to.include('did not finish loading within 5 s')
  })

  it('arc.config.cjs and .mjs exporting data still load', async () => {
    for (const [file, body] of [
      ['arc.config.cjs', 'module.exports = {device: "demo"}\n'],
      ['arc.config.mjs', 'export default {device: "demo"}\n'],
    ] as const) {
      const run = await runArc(['config', '--json'], {cwd: await project(file, body)})
      expect(run.code, run.stderr).to.equal(0)
      expect(JSON.parse(run.stdout).config).to.deep.equal({device: 'demo'})
    }
  })

  it('an unreadable config file found by the search: exit 3 "permission denied", not silently skipped', async function () {
    if (!isRoot) this.skip() // run as nobody so that permissions apply
    const dir = await project('.arcrc.json', '{"device": "demo"}\n')
    await chmod(dir, 0o755)
    await chmod(path.join(dir, '.arcrc.json'), 0o600)
    const run = await runArc(['config'], {cwd: dir, uid: 65534, env: {HOME: '/tmp', ARC_CACHE_DIR: '/tmp'}})
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_CONFIG'))
    expect(run.stderr).to.include('.arcrc.json: permission denied')
  })
})

describe('hostile: the command line', function () {
  it('an unknown command: exit 2 with the nearest command, and the JSON error under --json', async () => {
    const run = await runArc(['screenstate'])
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr)
      .to.include('Error [INVALID_INPUT]: unknown command "screenstate"')
      .and.include('Try: arc screen-state')
    const json = await runArc(['screenstate', '--json'])
    expect(json.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(JSON.parse(json.stdout).error).to.include({code: 'INVALID_INPUT', exitCode: 2})
  })

  it('a closed pipe (annotate -o - | head -c 8): exit OUTPUT_FAILED (13), no stack, not INTERNAL', async () => {
    // A real shell pipe; a PNG (several times the 64 KB pipe buffer) makes sure arc is still writing when head exits.
    const dev = path.join(ROOT, 'bin', 'dev.js')
    const script = `"${process.execPath}" --conditions=arc-source "${dev}" annotate -d demo --format png -o - 2>&3 | head -c 8 >/dev/null; echo "\${PIPESTATUS[0]}"`
    const child = spawn('bash', ['-c', `{ ${script}; } 3>&2`], {env: {...process.env, NO_COLOR: '1'}})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    await new Promise((resolve) => child.on('close', resolve))
    expect(Number(stdout.trim()), stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(stderr).to.include('stdout was closed').and.not.include('INTERNAL').and.not.match(NO_STACK)
  })

  // Writes to /dev/full fail with ENOSPC at once. Printed through oclif's console, whose own stdout listener threw
  // the stream's error event on: Node's crash report, a line of the minified bundle, exit 1.
  for (const args of [
    ['screen-state', '-d', 'demo'],
    ['screen-state', '-d', 'demo', '--json'],
    ['config', '--json'],
    ['annotate', '-d', 'demo', '-o', '-'],
  ]) {
    it(`arc ${args.join(' ')} > /dev/full: exit OUTPUT_FAILED (13), said once on stderr, no stack`, async function () {
      if (!existsSync('/dev/full')) this.skip()
      expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
      const full = openSync('/dev/full', 'w')
      try {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], {
          cwd: await scratch(),
          env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'},
          stdio: ['ignore', full, 'pipe'],
        })
        let stderr = ''
        child.stderr?.on('data', (d: Buffer) => (stderr += d))
        const code = await new Promise((resolve) => child.on('close', resolve))
        expect(code, stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
        expect(stderr).to.equal('Error [OUTPUT_FAILED]: the disk is full\nTry: Free some space and run again.\n')
      } finally {
        closeSync(full)
      }
    })
  }

  it('arc screen-state --detail bogus --json > /dev/full: its own error said on stderr, not lost, with its own exit', async function () {
    if (!existsSync('/dev/full')) this.skip()
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
    const full = openSync('/dev/full', 'w')
    try {
      const child = spawn(
        process.execPath,
        [path.join(ROOT, 'bin', 'run.js'), 'screen-state', '-d', 'demo', '--detail', 'bogus', '--json'],
        {cwd: await scratch(), env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'}, stdio: ['ignore', full, 'pipe']}
      )
      let stderr = ''
      child.stderr?.on('data', (d: Buffer) => (stderr += d))
      const code = await new Promise((resolve) => child.on('close', resolve))
      expect(code, stderr).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(stderr)
        .to.match(/^Error \[INVALID_INPUT\]: .*--detail/)
        .and.not.match(NO_STACK)
      expect(stderr.match(/^Error \[/gm), 'said once').to.have.length(1)
    } finally {
      closeSync(full)
    }
  })
})

describe('hostile: the reader of a server’s log goes away', function () {
  this.timeout(60_000)
  const BIN = path.join(ROOT, 'bin', 'run.js')

  /** `arc ARGS` with its stdout and stderr read until `ready` matches, then closed, as `| grep -m1` closes them. */
  async function startThenCloseLog(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}) {
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: await scratch(),
      env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    let log = ''
    await new Promise<void>((resolve, reject) => {
      const read = (d: Buffer) => {
        log += d.toString()
        if (ready.test(log)) resolve()
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      void exited.then(() => reject(new Error(`exited early: ${log}`)))
    })
    child.stdout.destroy()
    child.stderr.destroy()
    return {child, exited, log}
  }

  it('arc emulate serves on, and stops with exit 0 on SIGTERM, its port file removed', async () => {
    const dir = await scratch()
    const portFile = path.join(dir, 'port.json')
    const {child, exited, log} = await startThenCloseLog(
      ['emulate', '--port', '0', '--port-file', portFile],
      /listening on 127\.0\.0\.1:\d+/
    )
    const port = /listening on 127\.0\.0\.1:(\d+)/.exec(log)?.[1]
    const read = await runArc(['screen-state', '-d', 'arc-virtual'], {
      env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${port}`},
    })
    expect(read.code, read.stderr).to.equal(0)
    expect(read.stdout).to.include('Groceries')
    // Its last line, on SIGTERM, now meets the closed pipe.
    child.kill('SIGTERM')
    expect(await exited).to.equal(0)
    expect(existsSync(portFile), 'the port file removed').to.equal(false)
  })

  it('arc mcp serve --record stops with exit 0 on SIGINT, its flow file written', async () => {
    const dir = await scratch()
    const flow = path.join(dir, 'session.yaml')
    const {child, exited, log} = await startThenCloseLog(
      ['mcp', 'serve', '--device', 'demo', '--port', '0', '--record', flow],
      /listening on http:\/\/127\.0\.0\.1:\d+\/mcp/,
      {ARC_MCP_TOKEN: 'log-reader-gone-token-0123456789'}
    )
    // Answered: past the listening line, the server waits for its signal (a SIGINT before that is a plain kill).
    const url = /listening on (http:\S+)/.exec(log)?.[1] as string
    expect((await fetch(url, {headers: {Authorization: 'Bearer wrong'}})).status).to.equal(401)
    // Its last line ("recorded 0 step(s) to …"), on SIGINT, now meets the closed pipe.
    child.kill('SIGINT')
    expect(await exited).to.equal(0)
    expect(existsSync(flow), 'the flow file written').to.equal(true)
  })
})

describe('hostile: a batch script that never ends', function () {
  // /dev/zero was read whole into a string until V8 refused it ("Invalid string length"): about a gigabyte and
  // seconds later. Only reading (never writing) the real device is safe here.
  it('arc batch /dev/zero: exit INVALID_INPUT (2) saying the script is over 16 MiB, no line run', async () => {
    const run = await runArc(['batch', '/dev/zero'])
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('batch file /dev/zero is over 16 MiB').and.not.match(NO_STACK)
    expect(run.stdout).to.equal('')
  })
})

describe('hostile: a flow file that never ends', function () {
  it('arc test /dev/zero: exit INVALID_INPUT (2) saying the flow file is over 16 MiB, before any device', async () => {
    const run = await runArc(['test', '/dev/zero', '--device', 'emulator-5554', '--adb-port', '9'])
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include('flow file /dev/zero is over 16 MiB').and.not.match(NO_STACK)
  })
})
