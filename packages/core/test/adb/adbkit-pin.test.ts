/**
 * arc reaches into adbkit's internals (its command classes and connection, adb-client.ts), which a patch release
 * may change without notice: while it does, the dependency is pinned to the exact version installed and tested.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {expect} from 'chai'

const CORE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const ADBKIT = '@devicefarmer/adbkit'

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

describe('adbkit is pinned exactly while its internals are imported', () => {
  it('core imports adbkit internals, and its package.json names the exact version installed', () => {
    const deep = sources(path.join(CORE, 'src')).filter((file) =>
      readFileSync(file, 'utf8').includes(`from '${ADBKIT}/dist/`)
    )
    expect(deep.map((file) => path.relative(CORE, file))).to.include('src/driver/adb/adb-client.ts')
    // A devDependency: the core's bundle carries adbkit inside it (scripts/bundle-core.js).
    const manifest = JSON.parse(readFileSync(path.join(CORE, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >
    const spec = manifest.devDependencies?.[ADBKIT] ?? manifest.dependencies?.[ADBKIT]
    expect(spec, `${ADBKIT} in packages/core/package.json`).to.match(/^\d+\.\d+\.\d+$/)
    const installed = (createRequire(path.join(CORE, 'package.json'))(`${ADBKIT}/package.json`) as {version: string})
      .version
    expect(spec).to.equal(installed)
  })
})
