import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {expect} from 'chai'

import {compareCommandIds} from '../../src/cli/command-id-order.js'

const sign = (n: number) => Math.sign(n)

/** Every string of `alphabet` up to `length` characters long, the empty one included. */
function strings(alphabet: string, length: number): string[] {
  let level = ['']
  const all = ['']
  for (let i = 0; i < length; i++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c))
    all.push(...level)
  }
  return all
}

/**
 * The bundle's oclif sorts commands with compareCommandIds in place of localeCompare (scripts/bundle-core.js): the
 * two must agree on every pair, or `arc --help` and oclif's lookups would see another order than development does.
 */
describe('command id order without ICU', () => {
  it('orders every id of up to three characters of a-z 0-9 _ - : exactly as localeCompare does', function () {
    this.timeout(60_000)
    const ids = strings('_-:0123456789abcdefghijklmnopqrstuvwxyz', 3)
    const byLocale = [...ids].sort((a, b) => a.localeCompare(b))
    expect([...ids].sort(compareCommandIds)).to.deep.equal(byLocale)
    // Neighbours in that order, both ways round, and each id against itself.
    for (let i = 1; i < byLocale.length; i++) {
      const [a, b] = [byLocale[i - 1] as string, byLocale[i] as string]
      expect([compareCommandIds(a, b), compareCommandIds(b, a), compareCommandIds(a, a)], `${a} ${b}`).to.deep.equal([
        sign(a.localeCompare(b)),
        sign(b.localeCompare(a)),
        0,
      ])
    }
  })

  it('answers as localeCompare for ids with other characters (upper case, dots, spaces, accents)', () => {
    const odd = [
      'Tap',
      'tap',
      'tAp',
      'a.b',
      'a b',
      'ab',
      'a-b',
      'é',
      'e',
      'f',
      'app:Open',
      'app:open',
      'a1',
      'a:1',
      'A',
    ]
    for (const a of odd)
      for (const b of odd) expect(compareCommandIds(a, b), `${a} ${b}`).to.equal(sign(a.localeCompare(b)))
  })

  it("sorts arc's own command ids (every manifest the build writes) as localeCompare does", () => {
    const ids: string[] = []
    for (const manifest of [
      '../../../../oclif.manifest.json',
      '../../../../plugins/annotate/oclif.manifest.json',
      '../../../../plugins/mcp/oclif.manifest.json',
      '../../../../plugins/screen-state/oclif.manifest.json',
    ]) {
      try {
        const {commands} = JSON.parse(readFileSync(fileURLToPath(new URL(manifest, import.meta.url)), 'utf8')) as {
          commands: Record<string, unknown>
        }
        ids.push(...Object.keys(commands))
      } catch {
        // not built: the exhaustive case above still holds for them
      }
    }
    ids.push('batch', 'press:back', 'app:open-url', 'wait:element', 'files:read', 'mcp:serve', 'assert:screenshot')
    expect([...ids].sort(compareCommandIds)).to.deep.equal([...ids].sort((a, b) => a.localeCompare(b)))
  })
})
