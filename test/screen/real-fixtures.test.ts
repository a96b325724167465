import {
  buildScreenModel,
  ELEMENT_ID_PATTERN,
  FLAG_ORDER,
  InvalidDumpError,
  shouldKeepNode,
  SnapshotDriver,
  walkNodes,
} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {fixtureNames, fixturePath, requireFixtures} from '@arc-cli/test-support/paths'

const FLAG_WORDS = new Set<string>(FLAG_ORDER)

describe('real fixtures (../shared/fixtures/real)', function () {
  before(function () {
    requireFixtures(this)
  })

  for (const name of fixtureNames()) {
    it(`${name}: parses and prints a well-formed screen-state`, async () => {
      const driver = await SnapshotDriver.open(fixturePath(name))
      const capture = await driver.captureScreen()
      const model = buildScreenModel(capture)
      const text = formatScreenState(model)
      const lines = text.split('\n')

      // Rows: exactly 7 columns, valid flags with on/off first.
      const rows = lines.filter((l) => l.startsWith('node_'))
      for (const row of rows) {
        const cols = row.split('\t')
        expect(cols, row).to.have.length(7)
        expect(cols[0]).to.match(ELEMENT_ID_PATTERN)
        const flags = (cols[6] as string).split(',')
        expect(['on', 'off']).to.include(flags[0])
        for (const f of flags.slice(1)) expect(FLAG_WORDS.has(f), `flag ${f}`).to.equal(true)
        expect(cols[5]).to.match(/^-?\d+,-?\d+,-?\d+,-?\d+$/)
      }
      // Ids unique within the screen.
      const ids = rows.map((r) => r.split('\t')[0])
      expect(new Set(ids).size).to.equal(ids.length)
      // Kept rows follow the filter, counted independently over the raw nodes.
      const expected = [...walkNodes(model.hierarchy.windows)].filter(shouldKeepNode).length
      expect(rows).to.have.length(expected)
      // One section per window, each with the header.
      const sections = lines.filter((l) => l.startsWith('--- window:'))
      expect(sections).to.have.length(model.hierarchy.windows.length)
      expect(lines.filter((l) => l === 'id\tclass\ttext\tdesc\tres_id\tbounds\tflags')).to.have.length(sections.length)
    })
  }

  it('refuses the log-prefixed dump re-encoded as CP949 with a clear UTF-8 error, not mojibake', async () => {
    const raw = await SnapshotDriver.open(fixturePath('ivi-car-quicksettings-kr', 'raw_ui_dump_with_log_prefix.xml'))
    try {
      await raw.captureScreen()
      expect.fail('expected an InvalidDumpError')
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidDumpError)
      expect((error as Error).message).to.match(/not valid UTF-8 \(first bad byte on line \d+\)/)
    }
  })

  it('keeps U+00A0 and U+200E and decodes numeric references above U+FFFF', async () => {
    const all: string[] = []
    for (const name of fixtureNames()) {
      const model = buildScreenModel(await (await SnapshotDriver.open(fixturePath(name))).captureScreen())
      for (const e of model.elements) all.push(e.text, e.desc)
    }
    const joined = all.join('\n')
    expect(joined).to.include('\u00A0')
    expect(joined).to.include('\u200E')
    expect(/[\u{10000}-\u{10FFFF}]/u.test(joined)).to.equal(true)
    expect(joined).to.not.match(/&#\d+;|&amp;/)
  })

  it('reads a rotation="1" dump whose bounds are portrait as portrait (size from the dump)', async () => {
    const model = buildScreenModel(
      await (await SnapshotDriver.open(fixturePath('xmlonly-bluestacks-rot1-portrait-bounds'))).captureScreen()
    )
    expect(model.screen.rotation).to.equal(1)
    expect(model.orientation).to.equal('portrait')
  })

  it('reads a rotation="1" tablet screenshot as landscape', async () => {
    const model = buildScreenModel(
      await (await SnapshotDriver.open(fixturePath('tablet-landscape-music-cjk'))).captureScreen()
    )
    expect(model.screen).to.include({width: 1920, height: 1200, rotation: 1})
    expect(model.orientation).to.equal('landscape')
  })

  it('never fails with anything but a clean InvalidDumpError', async () => {
    for (const name of fixtureNames()) {
      try {
        buildScreenModel(await (await SnapshotDriver.open(fixturePath(name))).captureScreen())
      } catch (error) {
        expect(error).to.be.instanceOf(InvalidDumpError)
      }
    }
  })
})
