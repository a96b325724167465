import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {configSchema, z} from '@arc-cli/core'

import {buildManifest, packageRoots} from '../../scripts/write-manifests.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {ROOT} from '@arc-cli/test-support/paths'
import {runArc} from '@arc-cli/test-support/run-arc'
import {inDevelopment} from '@arc-cli/test-support/source-config'
import {RESOLVE_TRACE, resolutions, resolvedBy, type Resolution} from '@arc-cli/test-support/module-trace'

/** The files of a traced process's resolutions, as paths below the repository or package names. */
function resolvedFiles(resolved: Resolution[]): string[] {
  return resolved
    .map((r) => r.url)
    .filter((url) => url.startsWith('file://'))
    .map((url) => decodeURIComponent(url.slice('file://'.length)))
    .map((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? path.relative(ROOT, f))
}

describe('oclif.manifest.json and command loading', () => {
  it('a built manifest describes the commands as the sources do (run `npm run build` when this fails)', async function () {
    this.timeout(120_000)
    await inDevelopment(async () => {
      for (const root of packageRoots()) {
        const file = path.join(root, 'oclif.manifest.json')
        // bin/run.js uses dist/ and the manifest together: `npm run build` writes both, `npm run clean` removes both.
        expect(existsSync(file), `${file} with dist/ (run \`npm run build\`), or neither`).to.equal(
          existsSync(path.join(root, 'dist'))
        )
        if (!existsSync(file)) continue
        const built = JSON.parse(readFileSync(file, 'utf8')) as {commands: Record<string, unknown>}
        const fromSources = JSON.parse(JSON.stringify(await buildManifest(root))) as typeof built
        expect(Object.keys(built.commands).sort(), file).to.deep.equal(Object.keys(fromSources.commands).sort())
        for (const [id, command] of Object.entries(fromSources.commands))
          expect(built.commands[id], `${file}: ${id}`).to.deep.equal(command)
      }
    })
  })

  it('a manifest names no module path (oclif finds each command from its id: dist/ built, src/ in development) and holds no tool definition', async () => {
    await inDevelopment(async () => {
      const manifest = await buildManifest(ROOT)
      expect(Object.keys(manifest.commands)).to.include.members(['tap', 'press:back', 'batch', 'config', 'emulate'])
      // Nor a tool's definition (oclif copies the command class's static `tool`): a start-up reads every manifest.
      for (const command of Object.values(manifest.commands))
        expect(command).to.not.have.any.keys('relativePath', 'isESM', 'tool')
    })
  })

  it('a command module loads its own tool, not every tool, canvas, the MCP SDK or adbkit', function () {
    this.timeout(60_000)
    const resolved = resolvedFiles(resolvedBy(path.join(ROOT, 'src', 'commands', 'tap.ts')))
    // The trace works: the command and core were resolved through the hook.
    expect(resolved).to.include('src/tools/tap.ts').and.include('packages/core/src/index.ts')
    expect(resolved.filter((f) => f.startsWith('src/tools/')).sort()).to.deep.equal([
      'src/tools/tap.ts',
      'src/tools/touch-schema.ts',
    ])
    for (const heavy of ['@napi-rs/canvas', '@modelcontextprotocol/sdk', '@devicefarmer/adbkit', '@arc-cli/emulator']) {
      expect(resolved, heavy).to.not.include(heavy)
    }
  })
})

describe('the built CLI (bin/run.js) and the core bundle', () => {
  const h = useEmulator()

  /** What `arc ARGS` resolved, run as the tests run arc (bin/run.js on the dist the setup proved current). */
  async function traced(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{files: string[]; stderr: string}> {
    const run = await runArc(args, {env: {...env, DEBUG: 'arc', NODE_OPTIONS: `--import ${RESOLVE_TRACE}`}})
    expect(run.code, run.stderr).to.equal(0)
    return {files: resolvedFiles(resolutions(run.stderr)), stderr: run.stderr}
  }

  it('runs oclif and the core from the one bundle, with zod, chalk, cosmiconfig and adbkit inside, compiled from its code cache', async function () {
    this.timeout(60_000)
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current (it said why on stderr)').to.equal(
      'dist'
    )
    const version = await traced(['--version'])
    const look = await traced(['screen-state', '--device', 'demo'])
    const act = await traced(['tap', '10', '20'], h.env)
    for (const {files, stderr} of [version, look, act]) {
      expect(files)
        .to.include('packages/core/dist/bundle/oclif.js')
        .and.include('packages/core/dist/loader/load-bundle.js')
      for (const bundled of [
        '@oclif/core',
        'zod',
        'chalk',
        'cosmiconfig',
        '@devicefarmer/adbkit',
        'bluebird',
        'node-forge',
      ])
        expect(files, bundled).to.not.include(bundled)
      const outside = files.filter(
        (f) => f.startsWith('packages/core/') && !/^packages\/core\/dist\/(bundle|loader)\//.test(f)
      )
      expect(outside, 'core modules outside the bundle').to.deep.equal([])
      // DEBUG=arc* says how the bundle compiled: the build's code cache, not from scratch.
      expect(stderr).to.include('arc: core bundle compiled (code cache: used)')
    }
    for (const {files} of [look, act]) expect(files).to.include('packages/core/dist/bundle/index.js')
    expect(h.emu.device('emu-1').inputEvents.at(-1)).to.deep.equal({type: 'tap', x: 10, y: 20})
  })

  it("builds no ICU collator at start-up: the bundle's oclif sorts commands without localeCompare", async function () {
    this.timeout(60_000)
    // Counts localeCompare calls and collators made (the first of either builds ICU's collator, 7-10 ms of CPU).
    const count = `data:text/javascript,${encodeURIComponent(
      `let n = 0; const lc = String.prototype.localeCompare; String.prototype.localeCompare = function (...a) { n++; return lc.apply(this, a) }
const C = Intl.Collator; Intl.Collator = function (...a) { n++; return new C(...a) }
process.on('exit', () => process.stderr.write('collations ' + n + '\\n'))`
    )}`
    for (const args of [['--version'], ['screen-state', '--device', 'demo']]) {
      const run = await runArc(args, {env: {NODE_OPTIONS: `--import ${count}`}})
      expect(run.code, run.stderr).to.equal(0)
      expect(run.stderr, args.join(' ')).to.include('collations 0\n')
    }
  })

  it('loads no Node.js module at start-up or for a screen read that only a rare path of oclif or the core uses', async function () {
    this.timeout(60_000)
    // Each built-in loaded is compiled at every start-up (readline with its interface, perf_hooks, child_process
    // with dgram, zlib): oclif's and png.ts's requires of them run where they are used (scripts/bundle-core.js).
    const list = `data:text/javascript,${encodeURIComponent(
      `process.on('exit', () => process.stderr.write('builtins ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'))`
    )}`
    // A screen read's element records are updated under their machine-wide lock, a listening socket: Node's
    // net.Server.listen loads cluster, and with it child_process (driver/device-lock.ts).
    const runs: Array<[string[], string[]]> = [
      [['--version'], ['readline', 'perf_hooks', 'child_process', 'zlib']],
      [
        ['screen-state', '--device', 'demo'],
        ['readline', 'perf_hooks', 'zlib'],
      ],
    ]
    for (const [args, rare] of runs) {
      const run = await runArc(args, {env: {NODE_OPTIONS: `--import ${list}`}})
      expect(run.code, run.stderr).to.equal(0)
      const loaded = /^builtins (.*)$/m.exec(run.stderr)?.[1]?.split(' ')
      expect(loaded, run.stderr).to.include('vm').and.include('fs')
      for (const name of rare) expect(loaded, `${args.join(' ')} loads ${name}`).to.not.include(name)
    }
  })

  it('builds the config schema only when a config file is read: not for --version, nor for a read without one', async function () {
    this.timeout(60_000)
    // zod registers each `.describe()`d schema it builds in its global registry, which it keeps on globalThis: the
    // preload wraps the registry's `add` and lists the descriptions of the schemas the process built.
    const list = `data:text/javascript,${encodeURIComponent(
      `const seen = []; let registry
Object.defineProperty(globalThis, '__zod_globalRegistry', {configurable: true, get: () => registry, set(r) { const add = r.add.bind(r); r.add = (schema, meta) => { seen.push(meta?.description); return add(schema, meta) }; registry = r }})
process.on('exit', () => process.stderr.write('described ' + JSON.stringify(seen) + '\\n'))`
    )}`
    const descriptions = (schema: object): string[] =>
      JSON.stringify(schema)
        .match(/"description":"(?:[^"\\]|\\.)*"/g)
        ?.map((d) => JSON.parse(d.slice('"description":'.length)) as string) ?? []
    const config = descriptions(z.toJSONSchema(configSchema(), {io: 'input', unrepresentable: 'any'}))
    expect(config.length).to.be.greaterThan(20)
    for (const args of [['--version'], ['screen-state', '--device', 'demo']]) {
      const run = await runArc(args, {env: {NODE_OPTIONS: `--import ${list}`}})
      expect(run.code, run.stderr).to.equal(0)
      const built = JSON.parse(/^described (.*)$/m.exec(run.stderr)?.[1] ?? 'null') as string[]
      expect(built, run.stderr).to.be.an('array')
      expect(
        built.filter((d) => config.includes(d)),
        args.join(' ')
      ).to.deep.equal([])
    }
  })

  it("the bundle's license file has a section for every package bundled into it", () => {
    const bundle = path.join(ROOT, 'packages', 'core', 'dist', 'bundle')
    const inputs = Object.keys(
      (JSON.parse(readFileSync(path.join(bundle, 'inputs.json'), 'utf8')) as {inputs: Record<string, string>}).inputs
    )
    const packages = new Set(
      inputs.map((f) => /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).filter((p): p is string => p !== undefined)
    )
    expect(packages).to.include.keys('@oclif/core', 'zod', '@devicefarmer/adbkit', 'bluebird')
    // adbkit's Client (its TCP/USB bridge, and with it node-forge) is not loaded: adb-client.ts builds on its parts.
    expect(packages).to.not.include('node-forge')
    const notices = readFileSync(path.join(bundle, 'THIRD-PARTY-LICENSES.txt'), 'utf8')
    for (const name of packages)
      expect(notices, name).to.match(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\S+ \\(`, 'm'))
    // Each with its own notice text (a LICENSE-MIT.txt counts, as emoji-regex names its file).
    expect(notices).to.not.include('(no license file in the package)')
  })

  /** Files under the packages' sources (outside the core) whose import of `pkg` leaves code at run time. */
  function runtimeImportsOf(pkg: string): string[] {
    const roots = [
      'src',
      'packages/emulator/src',
      ...readdirSync(path.join(ROOT, 'plugins')).map((p) => `plugins/${p}/src`),
    ]
    const name = pkg.replace(/[/]/g, '\\/')
    // `import type {…} from` leaves nothing; `import {…} from`, `import x from`, `export … from` and import() do.
    const clause = String.raw`(\{[^}]*\}|\*\s+as\s+\w+|\w+(\s*,\s*(\{[^}]*\}|\*\s+as\s+\w+))?)`
    const runtime = new RegExp(
      String.raw`^\s*(import(?!\s+type\b)\s*${clause}\s*from\s*|export\s*(\{[^}]*\}|\*(\s+as\s+\w+)?)\s*from\s*|import\s*|.*\bimport\(\s*)['"]${name}(\/[^'"]*)?['"]`,
      'm'
    )
    const offenders: string[] = []
    for (const root of roots) {
      for (const file of readdirSync(path.join(ROOT, root), {recursive: true})
        .map(String)
        .filter((f) => f.endsWith('.ts'))) {
        if (runtime.test(readFileSync(path.join(ROOT, root, file), 'utf8'))) offenders.push(`${root}/${file}`)
      }
    }
    return offenders
  }

  it('no package but the core imports zod or oclif: the built CLI has one of each, inside the bundle', () => {
    // Every schema must be made by the core's zod, and every command must extend the oclif bin/run.js starts.
    expect(runtimeImportsOf('zod'), "import {z} from '@arc-cli/core' instead").to.deep.equal([])
    expect(runtimeImportsOf('@oclif/core'), "import {Args, Command, Flags} from '@arc-cli/core' instead").to.deep.equal(
      []
    )
  })
})
