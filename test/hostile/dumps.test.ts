import {expect} from 'chai'
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {exitCodeFor, parseUiDump, XML_LIMITS, type ErrorCode} from '@arc-cli/core'

import {
  BILLION_LAUGHS,
  CONTROL_CHARS_DUMP,
  deepDump,
  hugeDump,
  latin1Dump,
  utf16Dump,
  XXE,
  XXE_EXTERNAL_DTD,
} from '@arc-cli/test-support/hostile-inputs'
import {scratch, tree} from '@arc-cli/test-support/hostile'
import {runArc} from '@arc-cli/test-support/run-arc'

interface DumpCase {
  name: string
  dump: () => string | Buffer
  code: ErrorCode | 0
  says?: string
}

const CASES: DumpCase[] = [
  {
    name: `nested ${XML_LIMITS.maxDepth + 1} deep`,
    dump: () => deepDump(XML_LIMITS.maxDepth + 1),
    code: 'INVALID_DUMP',
    says: 'nests too deep',
  },
  {
    name: 'nested 3,000 deep (once a stack overflow)',
    dump: () => deepDump(3000),
    code: 'INVALID_DUMP',
    says: 'nests too deep',
  },
  {
    name: `nested ${XML_LIMITS.maxDepth - 1} deep (under the limit)`,
    dump: () => deepDump(XML_LIMITS.maxDepth - 1),
    code: 0,
  },
  {
    name: `${XML_LIMITS.maxElements + 1} elements`,
    dump: () => hugeDump(XML_LIMITS.maxElements),
    code: 'INVALID_DUMP',
    says: 'too large',
  },
  {name: 'billion laughs', dump: () => BILLION_LAUGHS, code: 'INVALID_DUMP', says: 'DOCTYPE with entity declarations'},
  {
    name: 'XXE (internal subset naming a file)',
    dump: () => XXE,
    code: 'INVALID_DUMP',
    says: 'DOCTYPE with entity declarations',
  },
  {name: 'XXE (external DTD)', dump: () => XXE_EXTERNAL_DTD, code: 'INVALID_DUMP', says: 'an external reference'},
  {name: 'Latin-1 bytes', dump: latin1Dump, code: 'INVALID_DUMP', says: 'not valid UTF-8'},
  {name: 'UTF-16 with a BOM', dump: utf16Dump, code: 'INVALID_DUMP', says: 'binary data'},
  {
    name: 'a NUL byte',
    dump: () => Buffer.from('<hierarchy>\u0000</hierarchy>'),
    code: 'INVALID_DUMP',
    says: 'binary data',
  },
  {
    name: 'an unknown entity',
    dump: () => deepDump(1).replace('item 0', '&bogus;'),
    code: 'INVALID_DUMP',
    says: 'unknown entity &bogus;',
  },
  {
    name: 'an attribute named __proto__',
    dump: () => deepDump(1).replace('index=', '__proto__="x" constructor="y" index='),
    code: 0,
  },
]

/** Hostile dumps through screen-state: a documented code and a message saying what was refused, never INTERNAL. */
describe('hostile: dumps', function () {
  let dir: string
  before(async () => {
    dir = await scratch()
  })

  for (const c of CASES) {
    it(`${c.name}: exit ${c.code === 0 ? 0 : `${c.code} (${exitCodeFor(c.code)})`}, no file changed`, async () => {
      const snap = path.join(dir, c.name.replace(/\W+/g, '-'))
      await mkdir(snap)
      await writeFile(path.join(snap, 'window_dump.xml'), c.dump())
      const before = await tree(dir)
      const run = await runArc(['screen-state', '-d', snap])
      expect(run.code, run.stderr).to.equal(c.code === 0 ? 0 : exitCodeFor(c.code))
      if (c.says) expect(run.stderr).to.include(c.says)
      expect(run.stderr)
        .to.not.include('INTERNAL')
        .and.not.match(/\n\s+at /)
      expect(await tree(dir)).to.deep.equal(before)
    })
  }

  it('control characters in dump text are escaped in the TSV (\\x1b, \\x07, \\x9b, \\x7f) and never reach the terminal raw', async () => {
    const file = path.join(dir, 'control.xml')
    await writeFile(file, CONTROL_CHARS_DUMP)
    const run = await runArc(['screen-state', '-d', file])
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.include('\\x1b[31mRED\\x1b[0m\\x07BEL\\x9b2J\\x7f')
    expect(run.stdout).to.not.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
  })

  it("a label cannot start a line of its own: U+2028 and U+2029 are written out in the TSV (Python's splitlines ends lines there), and a window's title or package cannot drive the terminal in compact", async () => {
    // An app's label that, cut at U+2028, would start a line reading as another element's row.
    const file = path.join(dir, 'separators.xml')
    await writeFile(
      file,
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays><display id="0"><window index="0" title="Chat&#27;[2J&#7;" bounds="[0,0][1080,2400]" active="true" focused="true" accessibility-focused="false" id="1" layer="1" type="TYPE_SYSTEM"><hierarchy rotation="0"><node index="0" text="Cancel&#x2028;node_abcdef	Button	Pay now	-	-	0,0,10,10	on,clk,ena" resource-id="" class="android.widget.Button" package="com.chat&#27;[31m" content-desc="Send&#x2029;node_ghjkmn" clickable="true" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" bounds="[0,0][1080,2400]" /></hierarchy></window></display></displays>`
    )
    const run = await runArc(['screen-state', '-d', file])
    expect(run.code, run.stderr).to.equal(0)
    // Every line boundary Python's str.splitlines() knows: the one row stays one line of 7 columns.
    const lines = run.stdout.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/)
    const rows = lines.filter((line) => line.startsWith('node_'))
    expect(rows, run.stdout).to.have.length(1)
    expect(rows[0]!.split('\t')).to.have.length(7)
    expect(rows[0]).to.include('Cancel\\u2028node_abcdef\\tButton').and.include('Send\\u2029node_ghjkmn')
    const compact = await runArc(['screen-state', '-d', file, '--detail', 'compact'])
    expect(compact.code, compact.stderr).to.equal(0)
    expect(compact.stdout).to.include('## system com.chat\\u{1b}[31m Chat\\u{1b}[2J\\u{7} focused')
    expect(compact.stdout).to.not.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/)
  })

  /** 20 buttons with `count` attributes arc does not read each (15.6 MB at 40,000). */
  const manyAttributes = (count: number, general = false) => {
    const attrs = Array.from({length: count}, (_, i) => `a${i}="xxxxxxxxxx"`).join(' ')
    const nodes = Array.from(
      {length: 20},
      (_, j) => `<node index="${j}" text="t${j}" class="android.widget.Button" bounds="[0,0][10,10]" ${attrs} />`
    ).join('')
    // A comment is outside the plain form: the general reader takes the document.
    return `<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">${general ? '<!-- c -->' : ''}<node index="0" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">${nodes}</node></hierarchy>`
  }

  for (const general of [false, true]) {
    it(`nodes with 40,000 attributes each end in time linear in the dump (once 54.6 s: a duplicate check per attribute over a list), ${general ? 'general' : 'plain'} reader`, () => {
      const hierarchy = parseUiDump(manyAttributes(40_000, general))
      expect(hierarchy.windows[0]?.children.map((n) => n.text)).to.deep.equal(
        Array.from({length: 20}, (_, j) => `t${j}`)
      )
      // An attribute given twice is still refused, however many there are.
      expect(() => parseUiDump(manyAttributes(3).replace('a2="xxxxxxxxxx"', 'a2="x" a1="y"'))).to.throw(
        /repeated|attribute a1/
      )
    })
  }

  it('the reader keeps no recursion on depth: the limit, not the stack, stops a 100,000-deep dump', () => {
    expect(() => parseUiDump(deepDump(100_000))).to.throw(/nests too deep: more than 256 levels/)
  })
})
