/**
 * No source module reaches itself through its relative imports, type-only ones included: calls go down (the
 * emulator's model below its programs, annotate's options below its tool). A loop hides which side is the lower.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {ROOT} from '@arc-cli/test-support/paths'
import {expect} from 'chai'

const SOURCE_DIRS = [
  'src',
  'packages/core/src',
  'packages/emulator/src',
  ...readdirSync(path.join(ROOT, 'plugins')).map((p) => `plugins/${p}/src`),
]
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') ? [full] : []
  })
}

/** The modules each module imports by a relative path. */
function graph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  return new Map(
    files.map((file) => {
      const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((m) => path.resolve(path.dirname(file), (m[1] ?? m[2]) as string).replace(/\.js$/, '.ts'))
        .filter((target) => known.has(target))
      return [file, targets]
    })
  )
}

/** One loop through `start`, as the path of modules, or undefined. */
function loopThrough(edges: Map<string, string[]>, start: string): string[] | undefined {
  const seen = new Set<string>()
  const walk = (at: string, trail: string[]): string[] | undefined => {
    for (const next of edges.get(at) ?? []) {
      if (next === start) return [...trail, next]
      if (seen.has(next)) continue
      seen.add(next)
      const found = walk(next, [...trail, next])
      if (found) return found
    }
    return undefined
  }
  return walk(start, [start])
}

describe('import cycles', () => {
  for (const dir of SOURCE_DIRS) {
    it(`${dir} has none`, () => {
      const edges = graph(sources(path.join(ROOT, dir)))
      const loops = [...edges.keys()].flatMap((file) => {
        const loop = loopThrough(edges, file)
        return loop ? [loop.map((f) => path.relative(ROOT, f)).join(' -> ')] : []
      })
      expect(loops).to.deep.equal([])
    })
  }
})
