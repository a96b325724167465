import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'

import {expect} from 'chai'

import {checkNoDynamicImport, dynamicImportsViaLoader} from '../../scripts/bundle-dynamic-imports.js'
import {bundleFile, PLUGIN_BUNDLES, pluginBundleStaleness} from '../../scripts/bundle-plugins.js'
import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'

const DIST = path.join(ROOT, 'packages', 'core', 'dist')

describe('the core bundle and its code cache (packages/core/src/loader/load-bundle.ts)', () => {
  let copy: string

  before(() => {
    // The built bundle, proven current by the test setup; a copy, so the cases below can age or break its cache.
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current (it said why on stderr)').to.equal(
      'dist'
    )
    copy = mkdtempSync(path.join(os.tmpdir(), 'arc-code-cache-test-'))
    cpSync(path.join(DIST, 'loader'), path.join(copy, 'dist', 'loader'), {recursive: true})
    cpSync(path.join(DIST, 'bundle'), path.join(copy, 'dist', 'bundle'), {recursive: true, preserveTimestamps: true})
  })

  after(() => {
    if (copy) rmSync(copy, {recursive: true, force: true})
  })

  const bundleFile = () => path.join(copy, 'dist', 'bundle', 'core.cjs')
  const cacheFile = () => `${bundleFile()}.cache`

  /** Loads the copy in a fresh node and reports how it compiled and whether oclif's `execute` came through. */
  function loadCopy(nodeArgs: string[] = []): {state: string; execute: string} {
    const loader = pathToFileURL(path.join(copy, 'dist', 'loader', 'load-bundle.js')).href
    const code = `const l = await import(${JSON.stringify(loader)}); const core = l.loadCore(); console.log(JSON.stringify({state: l.codeCacheState(), execute: typeof core.execute}))`
    const run = spawnSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', code], {
      encoding: 'utf8',
      env: {...process.env, NODE_OPTIONS: ''},
    })
    expect(run.status, run.stderr).to.equal(0)
    expect(run.stderr, 'no warning from the loader').to.equal('')
    return JSON.parse(run.stdout) as {state: string; execute: string}
  }

  it('compiles the bundle with the code cache the build wrote', () => {
    expect(loadCopy()).to.deep.equal({state: 'used', execute: 'function'})
  })

  it('uses a cache older than the bundle when it was made for its bytes (npm extracts X.cache before X.cjs)', () => {
    const saved = statSync(cacheFile())
    const older = new Date(statSync(bundleFile()).mtimeMs - 60_000)
    utimesSync(cacheFile(), older, older)
    try {
      expect(loadCopy()).to.deep.equal({state: 'used', execute: 'function'})
    } finally {
      utimesSync(cacheFile(), saved.atime, saved.mtime)
    }
  })

  it('offers no cache made for other bytes of the same length (V8 checks only the length), and runs the edit', () => {
    // A bundle of its own beside the copy's loader: a cache written after `word` ran holds `word`'s compiled code.
    const dir = path.join(copy, 'dist', 'same-length')
    mkdirSync(dir, {recursive: true})
    const file = path.join(dir, 'b.cjs')
    const loader = JSON.stringify(pathToFileURL(path.join(copy, 'dist', 'loader', 'load-bundle.js')).href)
    const load = (write: boolean): {state: string; word: string} => {
      const code = `const l = await import(${loader}); const word = l.loadBundle(${JSON.stringify(file)}).word();${
        write ? ` l.writeCodeCache(${JSON.stringify(file)});` : ''
      } console.log(JSON.stringify({state: l.bundleCacheState(${JSON.stringify(file)}), word}))`
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
        encoding: 'utf8',
        env: {...process.env, NODE_OPTIONS: ''},
      })
      expect(run.status, run.stderr).to.equal(0)
      return JSON.parse(run.stdout) as {state: string; word: string}
    }
    const bundle = (word: string) => `module.exports = {word() { return ['${word}', 1 + 1].join('') }}\n`
    writeFileSync(file, bundle('AAAA'))
    expect(load(true)).to.deep.equal({state: 'absent', word: 'AAAA2'})
    expect(load(false)).to.deep.equal({state: 'used', word: 'AAAA2'})
    // The edit, with the cache the newer file (as a `touch`, or a copy, leaves it).
    writeFileSync(file, bundle('BBBB'))
    const later = new Date(statSync(file).mtimeMs + 60_000)
    utimesSync(`${file}.cache`, later, later)
    expect(load(false)).to.deep.equal({state: 'stale', word: 'BBBB2'})
  })

  it('compiles from scratch when V8 refuses the cache (another Node, other flags, a damaged file) or it cannot be read', () => {
    const saved = readFileSync(cacheFile())
    try {
      // The header and the digest of this bundle, then data V8 refuses.
      const header = saved.subarray(0, 64)
      expect(header.subarray(0, 32).toString('latin1')).to.equal('arc code cache, sha256 of bundle')
      writeFileSync(cacheFile(), Buffer.concat([header, Buffer.alloc(saved.length - 64, 7)]))
      expect(loadCopy()).to.deep.equal({state: 'rejected', execute: 'function'})
      // V8's data alone (a cache file from before the header, or damaged at its start) is never offered.
      writeFileSync(cacheFile(), saved.subarray(64))
      expect(loadCopy()).to.deep.equal({state: 'stale', execute: 'function'})
      rmSync(cacheFile())
      expect(loadCopy()).to.deep.equal({state: 'absent', execute: 'function'})
      mkdirSync(cacheFile())
      expect(loadCopy()).to.deep.equal({state: 'unreadable', execute: 'function'})
    } finally {
      rmSync(cacheFile(), {recursive: true, force: true})
      writeFileSync(cacheFile(), saved)
    }
    // V8 ties a cache to its flags: one made without --no-opt is refused under it.
    expect(loadCopy(['--no-opt'])).to.deep.equal({state: 'rejected', execute: 'function'})
  })

  it('with --enable-source-maps, requires the bundle the usual way so Node reads its source map', () => {
    expect(loadCopy(['--enable-source-maps'])).to.deep.equal({state: 'source maps', execute: 'function'})
  })

  it('the ES module entries export every name the bundle exports', () => {
    // In a node of its own: the bundle's oclif and zod stay out of this process.
    const list = spawnSync(
      process.execPath,
      ['-p', `JSON.stringify(Object.keys(require(${JSON.stringify(path.join(DIST, 'bundle', 'core.cjs'))})))`],
      {encoding: 'utf8'}
    )
    expect(list.status, list.stderr).to.equal(0)
    const names = (JSON.parse(list.stdout) as string[]).filter((n) => n !== '__esModule')
    const index = readFileSync(path.join(DIST, 'bundle', 'index.js'), 'utf8')
    const oclif = readFileSync(path.join(DIST, 'bundle', 'oclif.js'), 'utf8')
    const exported = (text: string) =>
      (/export const \{([^}]*)\}/.exec(text)?.[1] ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
    expect([...exported(index), 'execute'].sort()).to.deep.equal([...names].sort())
    expect(exported(oclif)).to.deep.equal(['Args', 'Command', 'Flags', 'execute'])
  })
})

describe('import() in the bundle (scripts/bundle-dynamic-imports.js)', () => {
  it('the built bundle calls import() only in its banner, through the loader', () => {
    const code = readFileSync(path.join(DIST, 'bundle', 'core.cjs'), 'utf8')
    const banner = code.indexOf('__arcImport=module.arcImport??((s,o)=>import(s,o));')
    expect(banner).to.be.within(0, 200)
    expect(() => checkNoDynamicImport(code, 'core.cjs', banner + 50)).to.not.throw()
    expect(() => checkNoDynamicImport(code, 'core.cjs', 0), "the check sees the banner's own").to.throw(
      /still calls import\(\)/
    )
  })

  it('the check tells an import() call from the text "import(" in a string, a template or a comment', () => {
    const text = 'const a = "import(x)"; const b = `await import(url)`; // import(y)\n/* import(z) */ f()'
    expect(() => checkNoDynamicImport(text, 'text.js', 0)).to.not.throw()
    expect(() =>
      checkNoDynamicImport('async function g(u) { return (await import(u)).default }', 'code.js', 0)
    ).to.throw(/code\.js still calls import\(\).*import\(u\)/)
  })

  it('rewrites computed import() and import() of an external package, leaves bundled literals and text alone', async function () {
    this.timeout(20_000)
    const dir = mkdtempSync(path.join(os.tmpdir(), 'arc-dynamic-import-'))
    try {
      writeFileSync(path.join(dir, 'lazy.js'), 'export const lazy = 1\n')
      writeFileSync(
        path.join(dir, 'entry.js'),
        [
          'export const load = (u) => import(u)',
          "export const ts = () => import('typescript')",
          "export const lazy = () => import('./lazy.js')",
          'export const text = "import(u)"',
        ].join('\n')
      )
      const esbuild = await import('esbuild')
      const out = await esbuild.build({
        entryPoints: [path.join(dir, 'entry.js')],
        bundle: true,
        format: 'cjs',
        platform: 'node',
        write: false,
        external: ['typescript'],
        plugins: [dynamicImportsViaLoader(['typescript'])],
        logLevel: 'silent',
      })
      const [output] = out.outputFiles
      if (!output) expect.fail('esbuild wrote no output file')
      const code = output.text
      expect(code).to.include('__arcImport(u)').and.include('__arcImport("typescript")').and.include('"import(u)"')
      expect(code, 'the bundled module is inlined, not imported').to.not.match(/import\(["']\.\/lazy/)
      expect(() => checkNoDynamicImport(code, 'entry.js', 0)).to.not.throw()
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})

describe("the annotate command's code, bundled with its own code cache (scripts/bundle-plugins.js)", () => {
  const bundle = PLUGIN_BUNDLES[0]
  if (!bundle) throw new Error('scripts/bundle-plugins.js lists no bundle')
  const file = bundleFile(bundle)

  before(function () {
    // Spawned arc runs from dist only when the setup proved it current (the plugin bundle's inputs included).
    if (process.env[CLI_ENTRY_VAR] !== 'dist') this.skip()
  })

  it('arc annotate compiles the tool and its image code from the bundle with the code cache the build wrote', async function () {
    this.timeout(60_000)
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'arc-plugin-bundle-'))
    try {
      const run = await runArc(['annotate', '--device', 'demo', '-o', 'x.jpg'], {cwd, env: {DEBUG: 'arc'}})
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stderr).to.include('arc: core bundle compiled (code cache: used)')
      expect(run.stderr).to.include(`arc: bundle ${file} compiled (code cache: used)`)
      // Once: the command module and the handler take the tool and its image code from the one bundle.
      expect(run.stderr.split(`arc: bundle ${file} compiled`).length).to.equal(2)
      expect(run.stderr).to.not.match(/arc: bundle .*annotate-device/)
      expect(statSync(path.join(cwd, 'x.jpg')).size).to.be.above(1000)
    } finally {
      rmSync(cwd, {recursive: true, force: true})
    }
  })

  it('makes the same image and map as the ES modules it was made from, each module finding its files as before', function () {
    this.timeout(60_000)
    // In a node of its own, on dist: the bundle (the label font is found from its module's own URL) against
    // dist/annotate-device.js, on the demo screen.
    const url = (...parts: string[]) => JSON.stringify(pathToFileURL(path.join(ROOT, ...parts)).href)
    const code = `
      const {loadBundle} = await import(${url('packages', 'core', 'dist', 'loader', 'load-bundle.js')})
      const {DEMO_DIR, SnapshotDriver} = await import(${url('packages', 'core', 'dist', 'bundle', 'index.js')})
      const bundled = await loadBundle(${JSON.stringify(file)}).loadAnnotateDevice()
      const modules = await import(${url('plugins', 'annotate', 'dist', 'annotate-device.js')})
      const results = []
      for (const {annotateDevice} of [bundled, modules]) {
        const driver = await SnapshotDriver.open(DEMO_DIR)
        const ctx = {driver, config: {}, warn: () => {}, progress: () => {}}
        const image = await annotateDevice(ctx, {})
        results.push({data: image.data.toString('base64'), map: JSON.stringify(image.map), warnings: image.warnings})
      }
      console.log(JSON.stringify({distinct: bundled.annotateDevice !== modules.annotateDevice, results}))
    `
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      env: {...process.env, NODE_OPTIONS: ''},
      maxBuffer: 64 * 1024 * 1024,
    })
    expect(run.status, run.stderr).to.equal(0)
    const {distinct, results} = JSON.parse(run.stdout) as {
      distinct: boolean
      results: Array<{data: string; map: string; warnings: string[]}>
    }
    expect(distinct, 'two copies of the code ran, the bundle and the modules').to.equal(true)
    const [fromBundle, fromModules] = results
    expect(fromBundle?.data.length).to.be.above(1000)
    expect(fromBundle).to.deep.equal(fromModules)
  })

  it('is current: made from the plugin modules as they are now', () => {
    expect(pluginBundleStaleness()).to.equal(undefined)
    expect(readFileSync(file, 'latin1')).to.include('annotateDevice')
  })
})
