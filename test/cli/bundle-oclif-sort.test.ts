/**
 * scripts/bundle-core.js patches oclif's command sort (localeCompare, which builds ICU's collator at every start-up)
 * while it bundles the core. The patch must never be missed silently: a build in which oclif's plugin.js was not
 * there to patch fails, as one whose sort line changed does.
 */
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'
import type {Plugin} from 'esbuild'

import {commandOrderWithoutIcu} from '../../scripts/bundle-core.js'

describe("the core bundle's oclif command-sort patch (scripts/bundle-core.js)", function () {
  this.timeout(20_000)
  let dir: string

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'arc-oclif-sort-'))
  })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))

  /** The compare module the patch requires stays outside these small builds. */
  const compareOutside: Plugin = {
    name: 'compare-outside',
    setup(build) {
      build.onResolve({filter: /command-id-order\.js$/}, (args) => ({path: args.path, external: true}))
    },
  }

  const bundle = async (entry: string) => {
    const esbuild = await import('esbuild')
    return esbuild.build({
      entryPoints: [entry],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
      plugins: [commandOrderWithoutIcu, compareOutside],
      logLevel: 'silent',
    })
  }

  /** A stand-in for @oclif/core's lib/config/plugin.js holding `line`, and an entry that imports it. */
  const withPlugin = (line: string): string => {
    const lib = path.join(dir, 'node_modules', '@oclif', 'core', 'lib', 'config')
    mkdirSync(lib, {recursive: true})
    writeFileSync(path.join(lib, 'plugin.js'), `exports.ids = (commands) => commands${line}\n`)
    const entry = path.join(dir, 'entry.js')
    writeFileSync(entry, "module.exports = require('./node_modules/@oclif/core/lib/config/plugin.js')\n")
    return entry
  }

  it("replaces oclif's one localeCompare sort with compareCommandIds", async () => {
    const out = await bundle(withPlugin('.sort((a, b) => a.id.localeCompare(b.id));'))
    const code = out.outputFiles[0]?.text ?? ''
    expect(code).to.include('compareCommandIds(a.id, b.id)')
    expect(code).to.not.include('localeCompare')
  })

  it('fails when the sort line is not the one expected (oclif changed it)', async () => {
    const failed = await bundle(withPlugin('.sort((a, b) => a.id < b.id ? -1 : 1);')).then(
      () => undefined,
      (error: Error) => error
    )
    expect(failed?.message).to.match(/expected one `\.sort\(\(a, b\) => a\.id\.localeCompare\(b\.id\)\);` to replace/)
  })

  it("fails when oclif's plugin.js never reached the bundle, so the patch was not applied", async () => {
    const entry = path.join(dir, 'entry.js')
    writeFileSync(entry, 'module.exports = 1\n')
    const failed = await bundle(entry).then(
      () => undefined,
      (error: Error) => error
    )
    expect(failed?.message).to.match(/oclif's command sort was not patched: no module matched/)
  })
})
