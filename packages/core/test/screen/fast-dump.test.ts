import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {parseUiDump, sliceDump, type UiHierarchy, type UiNode} from '@arc-cli/core'
import {expect} from 'chai'

import {readPlainDump} from '../../src/screen/fast-dump.js'
import {readDumpTree} from '../../src/screen/parse-ui-dump.js'
import {dumpXml} from '@arc-cli/test-support/dump'
import {fixtureNames, fixturePath, requireFixtures, ROOT} from '@arc-cli/test-support/paths'

/**
 * A hierarchy written out whole: every node's own fields in their order (what JSON and deep equality see), its
 * children and its parent by position, so two readings compare equal only when they are the same tree.
 */
function writeOut(h: UiHierarchy): string {
  const order = new Map<UiNode, number>()
  const rows: unknown[] = []
  const visit = (node: UiNode): void => {
    order.set(node, order.size)
    const {children, parent, ...own} = node
    rows.push([Object.keys(node), own, parent === undefined ? -1 : order.get(parent), children.length])
    for (const child of children) visit(child)
  }
  for (const root of h.windows) visit(root)
  const {windows, ...rest} = h
  return JSON.stringify([Object.keys(h), rest, windows.length, rows])
}

/** What a reader makes of a document: the hierarchy written out, or the error's class and message. */
function outcome(read: () => UiHierarchy): string {
  try {
    return writeOut(read())
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`
  }
}

/** parseUiDump (plain reading where it applies) against the general reader alone, on the same text. */
function expectSameReading(raw: string, label: string): void {
  const general = outcome(() => readDumpTree(sliceDump(raw)))
  expect(
    outcome(() => parseUiDump(raw)),
    label
  ).to.equal(general)
}

const SMALL = dumpXml([
  {
    text: 'a & b <c> "d"',
    attrs: {'visible-to-user': 'true', hint: 'h', 'drawing-order': '2', 'display-id': '0', NAF: 'true'},
    children: [
      {cls: 'android.widget.Button', text: 'OK', res: 'com.example:id/ok'},
      {desc: 'x', bounds: [-5, 0, 10, 10]},
    ],
  },
  {pkg: 'com.android.systemui'},
])

describe('the plain dump reading (fast-dump.ts)', () => {
  it('reads the plain form itself, and gives what the general reader gives', () => {
    expect(readPlainDump(sliceDump(SMALL))).to.not.equal(undefined)
    expectSameReading(SMALL, 'small')
    const pretty = SMALL.replace(/></g, '>\n  <').replace(/ (?=[a-z-]+=)/g, '\r\n    ')
    expect(readPlainDump(sliceDump(pretty))).to.not.equal(undefined)
    expectSameReading(pretty, 'pretty-printed with CRLF')
  })

  it('leaves every other form to the general reader: same hierarchy or same error', () => {
    const first = SMALL.indexOf('<node') + '<node'.length
    const variants: Record<string, string> = {
      'repeated attribute': `${SMALL.slice(0, first)} text="x"${SMALL.slice(first)}`,
      'repeated unknown attribute': `${SMALL.slice(0, first)} foo="1" foo="2"${SMALL.slice(first)}`,
      'unknown entity': SMALL.replace('text="OK"', 'text="&nbsp;"'),
      'bad character reference': SMALL.replace('text="OK"', 'text="&#x110000;"'),
      'a bare ampersand': SMALL.replace('text="OK"', 'text="a & b"'),
      "'<' in a value": SMALL.replace('text="OK"', 'text="a<b"'),
      "'>' in a value": SMALL.replace('text="OK"', 'text="a>b"'),
      'single quotes': SMALL.replace('text="OK"', `text='say "OK"'`),
      'spaces around =': SMALL.replace('text="OK"', 'text = "OK"'),
      'no space between attributes': SMALL.replace('text="OK" ', 'text="OK"'),
      'a comment': SMALL.replace('</hierarchy>', '<!-- c --></hierarchy>'),
      'text between tags': SMALL.replace('</hierarchy>', 'junk</hierarchy>'),
      CDATA: SMALL.replace('</hierarchy>', '<![CDATA[x]]></hierarchy>'),
      'a space in a closing tag': SMALL.replace('</node>', '</node >'),
      'an extra closing tag': SMALL.replace('</hierarchy>', '</node></hierarchy>'),
      'no closing hierarchy': SMALL.replace('</hierarchy>', ''),
      'content after the end': `${SMALL.replace('</hierarchy>', '</hierarchy> <x/>')}`,
      'a comment after the end': `${SMALL}<!-- done -->`,
      'unreadable bounds': SMALL.replace('bounds="[0,0][100,100]"', 'bounds="[0,0][a,b]"'),
      'no bounds': SMALL.replace(/ bounds="\[0,0\]\[100,100\]"/, ''),
      'a self-closing hierarchy': '<?xml version="1.0"?><hierarchy rotation="1"/>',
      'an empty hierarchy': '<hierarchy rotation="3" width="10" height="20"></hierarchy>',
      'rotation out of range': SMALL.replace('rotation="0"', 'rotation="7"'),
      'class-name tags': SMALL.replaceAll('<node ', '<android.widget.View ').replaceAll(
        '</node>',
        '</android.widget.View>'
      ),
      'a tag named like node': SMALL.replace('<node ', '<nodes '),
      'a DOCTYPE': SMALL.replace('<hierarchy', '<!DOCTYPE hierarchy><hierarchy'),
      'an entity DOCTYPE': SMALL.replace('<hierarchy', '<!DOCTYPE x [<!ENTITY a "b">]><hierarchy'),
      'too deep': `<hierarchy>${'<node bounds="[0,0][1,1]">'.repeat(300)}${'</node>'.repeat(300)}</hierarchy>`,
      'just deep enough': `<hierarchy>${'<node bounds="[0,0][1,1]">'.repeat(254)}${'</node>'.repeat(254)}</hierarchy>`,
      'too many elements': `<hierarchy>${'<node bounds="[0,0][1,1]"/>'.repeat(50_000)}</hierarchy>`,
      'just few enough elements': `<hierarchy>${'<node bounds="[0,0][1,1]"/>'.repeat(49_999)}</hierarchy>`,
      'a node without attributes': SMALL.replace('</hierarchy>', '<node/></hierarchy>'),
    }
    for (const [label, xml] of Object.entries(variants)) expectSameReading(xml, label)
  })

  it('agrees with the general reader on every cut, and on 3000 random one-character changes', () => {
    for (let cut = 1; cut < SMALL.length; cut += 7) expectSameReading(SMALL.slice(0, cut), `cut at ${cut}`)
    const alphabet = ['<', '>', '"', "'", '=', '&', ';', '/', ' ', '\n', 'a', '-', '#', '[', ']', ',', '1', '?', '!']
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    for (let i = 0; i < 3000; i++) {
      const at = random(SMALL.length)
      const kind = random(3)
      const c = alphabet[random(alphabet.length)] as string
      const xml =
        kind === 0
          ? SMALL.slice(0, at) + SMALL.slice(at + 1)
          : kind === 1
            ? SMALL.slice(0, at) + c + SMALL.slice(at)
            : SMALL.slice(0, at) + c + SMALL.slice(at + 1)
      expectSameReading(xml, `change ${i}: ${JSON.stringify(xml.slice(Math.max(0, at - 20), at + 20))}`)
    }
  })

  it('reads the bundled demo dump the plain way, as the general reader does', () => {
    const xml = readFileSync(path.join(ROOT, 'packages', 'core', 'demo', 'window_dump.xml'), 'utf8')
    expect(readPlainDump(sliceDump(xml))).to.not.equal(undefined)
    expectSameReading(xml, 'demo')
  })

  describe('real fixtures (../shared/fixtures/real)', function () {
    before(function () {
      requireFixtures(this)
    })

    for (const name of fixtureNames()) {
      it(`${name}: every dump is read as the general reader reads it, the plain way where uiautomator wrote it`, () => {
        const files = readdirSync(fixturePath(name)).filter((f) => f.endsWith('.xml'))
        expect(files).to.not.have.length(0)
        for (const file of files) {
          const xml = readFileSync(fixturePath(name, file), 'utf8')
          const general = readDumpTree(sliceDump(xml))
          if (general.format === 'uiautomator') expect(readPlainDump(sliceDump(xml)), file).to.not.equal(undefined)
          expectSameReading(xml, file)
        }
      })
    }
  })
})
