import {fork} from 'node:child_process'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {scratch} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'

describe('arc test run in a process that has an IPC channel of its own', function () {
  this.timeout(120_000)

  // every-command.test.ts runs arc test in process with each option flag set in turn, the hidden --results too: a
  // run given --results took the worker's channel for a parent arc test's until children carried ARC_TEST_CHILD.
  for (const [label, more] of [
    ['', []],
    [' (--results given, as every-command gives each flag)', ['--results', 'results.json']],
  ] as const) {
    it(`leaves that channel as it was: the process is kept alive by it after the run (a test runner’s worker was not)${label}`, async () => {
      const dir = await scratch()
      const flow = path.join(dir, 'read.flow')
      await writeFile(flow, 'screen-state\n')
      const child = fork(path.join(ROOT, 'test/flow/in-process-test-run.ts'), [flow, dir, ...more], {
        cwd: ROOT,
        execArgv: ['--conditions=arc-source', '--import', 'tsx'],
        env: {...process.env, NODE_OPTIONS: ''},
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      })
      let out = ''
      child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
      child.on('message', (message) => {
        if (message === 'ran') child.send('bye')
      })
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      expect(out).to.not.include('loop emptied')
      expect(code, out).to.equal(7)
    })
  }
})
