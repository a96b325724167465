import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import {resolvedBy} from '@arc-cli/test-support/module-trace'

const PLUGIN = new URL('../', import.meta.url)

const TOOLS = fileURLToPath(new URL('src/tools/', PLUGIN))

describe('annotate start-up cost', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', PLUGIN), 'utf8')) as {
    oclif: {commands: {strategy: string; target: string}}
  }
  // The sources of the built command modules oclif imports (`pattern`: one module per command): what bin/dev.js loads.
  const commandSources = fileURLToPath(new URL(pkg.oclif.commands.target.replace('./dist/', 'src/') + '/', PLUGIN))
  const modules = readdirSync(commandSources, {recursive: true})
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .sort()

  it('oclif imports one module per command: annotate, screenshot, assert screenshot', () => {
    expect(pkg.oclif.commands.strategy).to.equal('pattern')
    expect(modules).to.deep.equal(['annotate.ts', 'assert/screenshot.ts', 'screenshot.ts'])
  })

  it('a command module (what an arc start-up imports) loads its own tool, not the canvas library or the other tools', function () {
    this.timeout(120000)
    // Each command's own tool; assert screenshot's builds on screenshot's element helpers.
    const tools: Record<string, string[]> = {
      'annotate.ts': ['annotate.ts'],
      'assert/screenshot.ts': ['assert-screenshot.ts', 'screenshot.ts'],
      'screenshot.ts': ['screenshot.ts'],
    }
    for (const module of modules) {
      const resolved = resolvedBy(path.join(commandSources, module))
      // The trace works: core was resolved through the hook (and the module's own tool, below).
      expect(
        resolved.map((r) => r.specifier),
        module
      ).to.include('@arc-cli/core')
      expect(
        resolved.filter((r) => `${r.specifier} ${r.url}`.includes('canvas')),
        module
      ).to.deep.equal([])
      const pluginTools = resolved
        .map((r) => r.url)
        .filter((url) => url.startsWith('file://') && fileURLToPath(url).startsWith(TOOLS))
        .map((url) => path.relative(TOOLS, fileURLToPath(url)))
      expect(pluginTools.sort(), `${module}: the plugin's tools it loads`).to.deep.equal(tools[module])
    }
  })
})
