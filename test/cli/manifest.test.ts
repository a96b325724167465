import {spawnSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {buildManifest, packageRoots} from '../../scripts/write-manifests.js'
import {ROOT} from '../support/paths.js'
import {inDevelopment} from '../support/source-config.js'

// Registers a resolve hook that prints every file the process resolves, one per line on stderr.
const TRACE = `data:text/javascript,${encodeURIComponent(
  `import {register} from 'node:module'
register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write("resolve " + r.url + "\\\\n"); return r }'))`,
)}`

/** Every file (as a path below the repository, or a package name) that importing `module` resolves. */
function resolvedBy(module: string): string[] {
  const run = spawnSync(
    process.execPath,
    ['--conditions=arc-source', '--import', 'tsx', '--import', TRACE, '--input-type=module', '-e', `await import(${JSON.stringify(module)})`],
    {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}},
  )
  expect(run.status, run.stderr).to.equal(0)
  return run.stderr
    .split('\n')
    .filter((l) => l.startsWith('resolve file://'))
    .map((l) => decodeURIComponent(l.slice('resolve file://'.length)))
    .map((f) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? path.relative(ROOT, f))
}

describe('oclif.manifest.json and command loading', () => {
  it('a built manifest describes the commands as the sources do (run `npm run build` when this fails)', async function () {
    this.timeout(120_000)
    await inDevelopment(async () => {
      for (const root of packageRoots()) {
        const file = path.join(root, 'oclif.manifest.json')
        // bin/run.js uses dist/ and the manifest together: `npm run build` writes both, `npm run clean` removes both.
        expect(existsSync(file), `${file} with dist/ (run \`npm run build\`), or neither`).to.equal(existsSync(path.join(root, 'dist')))
        if (!existsSync(file)) continue
        const built = JSON.parse(readFileSync(file, 'utf8')) as {commands: Record<string, unknown>}
        const fromSources = JSON.parse(JSON.stringify(await buildManifest(root))) as typeof built
        expect(Object.keys(built.commands).sort(), file).to.deep.equal(Object.keys(fromSources.commands).sort())
        for (const [id, command] of Object.entries(fromSources.commands)) expect(built.commands[id], `${file}: ${id}`).to.deep.equal(command)
      }
    })
  })

  it('a manifest names no module path: oclif finds each command from its id (dist/ built, src/ in development)', async () => {
    await inDevelopment(async () => {
      const manifest = await buildManifest(ROOT)
      expect(Object.keys(manifest.commands)).to.include.members(['tap', 'press:back', 'batch', 'config', 'emulate'])
      for (const command of Object.values(manifest.commands)) expect(command).to.not.have.any.keys('relativePath', 'isESM')
    })
  })

  it('a command module loads its own tool, not every tool, canvas, the MCP SDK or adbkit', function () {
    this.timeout(60_000)
    const resolved = resolvedBy(path.join(ROOT, 'src', 'commands', 'tap.ts'))
    // The trace works: the command and core were resolved through the hook.
    expect(resolved).to.include('src/tools/tap.ts').and.include('packages/core/src/index.ts')
    expect(resolved.filter((f) => f.startsWith('src/tools/')).sort()).to.deep.equal(['src/tools/tap.ts', 'src/tools/touch-schema.ts'])
    for (const heavy of ['@napi-rs/canvas', '@modelcontextprotocol/sdk', '@devicefarmer/adbkit', '@arc-cli/emulator']) {
      expect(resolved, heavy).to.not.include(heavy)
    }
  })
})
