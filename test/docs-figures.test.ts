import {readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {benchCommand, benchNames, documentFiles, figureBlocks, ROOT} from '../bench/figure-blocks.js'

/**
 * Every figure in README.md and docs/*.md comes from a command that still exists: each figure block names a
 * benchmark in bench/ and says, on its stamp line, the command `npm run bench -- docs` ran for it; every
 * `npm run bench -- NAME` a sentence names is a benchmark there; every `npm run SCRIPT` is a script of the package.
 */
describe('documented figures: their commands exist', () => {
  const benches = new Set(benchNames())
  const scripts = new Set(
    Object.keys(
      (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts
    )
  )
  const workspaceScripts = (name: string) => {
    const folder = name.replace('@arc-cli/plugin-', 'plugins/').replace('@arc-cli/', 'packages/')
    return new Set(
      Object.keys(
        (
          JSON.parse(readFileSync(path.join(ROOT, folder, 'package.json'), 'utf8')) as {
            scripts?: Record<string, string>
          }
        ).scripts ?? {}
      )
    )
  }
  const texts = documentFiles().map((file) => ({file, text: readFileSync(path.join(ROOT, file), 'utf8')}))

  it('every figure block names a benchmark in bench/ and is stamped with its command, date, commit and load', () => {
    const blocks = figureBlocks()
    expect(blocks.length).to.be.above(0)
    for (const {file, bench, body} of blocks) {
      expect(benches.has(bench), `${file}: bench:${bench} has no bench/${bench}.bench.ts`).to.equal(true)
      expect(body, `${file}: bench:${bench} has no stamp line`).to.match(
        new RegExp(
          `^_Measured \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC at \`[0-9a-f]{7,}[^\`]*\`, load average [\\d. /]+ \\(1/5/15 min\\) on \\d+ cores, by \`${benchCommand(bench).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\\._\\n`
        )
      )
    }
  })

  it('every `npm run bench -- NAME` in the documentation names a benchmark, and every `npm run SCRIPT` a script', () => {
    for (const {file, text} of texts) {
      for (const m of text.matchAll(/npm run bench(?: --)? ([a-z0-9][a-z0-9-]*)/g)) {
        const name = m[1] as string
        expect(name === 'docs' || benches.has(name), `${file}: \`${m[0]}\` names no bench/${name}.bench.ts`).to.equal(
          true
        )
      }
      for (const m of text.matchAll(/npm run ([a-z][a-z0-9:-]*)(?: -w (@arc-cli\/[a-z-]+))?/g)) {
        const [, script, workspace] = m as unknown as [string, string, string | undefined]
        const known = workspace ? workspaceScripts(workspace) : scripts
        expect(known.has(script), `${file}: \`${m[0]}\` names no script of ${workspace ?? 'package.json'}`).to.equal(
          true
        )
      }
    }
  })
})
