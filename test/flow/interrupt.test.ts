import {spawn} from 'node:child_process'
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {junitSchemaProblems} from '@arc-cli/test-support/junit-schema'
import {ROOT} from '@arc-cli/test-support/paths'
import {expect} from 'chai'

async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  ms = 30_000
): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`still waiting for ${typeof what === 'string' ? what : what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The processes now running and their command lines (Linux /proc), to find `arc test` children. */
async function processes(): Promise<Array<{pid: number; line: string}>> {
  const found: Array<{pid: number; line: string}> = []
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue
    const text = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
    if (text) found.push({pid: Number(pid), line: text.replaceAll('\0', ' ')})
  }
  return found
}

const commandLines = async () => (await processes()).map((p) => p.line)

/**
 * A CI runner cancels a job (or its timeout ends it) with SIGINT or SIGTERM, a person with Ctrl-C. arc test took
 * a first SIGINT as the running step's alone: the step was cancelled, the flow retried (a flow that then passed
 * made the run exit 0) and the later flows ran on. A SIGTERM ended it at once with no report, and with several
 * devices the child arc tests ran on, unwatched, acting on their devices.
 */
describe('arc test: stopped by SIGINT or SIGTERM', function () {
  this.timeout(90_000)
  const h = useEmulator({
    devices: [
      {serial: 'emu-1', snapshot: DEMO_DIR},
      {serial: 'emu-2', snapshot: DEMO_DIR},
    ],
  })
  const flow = async (name: string, text: string) => {
    const file = path.join(h.dir, name)
    await writeFile(file, text)
    return file
  }
  // A temporary folder of the runs' own: the scratch folder of a run with several devices must be gone after it.
  const tmp = () => path.join(h.dir, 'tmp')
  before(async () => mkdir(tmp(), {recursive: true}))
  const start = (args: string[]) => {
    const child = spawn(process.execPath, arcNodeArgs(args), {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ANDROID_SERIAL: '', TMPDIR: tmp(), ...h.env},
    })
    const run = {stdout: '', stderr: '', child, code: undefined as number | null | undefined}
    child.stdout.on('data', (d) => (run.stdout += d))
    child.stderr.on('data', (d) => (run.stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve((run.code = code))))
    return {run, exited}
  }
  const taps = (from: number) =>
    h.emu.commands
      .slice(from)
      .filter((c) => c.argv[0] === 'input' && c.argv[1] === 'tap')
      .map((c) => `${c.serial} ${c.argv.slice(2).join(' ')}`)
  const cases = (xml: string) =>
    [...xml.matchAll(/<testcase name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map((m) => {
      const body = m[2] as string
      const state = body.includes('<failure')
        ? /type="([^"]*)"/.exec(body)?.[1]
        : body.includes('<skipped')
          ? 'skipped'
          : 'passed'
      return `${m[1]} ${state}`
    })

  for (const [signal, status] of [
    ['SIGINT', exitCodeFor('CANCELLED')],
    ['SIGTERM', 128 + os.constants.signals.SIGTERM],
  ] as const) {
    it(`${signal}: the step running is cancelled, nothing more runs (no retry, no later flow), the report says so`, async () => {
      const slow = await flow(`slow-${signal}.flow`, 'tap 1 1\nwait element text NOPE --timeout 15000\ntap 2 2\n')
      const later = await flow(`later-${signal}.flow`, 'tap 3 3\n')
      const report = path.join(h.dir, `report-${signal}`)
      const from = h.emu.commands.length
      const {run, exited} = start(['test', slow, later, '-d', 'emu-1', '--retries', '2', '--report-dir', report])
      await until(() => run.stderr.includes(`${slow}:2 wait element`), 'the wait step')
      run.child.kill(signal)
      expect(await exited, run.stderr).to.equal(status)
      expect(run.stderr).to.include('0 passed, 1 failed, 1 not run')
      expect(run.stderr).to.not.include('retrying')
      expect(taps(from)).to.deep.equal(['emu-1 1 1'])
      const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
      expect(junitSchemaProblems(xml)).to.deep.equal([])
      expect(cases(xml)).to.deep.equal([`slow-${signal} CANCELLED`, `later-${signal} skipped`])
      expect(xml).to.include(`skipped="1"`).and.include(`not run: arc test was stopped by ${signal}`)
      expect(await readFile(path.join(report, 'summary.md'), 'utf8')).to.include(`not run (${signal})`)
    })
  }

  it('several devices: a SIGTERM stops every child at its step, each device reported, nothing left behind', async () => {
    const slow = await flow('slow-many.flow', 'tap 1 1\nwait element text NOPE --timeout 60000\ntap 2 2\n')
    const later = await flow('later-many.flow', 'tap 3 3\n')
    const report = path.join(h.dir, 'report-many')
    const from = h.emu.commands.length
    const {run, exited} = start(['test', slow, later, '-d', 'emu-1', '-d', 'emu-2', '--report-dir', report])
    await until(
      () => ['emu-1', 'emu-2'].every((d) => run.stderr.includes(`[${d}] ${slow}:2 wait element`)),
      'both wait steps'
    )
    // The runner signals arc test alone, not its children.
    run.child.kill('SIGTERM')
    expect(await exited, run.stderr).to.equal(128 + os.constants.signals.SIGTERM)
    expect(taps(from).sort()).to.deep.equal(['emu-1 1 1', 'emu-2 1 1'])
    expect(run.stderr).to.include('0 passed, 2 failed, 2 not run')
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(junitSchemaProblems(xml)).to.deep.equal([])
    expect(cases(xml)).to.deep.equal([
      'slow-many CANCELLED',
      'later-many skipped',
      'slow-many CANCELLED',
      'later-many skipped',
    ])
    expect((await commandLines()).filter((l) => l.includes(report))).to.deep.equal([])
    expect((await readdir(tmp())).filter((name) => name.startsWith('arc-test-'))).to.deep.equal([])
  })

  // A child stopped on its own (its device's runner, an operator) between flows reported its later flows as not run,
  // and the parent, with no failed flow, exited 0: flows that never ran passed the pipeline.
  it('several devices: flows a stopped child never ran fail the run, even with no failed flow', async () => {
    // logs --follow ends normally when interrupted: the flow passes, and the stop comes before the next flow.
    const follow = await flow('follow.flow', 'logs --follow\n')
    const later = await flow('later-child.flow', 'tap 6 6\n')
    const report = path.join(h.dir, 'report-child')
    const from = h.emu.commands.length
    const {run, exited} = start(['test', follow, later, '-d', 'emu-1', '-d', 'emu-2', '--report-dir', report])
    await until(
      () => ['emu-1', 'emu-2'].every((d) => run.stderr.includes(`[${d}] ${follow}:1 logs --follow`)),
      () => `both logs steps: ${run.stderr}`
    )
    // Both logcat streams running: the stop then finds each logs step under way (it winds up and passes).
    await until(
      () =>
        ['emu-1', 'emu-2'].every((d) =>
          h.emu.commands.slice(from).some((c) => c.serial === d && c.argv.includes('logcat'))
        ),
      'both logcat streams'
    )
    const found = (await processes()).filter((p) => p.line.includes('--results') && p.line.includes(report))
    expect(found).to.have.length(2)
    for (const child of found) process.kill(child.pid, 'SIGTERM')
    expect(await exited, run.stderr).to.equal(128 + os.constants.signals.SIGTERM)
    expect(run.stderr).to.include('2 passed, 0 failed, 2 not run')
    expect(taps(from)).to.deep.equal([])
  })

  // A child that died (killed, out of memory) had every one of its flows reported 'arc test could not run on X',
  // status 6, the flows it had passed included, and nothing said how it ended.
  it('several devices: a child that dies keeps the flows it finished, and the rest say how it ended', async () => {
    const first = await flow('first-done.flow', 'tap 8 8\n')
    const slow = await flow('slow-dies.flow', 'wait element text NOPE --timeout 60000\n')
    const report = path.join(h.dir, 'report-dies')
    const {run, exited} = start(['test', first, slow, '-d', 'emu-1', '-d', 'emu-2', '--report-dir', report])
    await until(
      () => ['emu-1', 'emu-2'].every((d) => run.stderr.includes(`[${d}] ${slow}:1 wait element`)),
      () => `both wait steps: ${run.stderr}`
    )
    const child = (device: string) =>
      processes().then((all) =>
        all.find(
          (p) => p.line.includes('--results') && p.line.includes(report) && p.line.includes(`--device ${device}`)
        )
      )
    process.kill((await child('emu-1'))!.pid, 'SIGKILL')
    await until(async () => (await child('emu-1')) === undefined, 'the killed child to go')
    process.kill((await child('emu-2'))!.pid, 'SIGTERM')
    expect(await exited, run.stderr).to.not.equal(0)
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(junitSchemaProblems(xml)).to.deep.equal([])
    expect(cases(xml)).to.deep.equal([
      'first-done passed',
      `slow-dies exit ${128 + os.constants.signals.SIGKILL}`,
      'first-done passed',
      'slow-dies CANCELLED',
    ])
    expect(xml).to.include('the arc test on emu-1 was killed by SIGKILL before it finished this flow')
  })

  // --keep-going went on after Ctrl-C: the line after the cancelled one acted on the device.
  it('arc batch --keep-going: Ctrl-C stops the batch, not only its line', async () => {
    const file = await flow('keep-going.batch', 'wait element text NOPE --timeout 15000 -d emu-1\ntap 4 4 -d emu-1\n')
    const from = h.emu.commands.length
    const {run, exited} = start(['batch', file, '--keep-going'])
    await until(() => run.stderr.includes(`${file}:1 wait element`), 'the wait line')
    // The wait is reading the device (a Ctrl-C before its command runs ends the batch by Node's default, exit 130 too,
    // but not by the path under test).
    await until(() => h.emu.commands.slice(from).some((c) => c.serial === 'emu-1'), 'the wait to read the screen')
    run.child.kill('SIGINT')
    expect(await exited, run.stderr).to.equal(exitCodeFor('CANCELLED'))
    expect(run.stderr).to.include('[CANCELLED]').and.not.include(`${file}:2 tap`)
    expect(taps(from)).to.deep.equal([])
  })

  // A second arc test into the report folder of one still running cleared the first's failure folders (its pictures
  // gone from under its report) and the two then wrote junit.xml over each other: one run's report was lost.
  it('a second arc test into the --report-dir of one still running is refused before it clears or acts', async () => {
    const failing = await flow('fails-first.flow', 'find text NOPE --exact-match\n')
    const slow = await flow('slow-report.flow', 'wait element text NOPE --timeout 15000\n')
    const other = await flow('other-run.flow', 'tap 5 5\n')
    const report = path.join(h.dir, 'report-shared')
    const {run, exited} = start(['test', failing, slow, '-d', 'emu-1', '--report-dir', report])
    await until(() => run.stderr.includes(`${slow}:1 wait element`), 'the first run at its wait step')
    const folders = async () => (await readdir(report)).filter((name) => name.startsWith('fails-first'))
    expect(await folders()).to.have.length(1)
    const from = h.emu.commands.length
    const second = start(['test', other, '-d', 'emu-2', '--report-dir', report])
    expect(await second.exited, second.run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(second.run.stderr).to.include('--report-dir').and.include(`another arc test (pid ${run.child.pid})`)
    // Nothing of the first run's report was touched, and the second sent its device nothing.
    expect(await folders()).to.have.length(1)
    expect(h.emu.commands.slice(from).filter((c) => c.serial === 'emu-2')).to.deep.equal([])
    run.child.kill('SIGINT')
    expect(await exited, run.stderr).to.equal(exitCodeFor('CANCELLED'))
    expect(cases(await readFile(path.join(report, 'junit.xml'), 'utf8'))).to.deep.equal([
      `fails-first exit ${exitCodeFor('ELEMENT_NOT_FOUND')}`,
      'slow-report CANCELLED',
    ])
    // The folder is free again once the first run ended.
    const after = start(['test', other, '-d', 'emu-2', '--report-dir', report])
    expect(await after.exited, after.run.stderr).to.equal(0)
  })

  it('several devices: a parent killed outright (SIGKILL) leaves no child acting on its device', async () => {
    const slow = await flow('slow-orphan.flow', 'wait element text NOPE --timeout 60000\ntap 2 2\n')
    const report = path.join(h.dir, 'report-orphan')
    const from = h.emu.commands.length
    const {run, exited} = start(['test', slow, '-d', 'emu-1', '-d', 'emu-2', '--report-dir', report])
    await until(
      () => ['emu-1', 'emu-2'].every((d) => run.stderr.includes(`[${d}] ${slow}:1 wait element`)),
      'both wait steps'
    )
    run.child.kill('SIGKILL')
    await exited
    // The children stop (well before their 60 s wait runs out) and never reach line 2.
    await until(async () => (await commandLines()).every((l) => !l.includes(report)), 'the children to end', 20_000)
    expect(taps(from)).to.deep.equal([])
  })
})
