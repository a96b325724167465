import {spawn} from 'node:child_process'
import path from 'node:path'

import {openSnapshot, type LogEvent} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'
import {DEMO_DIR, useDemoDevice} from '@arc-cli/test-support/emulator-support'
import {toolContext} from '@arc-cli/test-support/tool-context'

const logs = tools.find((t) => t.name === 'get_device_logs')!

/** Resolves once `check` holds, polling every 20 ms (fails the test after 10 s). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20))
  if (!check()) throw new Error('condition never held')
}

describe('logs --follow and --clear through the ADB driver', () => {
  const h = useDemoDevice({
    packages: [{name: 'com.example.calc', launcher: '.Main'}],
    logcat: [
      {time: '01-15 10:30:01.000', level: 'I', tag: 'Old', message: 'backlog one'},
      {time: '01-15 10:30:02.000', level: 'W', tag: 'Old', message: 'backlog two'},
    ],
  })

  it('followLogs streams the backlog, then new lines as they are logged, until aborted', async () => {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const seen: LogEvent[] = []
    const controller = new AbortController()
    const following = driver.followLogs({lastLines: 1, level: 'I', tag: 'App'}, (e) => seen.push(e), controller.signal)
    await until(() => h.emu.commands.length > from)
    expect(h.argvSince(from)).to.deep.equal([['logcat', '-v', 'threadtime', '-T', '1', '*:I']])
    const device = h.emu.device('emu-1')
    device.appendLog({time: '01-15 10:31:00.000', level: 'E', tag: 'App', message: 'new line'})
    device.appendLog({time: '01-15 10:31:01.000', level: 'E', tag: 'Other', message: 'filtered out by tag'})
    device.appendLog({time: '01-15 10:31:02.000', level: 'D', tag: 'App', message: 'filtered out by level'})
    await until(() => seen.length >= 1)
    controller.abort()
    await following
    expect(seen).to.have.length(1)
    expect(seen[0]).to.deep.include({
      line: '01-15 10:31:00.000 E/App: new line',
      level: 'E',
      tag: 'App',
      message: 'new line',
    })
    await until(() => h.emu.runningShells().length === 0)
    await driver.close()
  })

  it('--clear alone sends logcat -c; a snapshot refuses it', async () => {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver)
    const result = await logs.handler(ctx, {...logs.input.parse({}), clear: true, follow: false})
    expect(h.argvSince(from)).to.deep.equal([['logcat', '-c']])
    expect(result.text).to.equal('Device logs cleared')
    expect(h.emu.device('emu-1').logcat).to.have.length(0)
    await driver.close()
    const snapshot = await openSnapshot(DEMO_DIR, 'demo')
    const refused = await snapshot.clearLogs().then(
      () => undefined,
      (error: {code: string}) => error.code
    )
    expect(refused).to.equal('DEVICE_READ_ONLY')
  })

  it('--follow without a stream to write to (MCP) or with --since is refused before anything is sent', async () => {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver)
    for (const extra of [{}, {since: '2024-01-15T10:30:00'}]) {
      try {
        await logs.handler(ctx, {...logs.input.parse(extra), follow: true, clear: false})
        expect.fail('should refuse')
      } catch (error) {
        expect((error as {code: string}).code).to.equal('INVALID_INPUT')
      }
    }
    expect(h.argvSince(from)).to.deep.equal([])
    await driver.close()
  })

  it('arc logs --follow prints each line as one-shot arc logs prints it', async function () {
    this.timeout(60_000)
    const child = spawn(
      process.execPath,
      [
        '--conditions=arc-source',
        path.join(ROOT, 'bin', 'dev.js'),
        'logs',
        '--follow',
        '--level',
        'E',
        '--last-lines',
        '1',
      ],
      {
        cwd: ROOT,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ANDROID_SERIAL: '', ...h.env},
      }
    )
    let stdout = ''
    child.stdout.on('data', (d) => (stdout += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await until(() => h.emu.runningShells().length > 0)
    h.emu.device('emu-1').appendLog({time: '01-15 10:33:00.000', level: 'E', tag: 'Plain', message: 'a \u001b[2Jb'})
    await until(() => stdout.includes('Plain'))
    child.kill('SIGINT')
    expect(await exited).to.equal(0)
    const oneShot = await runArc(['logs', '--level', 'E', '--last-lines', '1'], {env: h.env})
    expect(oneShot.stdout).to.equal('01-15 10:33:00.000 E/Plain: a \\x1b[2Jb\n')
    expect(stdout.trimEnd().split('\n').at(-1)).to.equal(oneShot.stdout.trimEnd())
    await until(() => h.emu.runningShells().length === 0)
  })

  it('arc logs --follow --json prints JSON lines until Ctrl-C, then exits 0', async function () {
    this.timeout(60_000)
    const child = spawn(
      process.execPath,
      ['--conditions=arc-source', path.join(ROOT, 'bin', 'dev.js'), 'logs', '--follow', '--json', '--level', 'W'],
      {
        cwd: ROOT,
        env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ANDROID_SERIAL: '', ...h.env},
      }
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await until(() => h.emu.runningShells().length > 0)
    h.emu.device('emu-1').appendLog({time: '01-15 10:32:00.000', level: 'W', tag: 'Cli', message: 'streamed'})
    // Not the first line: the backlog (`-T`) may print an earlier W-or-above line first.
    await until(() => stdout.includes('streamed'))
    child.kill('SIGINT')
    expect(await exited).to.equal(0)
    expect(stderr).to.equal('')
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines.at(-1)).to.deep.include({line: '01-15 10:32:00.000 W/Cli: streamed', tag: 'Cli', level: 'W'})
    await until(() => h.emu.runningShells().length === 0)
  })
})
