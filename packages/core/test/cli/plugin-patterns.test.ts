import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {expect} from 'chai'

import {matchesPluginPattern} from '../../src/cli/plugin-patterns.js'

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The minimatch oclif's plugin loader requires (the one it would ask). */
const {minimatch} = createRequire(
  path.join(ROOT, 'node_modules', '@oclif', 'core', 'lib', 'config', 'plugin-loader.js')
)('minimatch') as {minimatch: (name: string, pattern: string) => boolean}

/**
 * The bundle's oclif matches `oclif.plugins` against the dependencies with matchesPluginPattern in place of
 * minimatch (scripts/bundle-core.js): the two must agree, or the built arc would load other plugins than
 * development does.
 */
describe('plugin patterns without minimatch', () => {
  const rootPackage = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
    oclif: {plugins: string[]}
  }

  it("gives minimatch's answer for plain names, globs and names minimatch reads otherwise", () => {
    const names = [
      ...Object.keys(rootPackage.dependencies),
      '@oclif/plugin-help',
      '@oclif/plugin-help-extra',
      'JSONStream',
      'a.b',
      'a~b',
      'a-b_c',
      '.hidden',
      '_private',
      '@scope/a/b',
      '@scope//a',
      'a',
      'ab',
      'abc',
      '',
    ]
    const patterns = [
      ...rootPackage.oclif.plugins,
      ...names,
      '@arc-cli/*',
      '@oclif/plugin-*',
      '*',
      '**',
      '*/*',
      '!@arc-cli/core',
      '#@arc-cli/core',
      '@arc-cli/{core,emulator}',
      'a?c',
      '[ab]*',
      '@(a|ab)',
      '+(a)',
      'A*',
      'jsonstream',
      './a',
      'a/../ab',
    ]
    let disagree = 0
    for (const name of names)
      for (const pattern of patterns) {
        const expected = minimatch(name, pattern)
        const got = matchesPluginPattern(name, pattern, () => minimatch)
        if (got !== expected) disagree++
        expect(got, `${JSON.stringify(name)} against ${JSON.stringify(pattern)}`).to.equal(expected)
      }
    expect(disagree).to.equal(0)
  })

  it("asks minimatch nothing for arc's own plugins and dependencies (plain names)", () => {
    let asked = 0
    const counting = () => {
      asked++
      return minimatch
    }
    const matched = Object.keys(rootPackage.dependencies).filter((name) =>
      rootPackage.oclif.plugins.some((pattern) => matchesPluginPattern(name, pattern, counting))
    )
    expect(matched.sort()).to.deep.equal([...rootPackage.oclif.plugins].sort())
    expect(asked).to.equal(0)
  })
})
