/**
 * A Node.js older than package.json's `engines` gets arc's own error, not a syntax error or a stack trace from the
 * first module using something newer. No old Node.js can be installed here, so the entries run on this one with
 * `process.versions.node` set to an older version by a preload, and the check's own syntax is held to ES5 by parsing
 * it (what every Node.js parses, as a module or as a CommonJS script).
 */
import {readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {exitCodeFor} from '@arc-cli/core'
import {parse} from 'acorn'
import {expect} from 'chai'

import {ROOT} from '@arc-cli/test-support/paths'
import {runProgram} from '@arc-cli/test-support/run-arc'
import {tempDir} from '@arc-cli/test-support/temp-dir'

const ENTRIES = [
  {entry: 'run.js', nodeArgs: [] as string[]},
  {entry: 'dev.js', nodeArgs: ['--conditions=arc-source']},
]
const ENGINES = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {engines: {node: string}}).engines
  .node

describe('bin/run.js and bin/dev.js on a Node.js older than engines', function () {
  this.timeout(60_000)
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({dir, cleanup} = tempDir())
    // The version this Node.js says it is: ARC_TEST_NODE_VERSION, set by each run below.
    writeFileSync(
      path.join(dir, 'fake-node-version.cjs'),
      "Object.defineProperty(process.versions, 'node', {value: process.env.ARC_TEST_NODE_VERSION})\n"
    )
  })
  after(() => cleanup())

  const runAs = (version: string, entry: string, nodeArgs: string[], args: string[]) =>
    runProgram(
      process.execPath,
      [...nodeArgs, '--require', path.join(dir, 'fake-node-version.cjs'), path.join(ROOT, 'bin', entry), ...args],
      {cwd: dir, env: {PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', ARC_TEST_NODE_VERSION: version}}
    )

  it("names the version engines asks for (each entry's check holds the same)", () => {
    for (const {entry} of ENTRIES) {
      const needed = /var NEEDED = '([\d.]+)'/.exec(readFileSync(path.join(ROOT, 'bin', entry), 'utf8'))?.[1]
      expect(`>=${needed}`, entry).to.equal(ENGINES)
    }
  })

  it('is ES5 up to the check: every Node.js parses it, as a CommonJS script too', () => {
    for (const {entry} of ENTRIES) {
      const source = readFileSync(path.join(ROOT, 'bin', entry), 'utf8')
      expect(() => parse(source, {ecmaVersion: 5, sourceType: 'script', allowHashBang: true}), entry).to.not.throw()
    }
  })

  for (const {entry, nodeArgs} of ENTRIES) {
    for (const old of ['18.19.1', '20.10.0', '20.18.3', '4.9.1']) {
      it(`${entry} on Node.js ${old}: UNSUPPORTED (exit 12) saying what is needed, what was found and how to get it`, async () => {
        const out = await runAs(old, entry, nodeArgs, ['screen-state', '-d', 'demo'])
        expect(out.code, out.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
        expect(out.stdout).to.equal('')
        const lines = out.stderr.trimEnd().split('\n')
        expect(lines[0]).to.equal(
          `Error [UNSUPPORTED]: arc needs Node.js 20.19.0 or newer, and this is Node.js ${old} (${process.execPath})`
        )
        expect(
          lines.slice(1).every((l) => l.startsWith('Try: ')),
          out.stderr
        ).to.equal(true)
        expect(lines[1]).to.include('Install Node.js 20.19 or newer')
        expect(lines[2]).to.include('first `node` on PATH')
      })
    }

    it(`${entry} --json: the error on stdout as every --json error is, with reason NODE_TOO_OLD`, async () => {
      const out = await runAs('20.10.0', entry, nodeArgs, ['device', 'info', '--json'])
      expect(out.code, out.stderr).to.equal(exitCodeFor('UNSUPPORTED'))
      expect(out.stderr).to.equal('')
      const {error} = JSON.parse(out.stdout) as {error: Record<string, unknown>}
      expect(error).to.deep.include({code: 'UNSUPPORTED', exitCode: exitCodeFor('UNSUPPORTED')})
      expect(error.details).to.deep.equal({
        reason: 'NODE_TOO_OLD',
        needed: '20.19.0',
        found: '20.10.0',
        node: process.execPath,
      })
    })

    // Not far beyond: tsx, which bin/dev.js loads, takes another path on a Node.js it does not know.
    for (const enough of ['20.19.0', '22.0.0']) {
      it(`${entry} on Node.js ${enough}: runs arc`, async () => {
        const out = await runAs(enough, entry, nodeArgs, ['--version'])
        expect(out.code, out.stderr).to.equal(0)
        expect(out.stdout).to.match(/^arc-cli\/\d+\.\d+\.\d+ /)
      })
    }
  }
})
