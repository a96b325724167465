/**
 * A clone's `npm ci` ends without a warning to act on. npm 11.19 runs no dependency's install script unless the
 * project's `allowScripts` names it, and ends every install listing those it skipped, with `npm install-scripts
 * approve` to run: a first-time user was left to judge esbuild's postinstall. package.json records the decision
 * (docs/install.md, "From a clone"); an npm without `install-scripts` has no such gate, and the test skips there.
 */
import {execFile} from 'node:child_process'
import {promisify} from 'node:util'

import {expect} from 'chai'

import {ROOT} from '@arc-cli/test-support/paths'

const run = promisify(execFile)

describe("a clone's install scripts", function () {
  this.timeout(60_000)

  it('leaves none unreviewed (`npm install-scripts ls`)', async function () {
    const listed = await run('npm', ['install-scripts', 'ls'], {cwd: ROOT}).catch(
      (error: {stdout?: string; stderr?: string}) => ({stdout: error.stdout ?? '', stderr: error.stderr ?? ''})
    )
    if (/Unknown command/i.test(listed.stderr + listed.stdout)) this.skip()
    expect(listed.stdout.trim(), listed.stderr).to.equal('No packages with unreviewed install scripts.')
  })
})
