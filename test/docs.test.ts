import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {demoMeta, demoXml} from '../scripts/make-demo.js'
import {commandsMarkdown, errorsMarkdown, mcpMarkdown} from '../scripts/generate-docs.js'
import {ROOT} from '@arc-cli/test-support/paths'
import {inDevelopment} from '@arc-cli/test-support/source-config'

describe('generated files are up to date', () => {
  it('docs/commands.md matches the commands (run `npm run docs`)', async () => {
    await inDevelopment(async () => {
      expect(await readFile(path.join(ROOT, 'docs/commands.md'), 'utf8')).to.equal(await commandsMarkdown())
    })
  })

  it('the tool table in docs/mcp.md matches the tools (run `npm run docs`)', async () => {
    await inDevelopment(async () => {
      expect(await readFile(path.join(ROOT, 'docs/mcp.md'), 'utf8')).to.equal(await mcpMarkdown())
    })
  })

  it('docs/errors.md matches the exit-code table (run `npm run docs`)', async () => {
    expect(await readFile(path.join(ROOT, 'docs/errors.md'), 'utf8')).to.equal(errorsMarkdown())
  })

  it('the demo snapshot matches scripts/demo/demo-screen.ts (run `npm run demo`)', async () => {
    expect(await readFile(path.join(ROOT, 'packages/core/demo/window_dump.xml'), 'utf8')).to.equal(demoXml())
    expect(await readFile(path.join(ROOT, 'packages/core/demo/meta.json'), 'utf8')).to.equal(demoMeta())
  })
})
