import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

/**
 * The virtual device is a phone, not a mirror of arc (docs/emulate.md, "A phone, not a mirror of arc"): it must read
 * its screens and decide what a touch reaches by itself, so that where arc misreads a dump the device disagrees and a
 * test catches it. This lint reads every source file of packages/emulator and follows each name it imports from
 * @arc-cli/core back to the core module that defines it: none may come from core's screen reading (src/screen/) or
 * its device driver (src/driver/), save the two listed below, which read no screen.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..')
const CORE = path.join(ROOT, 'packages/core/src')
const EMULATOR = path.join(ROOT, 'packages/emulator/src')

/** Core modules under driver/ the device may use, and why they are no reading of a screen or a device. */
const ALLOWED = new Map([
  ['driver/adb/shell-quote.ts', 'shq: quotes the words of the program scripts the device writes into its own PATH'],
  ['driver/resolve-device.ts', 'unreachableSerial: refuses a scenario serial that arc --device could never name'],
])

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : []
  })
}

const toTs = (from: string, spec: string) =>
  path.relative(CORE, path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts')))

/** The names a core module exports, each with the module (relative to core/src) that defines it. */
function exportsOf(file: string, seen = new Set<string>()): Map<string, string> {
  const out = new Map<string, string>()
  if (seen.has(file)) return out
  seen.add(file)
  const rel = path.relative(CORE, file)
  const text = readFileSync(file, 'utf8')
  for (const m of text.matchAll(/export\s+\*\s+from\s+'(\.[^']+)'/g)) {
    const target = path.join(CORE, toTs(file, m[1] as string))
    for (const [name, where] of exportsOf(target, seen)) out.set(name, where)
  }
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    const spec = m[2] as string
    const where = spec.startsWith('.') ? toTs(file, spec) : `(package ${spec})`
    for (const part of (m[1] as string).split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
      if (name) out.set(name, where)
    }
  }
  for (const m of text.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:const|let|function\*?|class|interface|type|enum)\s+([\w$]+)/g
  )) {
    out.set(m[1] as string, rel)
  }
  return out
}

describe('the virtual device imports nothing of arc’s screen or driver reading', () => {
  const core = exportsOf(path.join(CORE, 'index.ts'))

  it('knows where core’s public names come from (the lint reads core’s index)', () => {
    expect(core.get('walkNodes')).to.equal('screen/parse-ui-dump.ts')
    expect(core.get('SnapshotDriver')).to.equal('driver/snapshot-driver.ts')
    expect(core.get('isEditable')).to.equal('screen/node-rules.ts')
    expect(core.get('ConfigError')).to.equal('errors/arc-error.ts')
  })

  it('every name imported from @arc-cli/core comes from neither screen/ nor driver/ (bar the listed exceptions)', () => {
    const offending: string[] = []
    for (const file of sources(EMULATOR)) {
      const text = readFileSync(file, 'utf8')
      const at = path.relative(ROOT, file)
      for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
        const spec = m[2] as string
        if (spec.startsWith('@arc-cli/core/') || spec.includes('/core/src') || spec.includes('packages/core')) {
          offending.push(`${at}: imports core's module ${spec} directly`)
          continue
        }
        if (spec !== '@arc-cli/core') continue
        for (const part of (m[1] as string).split(',')) {
          const name = part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
          if (!name) continue
          const where = core.get(name)
          if (where === undefined) offending.push(`${at}: ${name} is no export the lint can place`)
          else if ((where.startsWith('screen/') || where.startsWith('driver/')) && !ALLOWED.has(where))
            offending.push(`${at}: ${name} (core ${where})`)
        }
      }
      for (const m of text.matchAll(
        /import\s+\*\s+as\s+\w+\s+from\s+'@arc-cli\/core'|import\(\s*'@arc-cli\/core[^']*'\s*\)/g
      )) {
        offending.push(`${at}: ${m[0]} takes all of core`)
      }
    }
    expect(
      offending,
      'the virtual device reads its screens with its own code (packages/emulator/src/screen-dump.ts)'
    ).to.deep.equal([])
  })
})
