import {inputJsonSchema, TOOL_GROUPS, type AnyTool} from '@arc-cli/core'
import {tools as annotateTools} from '@arc-cli/plugin-annotate'
import {tools as screenStateTools} from '@arc-cli/plugin-screen-state'
import {Config} from '@oclif/core'
import {runCommand} from '@oclif/test'
import {expect} from 'chai'

import {tools as coreTools} from '../../src/tools/index.js'
import {runArc} from '@arc-cli/test-support/run-arc'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

const ALL: AnyTool[] = [...coreTools, ...screenStateTools, ...annotateTools]

describe('tool registry', () => {
  it('has unique spec names and CLI ids', () => {
    const names = ALL.map((t) => t.name)
    const ids = ALL.map((t) => t.cli.id)
    expect(new Set(names).size, names.join(' ')).to.equal(names.length)
    expect(new Set(ids).size, ids.join(' ')).to.equal(ids.length)
  })

  for (const tool of ALL) {
    it(`${tool.name}: spec-style name, a kind, a description and a description on every field`, () => {
      expect(tool.name).to.match(/^[a-z][a-z0-9_]*$/)
      expect(tool.name.startsWith('android_')).to.equal(false)
      expect(tool.cli.id).to.match(/^[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)*$/)
      expect(['read', 'action', 'destructive']).to.include(tool.kind)
      // MCP clients pick tools by group (arc mcp serve --tools group:touch); the server guesses one from the
      // name when it is missing, but every tool of arc's own states it.
      expect(TOOL_GROUPS, `${tool.name} needs a group`).to.include(tool.group)
      expect(tool.title.length).to.be.greaterThan(5)
      expect(tool.description.length).to.be.greaterThan(20)
      for (const schema of [tool.input, tool.cli.input].filter(Boolean)) {
        for (const [field, prop] of Object.entries(inputJsonSchema(schema as never).properties ?? {})) {
          expect(prop.description ?? '', `${tool.name}.${field}`).to.have.length.greaterThan(5)
        }
      }
    })
  }

  it('hands every tool to the arc:tools hook (how the MCP server will collect them)', async () => {
    await inDevelopment(async () => {
      const config = await Config.load(await sourceOptions())
      const result = await config.runHook('arc:tools', {})
      expect(result.failures).to.deep.equal([])
      const served = result.successes
        .flatMap((s) => s.result as AnyTool[])
        .map((t) => t.name)
        .sort()
      expect(served).to.deep.equal(ALL.map((t) => t.name).sort())
      // And every tool has a command, and the module oclif loads for that id is this tool's (src/commands/<id>.ts).
      for (const tool of ALL) {
        const command = config.findCommand(tool.cli.id.replaceAll(' ', ':'))
        expect(command, tool.cli.id).to.not.equal(undefined)
        const loaded = (await command?.load()) as {tool?: AnyTool} | undefined
        expect(loaded?.tool?.name, tool.cli.id).to.equal(tool.name)
      }
    })
  })

  it('describes every topic in its own words, not by its first command', async () => {
    const config = await inDevelopment(async () => Config.load(await sourceOptions()))
    const topics = new Set(config.commands.filter((c) => c.id.includes(':')).map((c) => c.id.split(':')[0] as string))
    for (const topic of topics) {
      const description = config.topics.find((t) => t.name === topic)?.description ?? ''
      const firstSummary = config.commands.find((c) => c.id.startsWith(`${topic}:`))?.summary
      expect(description, `topic ${topic} needs a description in package.json oclif.topics`).to.have.length.greaterThan(
        10
      )
      expect(description, topic).to.not.equal(firstSummary)
    }
    const help = await runArc(['--help'])
    for (const topic of topics) expect(help.stdout).to.match(new RegExp(`^  ${topic} +\\S`, 'm'))
  })

  it('answers --help for every command', async function () {
    this.timeout(120_000)
    const config = await inDevelopment(async () => Config.load(await sourceOptions()))
    const ids = config.commands
      .filter((c) => !c.hidden && c.pluginName !== '@oclif/plugin-help')
      .map((c) => c.id.replaceAll(':', ' '))
    expect(ids).to.include.members(ALL.map((t) => t.cli.id))
    // In process (oclif's runCommand, as a user's `arc <id> --help` resolves it): one spawned arc per command
    // would cost a Node start-up each, and there are over sixty. bin/dev.js --help is spawned by the test above.
    for (const id of ids) {
      const {stdout, error} = await runCommand([...id.split(' '), '--help'], await sourceOptions())
      expect(error, id).to.equal(undefined)
      expect(stdout, id).to.include('USAGE')
    }
  })
})
