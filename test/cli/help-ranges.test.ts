/**
 * A flag's help states the range arc accepts, so that a value the help allows is never refused: the help of every
 * command is docs/commands.md (generated, test/docs.test.ts keeps it current).
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {ROOT} from '@arc-cli/test-support/paths'

/** The help line of `flag` in the section of `command`. */
async function flagHelp(command: string, flag: string): Promise<string> {
  const doc = await readFile(path.join(ROOT, 'docs/commands.md'), 'utf8')
  const section = doc.split(/\n(?=## )/).find((s) => s.startsWith(`## \`arc ${command}\`\n`))
  const line = section?.split('\n').find((l) => l.startsWith(`| \`${flag}=VALUE\``))
  if (!line) expect.fail(`no ${flag} in the help of arc ${command}`)
  return line
}

describe('flag help states the accepted range', () => {
  for (const [command, flag, range] of [
    ['shell', '--timeout-ms', '1000-3600000'],
    ['mcp serve', '--max-body', '1024-1073741824'],
  ] as const) {
    it(`arc ${command} ${flag}: ${range}`, async () => {
      expect(await flagHelp(command, flag)).to.include(range)
    })
  }
})
