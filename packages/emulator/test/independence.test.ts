import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

/**
 * The virtual device is a phone, not a mirror of arc (docs/emulate.md, "A phone, not a mirror of arc"): it must read
 * its screens and decide what a touch reaches by itself, so that where arc misreads a dump the device disagrees and a
 * test catches it. This lint reads every source file of packages/emulator and follows each name it imports (or
 * re-exports, or loads) from @arc-cli/core back to the core module that defines it. Only what is listed below may
 * come from core, each for a reason that decides nothing a phone would decide: arc's error classes and zod (so
 * `arc emulate` fails with arc's codes), and a few constants. Anything else, core's screen reading (src/screen/),
 * its driver (src/driver/), its state, tools or rules, is a new entry here, with its reason, for a reviewer to weigh.
 * No other arc package (a plugin, the test harness) may be imported at all.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..')
const CORE = path.join(ROOT, 'packages/core/src')
const EMULATOR = path.join(ROOT, 'packages/emulator/src')

/** Core modules every name of which the device may use, and why. */
const ALLOWED_MODULES = new Map([
  ['errors/arc-error.ts', "arc's error classes: `arc emulate` fails with arc's codes"],
  ['errors/describe-zod-issues.ts', "a bad scenario is described in arc's words"],
  ['(package zod)', 'the scenario schema (the one zod copy core bundles)'],
])

/** Single names the device may take from other core modules, and why they decide nothing a phone would. */
const ALLOWED_NAMES = new Map([
  ['shq', 'quotes the words of the program scripts the device writes into its own PATH'],
  ['unreachableSerial', 'refuses a scenario serial that arc --device could never name'],
  ['DEMO_DIR', 'where the bundled demo snapshot lies, for `--serial NAME=demo`'],
  ['PNG_SIGNATURE', "the PNG format's eight signature bytes"],
])

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? sources(full) : /\.(ts|js|cjs|mjs)$/.test(e.name) ? [full] : []
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

describe('the virtual device imports nothing of arc’s screen, driver or rules', () => {
  const core = exportsOf(path.join(CORE, 'index.ts'))

  it('knows where core’s public names come from (the lint reads core’s index)', () => {
    expect(core.get('walkNodes')).to.equal('screen/parse-ui-dump.ts')
    expect(core.get('SnapshotDriver')).to.equal('driver/snapshot-driver.ts')
    expect(core.get('isEditable')).to.equal('screen/node-rules.ts')
    expect(core.get('ConfigError')).to.equal('errors/arc-error.ts')
  })

  /** What a source file's text takes from other packages: [specifier, names (undefined: all of it)]. */
  function importsOf(text: string): Array<[string, string[] | undefined]> {
    const out: Array<[string, string[] | undefined]> = []
    const names = (list: string) =>
      list
        .split(',')
        .map((part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
            ?.trim()
        )
        .filter((n): n is string => !!n)
    for (const m of text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/g))
      out.push([m[2] as string, names(m[1] as string)])
    for (const m of text.matchAll(
      /(?:import|export)\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\w+)\s+from\s+['"]([^'"]+)['"]/g
    ))
      out.push([m[1] as string, undefined])
    for (const m of text.matchAll(/\b(?:import|require)\(\s*['"`]([^'"`]+)['"`]\s*\)/g))
      out.push([m[1] as string, undefined])
    return out
  }

  it('the lint sees named, default, namespace and dynamic imports, re-exports and require, in either quote', () => {
    const seen = importsOf(
      [
        "import {a, type B as C} from '@arc-cli/core'",
        'import {d} from "@arc-cli/core"',
        "export {e} from '@arc-cli/core'",
        "import * as f from '@arc-cli/core'",
        "import g from '@arc-cli/plugin-screen-state'",
        "const h = await import('@arc-cli/core/testing')",
        'const i = require("@arc-cli/core")',
      ].join('\n')
    )
    expect(seen).to.deep.include.members([
      ['@arc-cli/core', ['a', 'B']],
      ['@arc-cli/core', ['d']],
      ['@arc-cli/core', ['e']],
      ['@arc-cli/core', undefined],
      ['@arc-cli/plugin-screen-state', undefined],
      ['@arc-cli/core/testing', undefined],
    ])
    expect(seen).to.have.length(7)
  })

  it('every name taken from @arc-cli/core is on the lists above, and no other arc package is taken', () => {
    const offending: string[] = []
    for (const file of sources(EMULATOR)) {
      const at = path.relative(ROOT, file)
      for (const [spec, names] of importsOf(readFileSync(file, 'utf8'))) {
        const arcs = spec.startsWith('@arc-cli/') || spec.includes('/core/src') || spec.includes('packages/core')
        if (!arcs || spec.startsWith('@arc-cli/emulator')) continue
        if (spec !== '@arc-cli/core') {
          offending.push(`${at}: imports ${spec}`)
          continue
        }
        if (names === undefined) {
          offending.push(`${at}: takes all of @arc-cli/core`)
          continue
        }
        for (const name of names) {
          const where = core.get(name)
          if (where === undefined) offending.push(`${at}: ${name} is no export the lint can place`)
          else if (!ALLOWED_MODULES.has(where) && !ALLOWED_NAMES.has(name))
            offending.push(`${at}: ${name} (core ${where})`)
        }
      }
    }
    expect(
      offending,
      'the virtual device reads its screens with its own code (packages/emulator/src/screen-dump.ts)'
    ).to.deep.equal([])
  })
})
