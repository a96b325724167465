import {spawn, spawnSync} from 'node:child_process'
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc, runProgram} from '@arc-cli/test-support/run-arc'
import {arcNodeArgs} from '@arc-cli/test-support/built-cli'
import {countedConfig} from '@arc-cli/test-support/counted-config'
import {expect} from 'chai'

/** The elements of a JUnit XML report a CI system reads, by a plain reading of its tags and attributes. */
function junitCases(xml: string): Array<{suite: string; name: string; failure?: string}> {
  const cases: Array<{suite: string; name: string; failure?: string}> = []
  for (const suite of xml.matchAll(/<testsuite name="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    for (const tc of (suite[2] as string).matchAll(/<testcase name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)) {
      const failure = /<failure message="([^"]*)"/.exec(tc[2] as string)?.[1]
      cases.push({suite: suite[1] as string, name: tc[1] as string, ...(failure === undefined ? {} : {failure})})
    }
  }
  return cases
}

describe('arc test: flow files', function () {
  this.timeout(60_000)
  const h = useEmulator({
    devices: [
      {serial: 'emu-1', snapshot: DEMO_DIR},
      {serial: 'emu-2', snapshot: DEMO_DIR},
      {serial: 'emu-3', snapshot: DEMO_DIR},
    ],
  })
  const flow = async (name: string, text: string) => {
    const file = path.join(h.dir, name)
    await writeFile(file, text)
    return file
  }

  it('runs every step, echoes each with its file and line, and hands a captured value to a later step', async () => {
    const file = await flow(
      'pass.flow',
      [
        '# find the ADD button and tap it',
        'set LABEL ADD',
        'capture BUTTON elements.0.id find text ${LABEL} --exact-match',
        'click ${BUTTON}',
        '',
      ].join('\n')
    )
    const start = h.emu.commands.length
    const run = await runArc(['test', file, '--device', 'emu-1'], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr)
      .to.include(`${file}:2 set LABEL ADD`)
      .and.include(`${file}:3 capture BUTTON elements.0.id find text ADD --exact-match`)
    const id = /Click performed on element '(node_[a-z0-9]+)'/.exec(run.stdout)?.[1]
    expect(id, run.stdout).to.be.a('string')
    expect(run.stderr).to.include(`${file}:4 click ${id}`)
    expect(run.stderr).to.include('1 passed, 0 failed')
    // One tap, inside ADD (801,231-1038,357 in the demo screen), not in the "Add an item" field beside it.
    const taps = h.argvSince(start).filter((argv) => argv[0] === 'input' && argv[1] === 'tap')
    expect(taps).to.have.length(1)
    const [x, y] = [Number(taps[0]![2]), Number(taps[0]![3])]
    expect(x).to.be.within(801, 1037)
    expect(y).to.be.within(231, 356)
  })

  it('checks the whole file before any step runs: an unknown command on a late line sends nothing to the device', async () => {
    const file = await flow('unknown.flow', ['tap 10 20', 'press back', 'tpa 1 2', ''].join('\n'))
    const start = h.emu.commands.length
    const run = await runArc(['test', file, '--device', 'emu-1'], {env: h.env})
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stderr).to.include(`${file}:3: "tpa 1" is not an arc command`)
    expect(h.emu.commands.length).to.equal(start)
  })

  // A flow of set lines alone ran nothing and passed: a green CI job that tested nothing.
  it('refuses a flow that runs no command: only comments, or only set lines', async () => {
    const empty = await flow('empty.flow', '# nothing yet\n\n')
    const sets = await flow('only-sets.flow', 'set USER alice\nset PASS "s3cret"\n')
    const start = h.emu.commands.length
    for (const [file, said] of [
      [empty, 'the flow has no steps'],
      [sets, 'the flow runs no command (its 2 lines only set variables)'],
    ] as const) {
      const run = await runArc(['test', file, '--device', 'emu-1'], {env: h.env})
      expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr).to.include(`${file}:1: ${said}`)
    }
    expect(h.emu.commands.length).to.equal(start)
  })

  it('refuses a variable no earlier line sets and the environment lacks, before running anything', async () => {
    const file = await flow('unset.flow', ['tap 10 20', 'click ${NOPE}', ''].join('\n'))
    const start = h.emu.commands.length
    const run = await runArc(['test', file, '--device', 'emu-1'], {env: h.env})
    expect(run.code).to.equal(exitCodeFor('INVALID_INPUT'))
    // Its place once: the check's error was wrapped again, `FILE:2: FILE:2: ${NOPE} is not set`.
    expect(run.stderr).to.include(`Error [INVALID_INPUT]: ${file}:2: \${NOPE} is not set`)
    expect(h.emu.commands.length).to.equal(start)
    // From the environment it is fine; '…' keeps it literal.
    const envFlow = await flow(
      'env.flow',
      ["assert gone --text '${NOT_EXPANDED}'", 'find text ${ARC_FLOW_WORD}', ''].join('\n')
    )
    const ok = await runArc(['test', envFlow, '--device', 'emu-1'], {env: {...h.env, ARC_FLOW_WORD: 'ADD'}})
    expect(ok.code, ok.stderr).to.equal(0)
    expect(ok.stderr)
      .to.include(`${envFlow}:1 assert gone --text '\${NOT_EXPANDED}'`)
      .and.include(`${envFlow}:2 find text "\${ARC_FLOW_WORD}"`)
  })

  // CI secrets reach a flow through the environment, and a CI log keeps what arc test echoes.
  it('echoes a value of the environment by its variable, never its value, also through a variable set from it', async () => {
    const file = await flow(
      'secret.flow',
      [
        'set WORD ${ARC_SECRET_WORD}',
        'set LABEL "x${WORD}y"',
        'set PLAIN "No such row"',
        'find text ${WORD}',
        'assert gone --text "${LABEL} $PLAIN \\ `" --exact-match',
        'assert gone --text ${PLAIN} --exact-match',
        '',
      ].join('\n')
    )
    const run = await runArc(['test', file, '--device', 'emu-1'], {env: {...h.env, ARC_SECRET_WORD: 'ADD'}})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr)
      .to.include(`${file}:1 set WORD "\${ARC_SECRET_WORD}"\n`)
      .and.include(`${file}:2 set LABEL "x\${WORD}y"\n`)
      .and.include(`${file}:4 find text "\${WORD}"\n`)
      // The other characters of the word as the flow reads them back inside "…".
      .and.include(`${file}:5 assert gone --text "\${LABEL} \\$PLAIN \\\\ \\\`" --exact-match\n`)
      // A value the flow set itself is shown.
      .and.include(`${file}:6 assert gone --text 'No such row' --exact-match\n`)
    expect(run.stderr).to.not.include('ADD')
  })

  // Words were echoed joined by spaces: a value with a space read as several words, an empty one as nothing at all.
  it('echoes each step as the flow would read it back: a word with a space or nothing in it quoted', async () => {
    const file = await flow(
      'echo.flow',
      'set ITEM "No such row"\nset NONE ""\nassert gone --text ${ITEM} --exact-match\nassert gone --text "${NONE}zq9"\n'
    )
    const run = await runArc(['test', file, '--device', 'emu-1'], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr)
      .to.include(`${file}:1 set ITEM 'No such row'\n`)
      .and.include(`${file}:2 set NONE ''\n`)
      .and.include(`${file}:3 assert gone --text 'No such row' --exact-match\n`)
      .and.include(`${file}:4 assert gone --text zq9\n`)
  })

  it("stops a flow at its first failing step, with that step's exit status, and retries the flow", async () => {
    const file = await flow(
      'fail.flow',
      ['tap 10 20', 'screenshot --element node_zzzzzz -o x.png', 'tap 30 40', ''].join('\n')
    )
    const start = h.emu.commands.length
    const run = await runArc(['test', file, '--device', 'emu-1', '--retries', '1'], {env: h.env})
    expect(run.code).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(run.stderr).to.include('retrying').and.include('attempt 2 of 2').and.include('0 passed, 1 failed')
    const taps = h.argvSince(start).filter((argv) => argv[0] === 'input' && argv[1] === 'tap')
    // Line 1 on each attempt, never line 3.
    expect(taps).to.deep.equal([
      ['input', 'tap', '10', '20'],
      ['input', 'tap', '10', '20'],
    ])
  })

  it('--report-dir: a JUnit report, a summary, and for a failure the screen, an annotated screenshot and the log', async () => {
    const good = await flow('good.flow', 'find text ADD\n')
    const bad = await flow('bad.flow', 'find text ADD\nclick --text "No such button"\n')
    const report = path.join(h.dir, 'report')
    const began = performance.now()
    const run = await runArc(['test', good, bad, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    const wall = (performance.now() - began) / 1000
    expect(run.code).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).to.equal(true)
    expect(xml).to.match(/<testsuites name="arc test" tests="2" failures="1" errors="0" time="[\d.]+">/)
    // <testsuites time> is the run's: its flows and what the run did besides (saving the failure's pictures), within
    // the time the process took; the suite's is its flows' alone.
    const total = Number(/<testsuites [^>]*time="([\d.]+)"/.exec(xml)?.[1])
    const suite = Number(/<testsuite [^>]*time="([\d.]+)"/.exec(xml)?.[1])
    expect(total).to.be.greaterThan(suite).and.at.most(wall)
    const cases = junitCases(xml)
    expect(cases.map((c) => [c.suite, c.name, c.failure !== undefined])).to.deep.equal([
      ['emu-1', 'good', false],
      ['emu-1', 'bad', true],
    ])
    expect(cases[1]!.failure).to.match(new RegExp(`^${bad.replaceAll('.', '\\.')}:2: Error \\[ELEMENT_NOT_FOUND\\]: `))
    const saved = (await readdir(path.join(report, 'bad-emu-1'))).sort()
    // The marker says the folder is this run's: the next run into the report folder clears it.
    expect(saved).to.deep.equal(['.arc-test-failure.json', 'device.log', 'screen.jpg', 'snapshot'])
    expect((await readdir(path.join(report, 'bad-emu-1', 'snapshot'))).sort()).to.include.members([
      'meta.json',
      'screen.png',
      'window_dump.xml',
    ])
    const jpeg = await readFile(path.join(report, 'bad-emu-1', 'screen.jpg'))
    expect(jpeg.subarray(0, 2).toString('hex')).to.equal('ffd8')
    const summary = await readFile(path.join(report, 'summary.md'), 'utf8')
    expect(summary).to.include('1 passed, 1 failed').and.include('![the screen when it failed](bad-emu-1/screen.jpg)')
    expect(run.stderr)
      .to.include(`report: ${path.join(report, 'junit.xml')}`)
      .and.include(`saved: ${path.join(report, 'bad-emu-1', 'screen.jpg')}`)
  })

  // Both were named `login`: two test cases of one name (CI systems show one), and the second failure's snapshot,
  // screenshot and log went into the first's folder over its own.
  it('flows of one file name in different folders, or one file named twice: each its own test case and failure folder', async () => {
    await mkdir(path.join(h.dir, 'team-a'), {recursive: true})
    await mkdir(path.join(h.dir, 'team-b'), {recursive: true})
    const a = await flow('team-a/login.flow', 'assert visible --text FROM_A\n')
    const b = await flow('team-b/login.flow', 'assert visible --text FROM_B\n')
    const report = path.join(h.dir, 'report-same-names')
    const run = await runArc(['test', a, b, a, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(run.code, run.stderr).to.equal(exitCodeFor('ASSERTION_FAILED'))
    const names = ['team-a/login', 'team-b/login', 'team-a/login (2)']
    const xml = await readFile(path.join(report, 'junit.xml'), 'utf8')
    expect(junitCases(xml).map((c) => c.name)).to.deep.equal(names)
    const folders = (await readdir(report)).filter((name) => !/\.(xml|md)$/.test(name))
    expect(folders).to.have.length(3)
    const summary = await readFile(path.join(report, 'summary.md'), 'utf8')
    for (const folder of folders) {
      expect(await readdir(path.join(report, folder))).to.include('screen.jpg')
      expect(summary).to.include(`](${encodeURIComponent(folder)}/screen.jpg)`)
    }
  })

  // The folder was made with a recursive mkdir after the flows were read, and the report written with a plain
  // writeFile after they ran: a file in its place was INTERNAL (exit 1), a folder named junit.xml was found only once
  // every flow had acted on the device (INTERNAL, a passing run exiting 1), and under /proc the mkdir never settled.
  it('a --report-dir that cannot take the report: OUTPUT_FAILED (13) naming it, before any step runs', async () => {
    const file = await flow('report-refused.flow', 'tap 10 20\n')
    await writeFile(path.join(h.dir, 'report-is-a-file'), 'PRECIOUS\n')
    await mkdir(path.join(h.dir, 'report-junit-folder', 'junit.xml'), {recursive: true})
    const cases: Array<[string, string]> = [
      [path.join(h.dir, 'report-is-a-file'), `${path.join(h.dir, 'report-is-a-file')}: it is a file, not a folder`],
      [
        path.join(h.dir, 'report-junit-folder'),
        `${path.join(h.dir, 'report-junit-folder', 'junit.xml')}: it is a folder`,
      ],
      [path.join(h.dir, 'report-is-a-file', 'sub'), 'a part of the path is not a folder'],
    ]
    if (process.platform === 'linux') cases.push(['/proc/nope/report', 'the file system refuses to create it'])
    const start = h.emu.commands.length
    for (const [dir, said] of cases) {
      const run = await runArc(['test', file, '--device', 'emu-1', '--report-dir', dir], {
        env: h.env,
        timeoutMs: 30_000,
      })
      expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
      expect(run.stderr).to.include('--report-dir: cannot write').and.include(said).and.not.include('INTERNAL')
      expect(run.stderr).not.to.include(`${file}:1`)
    }
    expect(h.emu.commands.length).to.equal(start)
    expect(await readFile(path.join(h.dir, 'report-is-a-file'), 'utf8')).to.equal('PRECIOUS\n')
    expect(await readdir(path.join(h.dir, 'report-junit-folder'))).to.deep.equal(['junit.xml'])
  })

  // A failure's folder that could not be made, or its device.log not written, threw out of the run: INTERNAL (exit 1),
  // no junit.xml, and the failure the user had to see was never reported.
  it("a failed flow's pictures that cannot be saved: said on stderr, and the report and the flow's status stand", async () => {
    const bad = await flow('unsaved.flow', 'click --text "No such button"\n')
    const report = path.join(h.dir, 'report-unsaved')
    await mkdir(report)
    // Every name the failure folder could take is a file of the user's.
    const names = ['unsaved-emu-1', ...Array.from({length: 99}, (_, i) => `unsaved-emu-1-${i + 2}`)]
    for (const name of names) await writeFile(path.join(report, name), 'PRECIOUS\n')
    const run = await runArc(['test', bad, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(run.code, run.stderr).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(run.stderr)
      .to.include(`cannot save what unsaved.flow left on emu-1 in ${path.join(report, 'unsaved-emu-1')}`)
      .and.not.include('INTERNAL')
    expect(junitCases(await readFile(path.join(report, 'junit.xml'), 'utf8'))).to.have.length(1)
    for (const name of names) expect(await readFile(path.join(report, name), 'utf8')).to.equal('PRECIOUS\n')
  })

  // A flow named near the file system's limit (255 bytes), with `-DEVICE` after it, made a failure folder name past
  // it: mkdir failed (ENAMETOOLONG) and the failure's pictures were lost.
  it("a long flow name: the failure's pictures are saved, in a folder whose name the file system takes", async () => {
    const long = await flow(`${'x'.repeat(250)}.flow`, 'click --text "No such button"\n')
    const report = path.join(h.dir, 'report-long')
    const run = await runArc(['test', long, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(run.code, run.stderr).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(run.stderr).not.to.include('cannot save')
    const [folder, ...rest] = (await readdir(report)).filter((name) => !/\.(xml|md)$/.test(name))
    expect(rest).to.deep.equal([])
    expect(folder).to.match(/^x+-[0-9a-f]{8}$/)
    expect(await readdir(path.join(report, folder!))).to.include('screen.jpg')
    expect(await readFile(path.join(report, 'summary.md'), 'utf8')).to.include(`](${folder}/screen.jpg)`)
  })

  // A report folder used again kept the first run's failure folders beside the new report: a reader, or a CI job
  // uploading the folder, saw failures that did not happen in this run.
  it('a reused --report-dir shows this run’s failures only; what arc test did not write there stays', async () => {
    const good = await flow('reuse-good.flow', 'find text ADD\n')
    const bad = await flow('reuse-bad.flow', 'click --text "No such button"\n')
    const worse = await flow('reuse-worse.flow', 'click --text "No such button either"\n')
    const report = path.join(h.dir, 'report-reused')
    const first = await runArc(['test', good, bad, worse, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(first.code, first.stderr).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect((await readdir(report)).sort()).to.deep.equal([
      'junit.xml',
      'reuse-bad-emu-1',
      'reuse-worse-emu-1',
      'summary.md',
    ])
    // The user's own files: beside the report, and inside a failure folder.
    await writeFile(path.join(report, 'notes.txt'), 'MINE\n')
    await writeFile(path.join(report, 'reuse-worse-emu-1', 'triage.txt'), 'MINE\n')
    // A folder of the user's that bears a failure folder's name is not arc test's: never written into, never removed.
    await mkdir(path.join(report, 'reuse-good-emu-1'))

    // This time reuse-bad passes and reuse-good fails.
    const fixed = await flow('reuse-bad.flow', 'find text ADD\n')
    const broke = await flow('reuse-good.flow', 'click --text "Gone now"\n')
    const second = await runArc(['test', broke, fixed, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(second.code, second.stderr).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect((await readdir(report)).sort()).to.deep.equal([
      'junit.xml',
      'notes.txt',
      'reuse-good-emu-1',
      'reuse-good-emu-1-2',
      'reuse-worse-emu-1',
      'summary.md',
    ])
    expect(await readdir(path.join(report, 'reuse-good-emu-1'))).to.deep.equal([])
    expect((await readdir(path.join(report, 'reuse-good-emu-1-2'))).sort()).to.include.members([
      'screen.jpg',
      'snapshot',
    ])
    // The first run's folder that holds the user's file: arc test's own files gone, the user's kept, and said.
    expect((await readdir(path.join(report, 'reuse-worse-emu-1'))).sort()).to.deep.equal([
      '.arc-test-failure.json',
      'triage.txt',
    ])
    expect(second.stderr)
      .to.include(`report: removed 1 failure folder(s) an earlier arc test left in ${report}`)
      .and.include(`report: kept ${path.join(report, 'reuse-worse-emu-1')}, an earlier run's failure folder`)
      .and.include('(triage.txt)')
    expect(await readFile(path.join(report, 'notes.txt'), 'utf8')).to.equal('MINE\n')
    const summary = await readFile(path.join(report, 'summary.md'), 'utf8')
    expect(summary).to.include('reuse-good-emu-1-2/screen.jpg').and.not.include('reuse-bad-emu-1')
  })

  // The old junit.xml stood until the new one replaced it: a run killed before its report (SIGKILL, a runner's hard
  // timeout) left the earlier run's report for CI to read as this one's.
  it('a run that ends before its report leaves no earlier run’s report standing', async () => {
    const quick = await flow('quick.flow', 'find text ADD\n')
    const slow = await flow('slow.flow', 'wait element text NEVER --timeout 60s\n')
    const report = path.join(h.dir, 'report-killed')
    const first = await runArc(['test', quick, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(first.code, first.stderr).to.equal(0)
    expect((await readdir(report)).sort()).to.deep.equal(['junit.xml', 'summary.md'])
    const child = spawn(process.execPath, arcNodeArgs(['test', slow, '--device', 'emu-1', '--report-dir', report]), {
      env: {...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...h.env},
    })
    let stderr = ''
    const closed = new Promise((resolve) => child.on('close', resolve))
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        if (stderr.includes(`${slow}:1`)) resolve()
      })
    )
    child.kill('SIGKILL')
    await closed
    expect(await readdir(report)).to.deep.equal([])
  })

  it('runs on three devices at once, each flow on each, in one report; --shard splits the flows between them', async () => {
    const a = await flow('a.flow', 'tap 1 1\n')
    const b = await flow('b.flow', 'tap 2 2\n')
    const c = await flow('c.flow', 'tap 3 3\n')
    const report = path.join(h.dir, 'many')
    const start = h.emu.commands.length
    const devices = ['-d', 'emu-1', '-d', 'emu-2', '-d', 'emu-3']
    const all = await runArc(['test', a, b, c, ...devices, '--report-dir', report], {env: h.env})
    expect(all.code, all.stderr).to.equal(0)
    expect(all.stderr).to.include('9 passed, 0 failed').and.include(`[emu-2] ${b}:1 tap 2 2`)
    const cases = junitCases(await readFile(path.join(report, 'junit.xml'), 'utf8'))
    expect(cases.map((x) => `${x.suite}/${x.name}`).sort()).to.deep.equal(
      ['emu-1', 'emu-2', 'emu-3'].flatMap((d) => ['a', 'b', 'c'].map((f) => `${d}/${f}`)).sort()
    )
    const perDevice = (from: number) => {
      const taps = h.emu.commands.slice(from).filter((cmd) => cmd.argv[0] === 'input' && cmd.argv[1] === 'tap')
      return Object.fromEntries(
        ['emu-1', 'emu-2', 'emu-3'].map((d) => [
          d,
          taps
            .filter((t) => t.serial === d)
            .map((t) => t.argv[2])
            .sort(),
        ])
      )
    }
    expect(perDevice(start)).to.deep.equal({
      'emu-1': ['1', '2', '3'],
      'emu-2': ['1', '2', '3'],
      'emu-3': ['1', '2', '3'],
    })

    const shardStart = h.emu.commands.length
    const sharded = await runArc(['test', a, b, c, ...devices, '--shard'], {env: h.env})
    expect(sharded.code, sharded.stderr).to.equal(0)
    expect(sharded.stderr).to.include('3 passed, 0 failed')
    expect(perDevice(shardStart)).to.deep.equal({'emu-1': ['1'], 'emu-2': ['2'], 'emu-3': ['3']})
  })

  it('several devices with a TMPDIR that cannot take a folder: OUTPUT_FAILED naming TMPDIR, before any step', async () => {
    const file = await flow('tmpdir.flow', 'tap 1 1\n')
    const start = h.emu.commands.length
    const run = await runArc(['test', file, '-d', 'emu-1', '-d', 'emu-2'], {
      env: {...h.env, TMPDIR: path.join(h.dir, 'no-such-tmp')},
    })
    expect(run.code, run.stderr).to.equal(exitCodeFor('OUTPUT_FAILED'))
    expect(run.stderr)
      .to.include(`TMPDIR: cannot write ${path.join(h.dir, 'no-such-tmp')}`)
      .and.not.include('INTERNAL')
    expect(h.emu.commands.length).to.equal(start)
  })

  // arc test hands its --device to its steps as $ANDROID_SERIAL: a device that is not attached was reported, in the
  // terminal and in junit.xml, as coming from $ANDROID_SERIAL, with 'Unset ANDROID_SERIAL, or pass --device'.
  it('a --device that is not attached: DEVICE_NOT_FOUND (4) naming arc test --device, not $ANDROID_SERIAL', async () => {
    const file = await flow('absent.flow', 'tap 1 1\n')
    const report = path.join(h.dir, 'report-absent')
    for (const devices of [
      ['-d', 'nope'],
      ['-d', 'emu-1', '-d', 'nope'],
    ]) {
      const run = await runArc(['test', file, ...devices, '--report-dir', report], {env: h.env})
      expect(run.code, run.stderr).to.equal(exitCodeFor('DEVICE_NOT_FOUND'))
      expect(run.stderr)
        .to.include('device nope is not attached')
        .and.include('(the serial comes from arc test --device)')
      expect(run.stderr).not.to.include('ANDROID_SERIAL')
      const [failed] = junitCases(await readFile(path.join(report, 'junit.xml'), 'utf8')).filter((c) => c.failure)
      expect(failed?.failure).to.include('arc test --device').and.not.include('ANDROID_SERIAL')
      // Nothing of the device could be saved: no failure folder (one held only its marker).
      expect((await readdir(report)).sort()).to.deep.equal(['junit.xml', 'summary.md'])
    }
    // Without --device, a stale $ANDROID_SERIAL is still named as such.
    const stale = await runArc(['test', file], {env: {...h.env, ANDROID_SERIAL: 'nope'}})
    expect(stale.code, stale.stderr).to.equal(exitCodeFor('DEVICE_NOT_FOUND'))
    expect(stale.stderr).to.include('(the serial comes from $ANDROID_SERIAL)')
  })

  // arc test hands its --device and --adb-host/--adb-port to its steps through its process's environment; a `test`
  // line of a batch left them set there, and the batch's later lines acted on that device (or that adb server), not
  // on the one the batch was told to use.
  it('a `test` line of a batch leaves the batch its own device and adb server for the lines after it', async () => {
    const file = await flow('getprop.flow', 'shell -- getprop flow\n')
    const start = h.emu.commands.length
    const run = await runArc(['batch', '--keep-going'], {
      env: {...h.env, ANDROID_SERIAL: 'emu-1'},
      input: [
        `test ${file} -d emu-2`,
        'shell -- getprop after-device',
        // Port 1: no adb server there, so this line fails; the next must still reach the batch's server.
        `test ${file} --adb-host 127.0.0.1 --adb-port 1`,
        'shell -- getprop after-server',
        '',
      ].join('\n'),
    })
    expect(run.code, run.stderr).to.equal(exitCodeFor('DEVICE_UNAVAILABLE'))
    const asked = h.emu.commands
      .slice(start)
      .filter((c) => c.argv[0] === 'getprop')
      .map((c) => `${c.serial} ${c.argv.slice(1).join(' ')}`)
    expect(asked).to.deep.equal(['emu-2 flow', 'emu-1 after-device', 'emu-1 after-server'])
  })

  it('--adb-host alone keeps the port from the environment (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT), as every command does', async () => {
    const file = await flow('address.flow', 'tap 1 1\n')
    const port = /:(\d+)$/.exec(h.env.ADB_SERVER_SOCKET as string)?.[1] as string
    for (const [flags, env] of [
      [['--adb-host', '127.0.0.1'], h.env],
      [['--adb-host', '127.0.0.1'], {...h.env, ADB_SERVER_SOCKET: undefined, ANDROID_ADB_SERVER_PORT: port}],
      [['--adb-host', '127.0.0.1', '--adb-port', port], {...h.env, ADB_SERVER_SOCKET: 'tcp:192.0.2.1:9'}],
    ] as const) {
      const run = await runArc(['test', file, '--device', 'emu-1', ...flags], {env})
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).to.equal(0)
    }
  })

  it('on a terminal, the spinner and the colours stay on the terminal: the report holds plain text', async function () {
    // A terminal for stderr, as a person running arc test has: util-linux `script` gives the command one.
    if (spawnSync('script', ['--version']).status !== 0) return this.skip()
    const spin = await flow('spin.flow', 'wait element text NOPE --timeout 1500\n')
    const red = await flow('red.flow', 'assert visible --text NOPE\n')
    const report = path.join(h.dir, 'tty-report')
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`
    const words = [process.execPath, ...arcNodeArgs(['test', spin, red, '--device', 'emu-1', '--report-dir', report])]
    const env: NodeJS.ProcessEnv = {...process.env, ...h.env, NODE_OPTIONS: ''}
    for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR']) delete env[name]
    const run = await runProgram('script', ['-qec', words.map(quote).join(' '), '/dev/null'], {cwd: h.dir, env})
    expect(run.code, run.stdout).to.equal(11)
    // The spinner ran and the error was red on the terminal (else this test proves nothing)...
    expect(run.stdout).to.include('\r\u001B[2K').and.include('\u001B[31m')
    // ...and none of it reached the files a CI system or a person reads.
    for (const name of ['summary.md', 'junit.xml']) {
      const text = await readFile(path.join(report, name), 'utf8')
      expect(text, name).not.to.match(/[\u001B\r\uFFFD]|waiting for text/)
      expect(text, name).to.include('Error [ASSERTION_FAILED]: assert visible --text')
    }
    // The failure's type is the error code (docs/flows.md), read from the error's plain text.
    expect(await readFile(path.join(report, 'junit.xml'), 'utf8')).to.include('type="ASSERTION_FAILED"')
  })

  it("a step that fails by its exit status alone (a wait that ran out) reports what it printed, not a bare 'exit 11'", async () => {
    const file = await flow('ran-out.flow', 'wait element text NOPE --timeout 300\n')
    const report = path.join(h.dir, 'ran-out-report')
    const run = await runArc(['test', file, '--device', 'emu-1', '--report-dir', report], {env: h.env})
    expect(run.code, run.stderr).to.equal(11)
    const [failed] = junitCases(await readFile(path.join(report, 'junit.xml'), 'utf8'))
    expect(failed?.failure).to.match(/ran-out\.flow:1: Not found: no element with text containing &quot;NOPE&quot;/)
    expect(await readFile(path.join(report, 'summary.md'), 'utf8')).to.include('Not found: no element with text')
  })

  it('reads the config once for all its flows and steps (docs/config.md)', async () => {
    const {dir, reads} = await countedConfig(h.dir)
    const one = await flow('config-1.flow', 'tap 1 1\ntap 2 2\n')
    const two = await flow('config-2.flow', 'tap 3 3\nconfig\n')
    const run = await runArc(['test', one, two, '--device', 'emu-1'], {env: h.env, cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stderr).to.include('2 passed, 0 failed')
    expect(await reads()).to.equal(1)
    expect(run.stdout).to.match(/adb\.timeoutMs\s+19000\s+\S*\.arcrc\.mjs/)
  })
})
