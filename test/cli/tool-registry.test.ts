import {inputJsonSchema, type AnyTool} from '@arc-cli/core'
import {tools as annotateTools} from '@arc-cli/plugin-annotate'
import {tools as screenStateTools} from '@arc-cli/plugin-screen-state'
import {Config} from '@oclif/core'
import {expect} from 'chai'

import {tools as coreTools} from '../../src/tools/index.js'
import {ROOT} from '../support/paths.js'
import {runArc} from '../support/run-arc.js'

const ALL: AnyTool[] = [...coreTools, ...screenStateTools, ...annotateTools]

describe('tool registry', () => {
  it('has unique spec names and CLI ids', () => {
    const names = ALL.map((t) => t.name)
    const ids = ALL.map((t) => t.cliId)
    expect(new Set(names).size, names.join(' ')).to.equal(names.length)
    expect(new Set(ids).size, ids.join(' ')).to.equal(ids.length)
  })

  for (const tool of ALL) {
    it(`${tool.name}: spec-style name, a kind, a description and a description on every field`, () => {
      expect(tool.name).to.match(/^[a-z][a-z0-9_]*$/)
      expect(tool.name.startsWith('android_')).to.equal(false)
      expect(tool.cliId).to.match(/^[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)*$/)
      expect(['read', 'action', 'destructive']).to.include(tool.kind)
      expect(tool.title.length).to.be.greaterThan(5)
      expect(tool.description.length).to.be.greaterThan(20)
      for (const schema of [tool.input, tool.cliInput].filter(Boolean)) {
        for (const [field, prop] of Object.entries(inputJsonSchema(schema as never).properties ?? {})) {
          expect(prop.description ?? '', `${tool.name}.${field}`).to.have.length.greaterThan(5)
        }
      }
    })
  }

  it('hands every tool to the arc:tools hook (how the MCP server will collect them)', async () => {
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = 'development'
    try {
      const config = await Config.load({root: ROOT})
      const result = await config.runHook('arc:tools', {})
      expect(result.failures).to.deep.equal([])
      const served = result.successes.flatMap((s) => s.result as AnyTool[]).map((t) => t.name).sort()
      expect(served).to.deep.equal(ALL.map((t) => t.name).sort())
      // And every tool has a command.
      for (const tool of ALL) expect(config.findCommand(tool.cliId.replaceAll(' ', ':')), tool.cliId).to.not.equal(undefined)
    } finally {
      process.env.NODE_ENV = previous
    }
  })

  it('answers --help for every command', async function () {
    // One process per command (over 40 of them), on CI machines shared with other jobs.
    this.timeout(300000)
    const previous = process.env.NODE_ENV
    process.env.NODE_ENV = 'development'
    const config = await Config.load({root: ROOT})
    process.env.NODE_ENV = previous
    const ids = config.commands.filter((c) => !c.hidden && c.pluginName !== '@oclif/plugin-help').map((c) => c.id.replaceAll(':', ' '))
    expect(ids).to.include.members(ALL.map((t) => t.cliId))
    for (const id of ids) {
      const help = await runArc([...id.split(' '), '--help'])
      expect(help.code, id).to.equal(0)
      expect(help.stdout, id).to.include('USAGE')
    }
  })
})
