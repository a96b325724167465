/**
 * `-` is stdin or stdout to every flag of arc's that takes a file (`-o -`, `batch -`); the outputs that cannot be a
 * stream (a flow rewritten after every step, a report folder, a snapshot folder) refuse it before anything acts,
 * rather than make a file or folder named - in the current folder without a word of it.
 */
import {mkdtemp, readdir, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

describe('outputs that cannot be a stream refuse -', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-dash-'))
  })
  afterEach(async () => {
    await rm(dir, {recursive: true, force: true})
  })

  it('batch --record -, test --report-dir - and snapshot save - are INVALID_INPUT naming the input, and make nothing', async () => {
    await writeFile(path.join(dir, 'a.flow'), 'screen-state\n')
    const runs = [
      {argv: ['batch', '--record', '-'], input: 'screen-state\n', names: '--record'},
      {argv: ['test', 'a.flow', '--device', 'demo', '--report-dir', '-'], names: '--report-dir'},
      {argv: ['snapshot', 'save', '-', '--device', 'demo'], names: 'dir'},
    ]
    for (const {argv, input, names} of runs) {
      const run = await runArc(argv, {cwd: dir, env: {ANDROID_SERIAL: 'demo'}, ...(input === undefined ? {} : {input})})
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).to.equal(exitCodeFor('INVALID_INPUT'))
      expect(run.stderr, argv.join(' ')).to.include(names).and.include('cannot be -')
      expect(run.stdout, argv.join(' ')).to.equal('')
      expect(await readdir(dir), argv.join(' ')).to.deep.equal(['a.flow'])
    }
  })
})
