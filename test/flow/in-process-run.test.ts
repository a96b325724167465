import {fork} from 'node:child_process'
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {scratch} from '@arc-cli/test-support/hostile'
import {ROOT} from '@arc-cli/test-support/paths'

describe('arc test run in a process that has an IPC channel of its own', function () {
  this.timeout(120_000)

  it('leaves that channel as it was: the process is kept alive by it after the run (a test runner’s worker was not)', async () => {
    const dir = await scratch()
    const flow = path.join(dir, 'read.flow')
    await writeFile(flow, 'screen-state\n')
    const child = fork(path.join(ROOT, 'test/flow/in-process-test-run.ts'), [flow, dir], {
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
})
