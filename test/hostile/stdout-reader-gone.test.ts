import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'

import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {scratch} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'

/**
 * A command whose stdout reader goes away mid-run (`arc batch … | head -1`): bin/run.js ends it with OUTPUT_FAILED
 * (13) at its next write. What it did before that must be on disk whole, and nothing of its own left behind.
 */
describe('hostile: the reader of a command’s stdout goes away mid-run', function () {
  this.timeout(120_000)
  const h = useEmulator({
    devices: [
      {serial: 'emu-1', app: 'demo'},
      {serial: 'emu-2', app: 'demo'},
    ],
  })

  /** `arc ARGS | head -1`: stdout read up to its first line, then closed; stderr read whole. */
  async function firstLineThenClose(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...args], {
      cwd,
      env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...h.env, ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (stdout.includes('\n')) child.stdout.destroy()
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    return {code, stderr}
  }

  it('arc batch --record | head -1: exit 13, and the flow file holds every step that acted on the device', async () => {
    const dir = await scratch()
    const script = path.join(dir, 'keys.txt')
    const keys = ['back', 'home', 'back', 'home', 'back', 'home']
    await writeFile(script, keys.map((k) => `press ${k}\n`).join(''))
    const flow = path.join(dir, 'keys.flow')
    const from = h.emu.commands.length
    const run = await firstLineThenClose(['batch', '-q', script, '--record', flow], dir, {ANDROID_SERIAL: 'emu-1'})
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    const acted = h.argvSince(from).filter((argv) => argv.includes('keyevent')).length
    expect(acted, 'a key pressed after the first line was read').to.be.greaterThan(1)
    const steps = (await readFile(flow, 'utf8')).split('\n').filter((l) => l !== '' && !l.startsWith('#'))
    expect(steps, run.stderr).to.deep.equal(keys.slice(0, acted).map((k) => `press ${k}`))
    expect(await readdir(dir)).to.have.members(['keys.txt', 'keys.flow'])
  })

  it('arc test on two devices | head -1: exit 13, its scratch folder removed', async () => {
    const dir = await scratch()
    const flow = path.join(dir, 'keys.flow')
    await writeFile(flow, 'press back\npress home\npress back\npress home\n')
    const tmp = path.join(dir, 'tmp')
    await mkdir(tmp)
    const run = await firstLineThenClose(['test', flow, flow, '--device', 'emu-1', '--device', 'emu-2'], dir, {
      TMPDIR: tmp,
    })
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    // The children's results went to a folder of the parent's own (arc-test-*) under TMPDIR.
    expect(await readdir(tmp), run.stderr).to.deep.equal([])
  })
})

describe('hostile: a reader that reads nothing (`arc … | true`)', function () {
  this.timeout(60_000)

  /** `arc ARGS | true`: the pipe's reader gone before arc writes a byte. Its exit status and stderr. */
  async function intoTrue(args: string[]): Promise<{code: number; stderr: string}> {
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
    const arc = [process.execPath, path.join(ROOT, 'bin', 'run.js'), ...args].map((w) => `'${w}'`).join(' ')
    const child = spawn('bash', ['-c', `${arc} 2>&3 | true; echo "\${PIPESTATUS[0]}"`], {
      cwd: await scratch(),
      env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'ignore', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stdio[3]?.on('data', (d: Buffer) => (stderr += d.toString()))
    await new Promise((resolve) => child.on('close', resolve))
    return {code: Number(stdout.trim()), stderr}
  }

  for (const args of [['--help'], ['screen-state', '--help'], ['help', 'tap'], ['--version']]) {
    it(`arc ${args.join(' ')} | true: oclif's own text ends quietly, exit 0`, async () => {
      expect(await intoTrue(args)).to.deep.equal({code: 0, stderr: ''})
    })
  }

  it('arc screen-state -d demo | true: exit OUTPUT_FAILED (13), saying the reader went away', async () => {
    const {code, stderr} = await intoTrue(['screen-state', '-d', 'demo'])
    expect(code, stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(stderr).to.include('Error [OUTPUT_FAILED]: stdout was closed before arc finished writing')
  })
})
