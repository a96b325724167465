/**
 * scripts/bundle-ascii.js writes the core bundle in ASCII, so the loader (packages/core/src/loader/load-bundle.ts)
 * reads it as Latin-1, the quicker decoding: the non-ASCII characters esbuild leaves in regular expression
 * literals become escapes that match the same, and the source map's columns follow.
 */
import {spawnSync} from 'node:child_process'
import {cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'

import {expect} from 'chai'

import {asciiRegExps, escapeRegExpText} from '../../scripts/bundle-ascii.js'
import {CLI_ENTRY_VAR} from '@arc-cli/test-support/built-cli'
import {ROOT} from '@arc-cli/test-support/paths'

const DIST = path.join(ROOT, 'packages', 'core', 'dist')

/** The literal `/PATTERN/FLAGS` as a RegExp, read as JavaScript reads it. */
const literal = (text: string): RegExp => new Function(`return ${text}`)() as RegExp

describe('the core bundle in ASCII (scripts/bundle-ascii.js)', () => {
  it('the built bundle is ASCII throughout', () => {
    expect(process.env[CLI_ENTRY_VAR], 'the test setup could not prove dist current').to.equal('dist')
    const bytes = readFileSync(path.join(DIST, 'bundle', 'core.cjs'))
    const at = bytes.findIndex((b) => b > 127)
    expect(at, `a non-ASCII byte at ${at}`).to.equal(-1)
  })

  it('escapes the non-ASCII characters of a regular expression literal so it matches the same strings', () => {
    const cases: Array<[string, string[]]> = [
      ['/[\u001b\u009b][[()#;?]*m/g', ['\u001b[31m', '\u009b31m', 'x[31m', '\u009c31m']],
      ['/caf\\é/', ['café', 'cafe', 'caf\\é']],
      ['/[^é-ë]+/', ['é', 'f', 'ê']],
      ['/😀+/u', ['😀😀', '😀', '\ud83d', 'x']],
      ['/😀+/', ['😀\ude00', '😀😀', '\ud83d']],
      ['/[😀]/v', ['😀', '\ud83d']],
      ['/\\\\é/', ['\\é', 'é']],
    ]
    for (const [text, inputs] of cases) {
      const escaped = escapeRegExpText(text)
      expect(escaped, text).to.match(/^[\x00-\x7f]*$/)
      const before = literal(text)
      const after = literal(escaped)
      expect(after.flags, text).to.equal(before.flags)
      for (const input of inputs) {
        expect(input.replace(after, '<>'), `${text} on ${JSON.stringify(input)}`).to.equal(input.replace(before, '<>'))
      }
    }
  })

  it('shifts the source map columns after each escaped literal on its line, and only those', () => {
    // Line 0: `a=1;b=/é/;c=2;` with segments at columns 0 (a), 4 (b), 6 (the literal), 10 (c); line 1: one at 0.
    const code = 'a=1;b=/é/;c=2;\nd=3;'
    // Columns 0, 4, 6, 10 as deltas 0, 4, 2, 4 (each segment [column, source 0, line 0, column same]).
    const map = {version: 3, sources: ['x.js'], names: [], mappings: 'AAAA,IAAI,EAAE,IAAI;AACJ'}
    const out = asciiRegExps(code, map, 'x.js')
    expect(out.code).to.equal('a=1;b=/\\u00E9/;c=2;\nd=3;')
    // `c` moves from column 10 to 15 (delta 9 from the literal's 6: `S`); what it maps to stays (`AAI`).
    expect(out.map.mappings).to.equal('AAAA,IAAI,EAAE,SAAI;AACJ')
    expect(out.code.indexOf('c=2')).to.equal(15)
  })

  it('leaves an ASCII bundle as it is, and fails the build on a non-ASCII character outside a literal', () => {
    const map = {mappings: 'AAAA'}
    expect(asciiRegExps('a=/x/;', map, 'x.js')).to.deep.equal({code: 'a=/x/;', map})
    expect(() => asciiRegExps('a="é";', map, 'x.js')).to.throw(
      /x\.js: a non-ASCII character outside a regular expression literal/
    )
    expect(() => asciiRegExps('a=1;// é\n', map, 'x.js')).to.throw(/outside a regular expression literal/)
  })

  it('the loader reads an edited bundle holding non-ASCII text as UTF-8', () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'arc-bundle-ascii-'))
    try {
      cpSync(path.join(DIST, 'loader'), path.join(copy, 'dist', 'loader'), {recursive: true})
      cpSync(path.join(DIST, 'bundle'), path.join(copy, 'dist', 'bundle'), {recursive: true})
      const bundle = path.join(copy, 'dist', 'bundle', 'core.cjs')
      writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}\nmodule.exports.arcProbe = "é😀";\n`)
      const loader = pathToFileURL(path.join(copy, 'dist', 'loader', 'load-bundle.js')).href
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const l = await import(${JSON.stringify(loader)}); console.log(JSON.stringify(l.loadCore().arcProbe))`,
        ],
        {encoding: 'utf8', env: {...process.env, NODE_OPTIONS: ''}}
      )
      expect(run.status, run.stderr).to.equal(0)
      expect(JSON.parse(run.stdout)).to.equal('é😀')
    } finally {
      rmSync(copy, {recursive: true, force: true})
    }
  })
})
