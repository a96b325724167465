/**
 * Terminal columns for human tables: CJK, kana, Hangul, fullwidth forms and emoji take two, combining accents and
 * zero-width characters none; per grapheme cluster, so an emoji sequence or a flag is two. The table of wide
 * characters is checked against Unicode's EastAsianWidth.txt where the machine has it (Debian's unicode-data).
 */
import {
  buildScreenModel,
  displayWidth,
  elementTable,
  formatTable,
  padToWidth,
  parseUiDump,
  truncateToWidth,
} from '@arc-cli/core'
import {expect} from 'chai'

import {dumpXml} from '@arc-cli/test-support/dump'

import {EAW_VERSION} from '@arc-cli/core/testing'
import {EAW_FILE, eawAvailable, readEastAsianWidth, wideRanges} from '@arc-cli/test-support/east-asian-width'

describe('display width', () => {
  it('counts two columns for CJK, kana, Hangul, fullwidth forms and emoji; one for Latin, halfwidth kana and ambiguous', () => {
    const cases: Array<[string, number]> = [
      ['', 0],
      ['files.txt', 9],
      ['报告', 4], // Chinese ideographs
      ['にほんご', 8], // Hiragana
      ['カタカナ', 8], // Katakana
      ['ｶﾀｶﾅ', 4], // halfwidth Katakana: one column each
      ['한국어', 6], // Hangul syllables
      ['ＡＢ１', 6], // fullwidth forms
      ['\u3000', 2], // ideographic space
      ['「設定」', 8], // CJK brackets
      ['🙂', 2],
      ['⌚', 2], // a BMP emoji that is East Asian Wide
      ['❤', 1], // text presentation by default…
      ['❤\ufe0f', 2], // …emoji presentation with U+FE0F
      ['👍🏽', 2], // with a skin tone modifier
      ['👨\u200d👩\u200d👧', 2], // a ZWJ family
      ['🇯🇵', 2], // a flag: two regional indicators
      ['1\ufe0f\u20e3', 2], // keycap one
      ['é', 1], // precomposed
      ['e\u0301', 1], // e + combining acute
      ['\u0301', 0], // a combining mark alone
      ['a\u200bb', 2], // zero-width space
      ['\u1112\u1161\u11ab', 2], // 한 from conjoining jamo
      ['Привет', 6],
      ['αβγ', 3],
      ['…', 1], // East Asian Ambiguous: one column outside CJK locales
      ['\u00ad', 1], // the soft hyphen is shown
    ]
    for (const [text, width] of cases) expect(displayWidth(text), JSON.stringify(text)).to.equal(width)
  })

  it('pads to a column count and truncates by columns, never splitting a cluster', () => {
    expect(padToWidth('报告', 6)).to.equal('报告  ')
    expect(padToWidth('abc', 2)).to.equal('abc')
    expect(truncateToWidth('报告报告报告', 6)).to.equal('报告…')
    expect(truncateToWidth('报告报告报告', 7)).to.equal('报告报…')
    expect(truncateToWidth('报告报', 6)).to.equal('报告报')
    expect(truncateToWidth('cafe\u0301 au lait', 5)).to.equal('cafe\u0301…')
    expect(truncateToWidth('👨\u200d👩\u200d👧👨\u200d👩\u200d👧', 3)).to.equal('👨\u200d👩\u200d👧…')
    expect(displayWidth(truncateToWidth('Ω'.repeat(50), 40))).to.equal(40)
  })

  it('formatTable lines up Chinese, Japanese, Korean, emoji and combining accents by column', () => {
    const table = formatTable(
      ['NAME', 'SIZE', 'MODIFIED'],
      [
        ['报告.pdf', '5 B', '2024-01-15T10:30:00Z'],
        ['写真フォルダ', '-', '2024-01-15T10:31:00Z'],
        ['한국어.txt', '12 KB', '2024-01-15T10:32:00Z'],
        ['🙂👍🏽.png', '1 B', '2024-01-15T10:33:00Z'],
        ['cafe\u0301.txt', '3 MB', '2024-01-15T10:34:00Z'],
        ['ｶﾀｶﾅ.txt', '7 B', '2024-01-15T10:35:00Z'],
      ]
    )
    expect(table).to.equal(
      [
        'NAME          SIZE   MODIFIED',
        '报告.pdf      5 B    2024-01-15T10:30:00Z',
        '写真フォルダ  -      2024-01-15T10:31:00Z',
        '한국어.txt    12 KB  2024-01-15T10:32:00Z',
        '🙂👍🏽.png      1 B    2024-01-15T10:33:00Z',
        'cafe\u0301.txt      3 MB   2024-01-15T10:34:00Z',
        'ｶﾀｶﾅ.txt      7 B    2024-01-15T10:35:00Z',
      ].join('\n')
    )
    // Each cell starts at its header's terminal column on every line.
    const [head, ...lines] = table.split('\n')
    for (const line of lines) {
      let from = 0
      const starts = line.split(/ {2,}/).map((cell) => (from = line.indexOf(cell, from)))
      expect(
        starts.map((at) => displayWidth(line.slice(0, at))),
        line
      ).to.deep.equal(['NAME', 'SIZE', 'MODIFIED'].map((h) => head!.indexOf(h)))
    }
  })

  it("find's table cuts long text at 40 terminal columns, so a Chinese text is cut at 19 characters, not 39", () => {
    const texts = [
      '购物清单：牛奶、鸡蛋、面包、苹果、香蕉、橙子、葡萄、西瓜、草莓',
      'Shopping list: milk, eggs, bread, apples, bananas',
    ]
    const xml = dumpXml([
      {
        bounds: [0, 0, 1080, 2400],
        children: texts.map((text, i) => ({
          cls: 'android.widget.TextView',
          text,
          bounds: [0, i * 100, 1080, i * 100 + 100],
        })),
      },
    ])
    const hierarchy = parseUiDump(xml, 'test dump')
    const model = buildScreenModel({
      xml,
      hierarchy,
      screen: {width: 1080, height: 2400, rotation: 0},
      foreground: {},
      allWindows: true,
    })
    const [head, ...lines] = elementTable(model.elements.filter((e) => e.text !== '')).split('\n')
    const cells = lines.map((l) => l.split(/ {2,}/)[2]!)
    expect(cells).to.deep.equal(['购物清单：牛奶、鸡蛋、面包、苹果、香蕉…', 'Shopping list: milk, eggs, bread, apple…'])
    expect(cells.map(displayWidth)).to.deep.equal([39, 40])
    // The DESC column after them starts at one terminal column on both lines.
    expect(lines.map((l) => displayWidth(l.slice(0, l.indexOf('  -  ') + 2)))).to.deep.equal([
      head!.indexOf('DESC'),
      head!.indexOf('DESC'),
    ])
  })

  describe(`the wide table against Unicode's EastAsianWidth.txt (${EAW_FILE})`, () => {
    it(`gives two columns to exactly the Wide and Fullwidth code points of the file of Unicode ${EAW_VERSION}`, function () {
      if (!eawAvailable) this.skip() // apt-get install unicode-data
      const data = readEastAsianWidth()
      if (data.version !== EAW_VERSION) this.skip() // a newer file: regenerate the table with scripts/east-asian-wide.ts
      // Every listed code point: two columns for W and F, one for the rest, unless drawn without a column.
      const zero = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}\u1160-\u11ff\ud7b0-\ud7ff]$/u
      const wrong: string[] = []
      for (const [cp, cls] of data.classes) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue // surrogates are no characters
        const ch = String.fromCodePoint(cp)
        if (cp !== 0xad && zero.test(ch)) continue
        const expected = cls === 'W' || cls === 'F' ? 2 : 1
        if (displayWidth(ch) !== expected) wrong.push(`U+${cp.toString(16).toUpperCase()} ${cls} → ${displayWidth(ch)}`)
      }
      expect(wrong.slice(0, 20), `${wrong.length} code points differ`).to.deep.equal([])
      expect(wideRanges(data).length, 'the file lists wide ranges').to.be.greaterThan(50)
    })
  })
})
