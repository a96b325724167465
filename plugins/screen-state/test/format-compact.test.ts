import {bareElementId, buildScreenModel, fullElementId, SnapshotDriver, type ScreenElement} from '@arc-cli/core'
import {expect} from 'chai'

import {compactRole, compactText, formatCompact, isInteractive, shortResId} from '../src/format-compact.js'
import {formatScreenState} from '../src/format-tsv.js'
import {capture, dumpXml} from '@arc-cli/test-support/dump'
import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'

/** Ids at the start of compact rows (printed without `node_`), in full. */
function rowIds(text: string): string[] {
  // The first two lines are the legend and the `screen …` line.
  return text
    .split('\n')
    .slice(2)
    .flatMap((l) => {
      const id = /^([2-9a-hjkmnp-z]{6}(-[1-9]\d*)?) /.exec(l)?.[1]
      return id ? [fullElementId(id)] : []
    })
}

describe('compact screen-state on every real fixture: nothing an agent needs is lost', function () {
  const names = fixturesAvailable ? fixtureNames() : []
  before(function () {
    if (!fixturesAvailable) this.skip()
  })

  for (const name of names) {
    it(`${name}: every on-screen control and text keeps its row or its words, under the default format's ids`, async () => {
      const model = buildScreenModel(await (await SnapshotDriver.open(fixturePath(name))).captureScreen())
      const compact = formatCompact(model)
      const full = formatScreenState(model)
      const ids = rowIds(compact)
      const listed = new Set(ids)
      // The same ids: every id compact prints is a row of the default format, once; no row prints the prefix.
      expect(compact).to.not.match(/^node_/m)
      expect(ids.length).to.equal(listed.size)
      for (const id of ids) expect(full).to.include(`\n${id}\t`)
      const onScreen = model.elements.filter((e) => e.flags.on)
      for (const e of onScreen.filter(isInteractive)) {
        expect(listed.has(e.id), `${e.id} (interactive) missing`).to.equal(true)
        const row = compact.split('\n').find((l) => l.startsWith(`${bareElementId(e.id)} `)) as string
        // Its flags as an agent acts on them.
        expect(row.includes(` @`), `${e.id} clickable mark`).to.equal(e.flags.clk)
        if (e.flags.scr) expect(row).to.match(/ (\S+,)?scr\b/)
        if (e.flags.edt) expect(row).to.match(/\bedt\b/)
        if (!e.flags.ena) expect(row).to.match(/\bdis\b/)
      }
      // All visible text: every on-screen text and description is written, on its own row or its target's.
      for (const e of onScreen) {
        if (e.text) expect(compact, `${e.id} text`).to.include(`"${compactText(e.text, '"')}"`)
        if (e.desc && e.desc !== e.text) expect(compact, `${e.id} desc`).to.include(`[${compactText(e.desc, ']')}]`)
      }
      // Rows left out are layout only (or plain text carried by a target), and off-screen rows are summarised.
      const dropped = onScreen.filter((e: ScreenElement) => !listed.has(e.id))
      for (const e of dropped) expect(isInteractive(e)).to.equal(false)
      const off = model.elements.filter((e) => !e.flags.on && (isInteractive(e) || e.text || e.desc))
      if (off.length > 0) expect(compact).to.match(/^off-screen: /m)
      for (const e of off) expect(listed.has(e.id)).to.equal(false)
    })
  }
})

describe('compact screen-state rows', () => {
  it('shortens roles and resource ids, escapes what would break a line, cuts at 100 characters', () => {
    expect(compactRole('Button')).to.equal('btn')
    expect(compactRole('AppCompatImageButton')).to.equal('btn')
    expect(compactRole('TextView')).to.equal('')
    expect(compactRole('TextInputEditText')).to.equal('edit')
    expect(compactRole('SwitchCompat')).to.equal('switch')
    expect(compactRole('Chronometer')).to.equal('Chronometer')
    expect(shortResId('com.foo:id/title', 'com.foo')).to.equal('title')
    expect(shortResId('android:id/title', 'com.foo')).to.equal('android:id/title')
    expect(compactText('a"b\nc\td\\e\u0007', '"')).to.equal('a\\"b\\nc\\td\\\\e\\u{7}')
    expect(compactText('x]y', ']')).to.equal('x\\]y')
    expect(Array.from(compactText('😀'.repeat(120), '"'))).to.have.length(101)
  })

  it('writes a target with the text inside it, a checkbox state, disabled and focused, and summarises off-screen rows', () => {
    const xml = dumpXml([
      {
        pkg: 'com.foo',
        bounds: [0, 0, 1080, 2400],
        children: [
          {
            res: 'com.foo:id/row',
            bounds: [0, 100, 1080, 200],
            attrs: {clickable: 'true'},
            children: [{text: 'Wi-Fi', pkg: 'com.foo', bounds: [20, 110, 500, 190]}],
          },
          {
            cls: 'android.widget.CheckBox',
            res: 'com.foo:id/done',
            bounds: [0, 300, 100, 400],
            attrs: {clickable: 'true', checkable: 'true', checked: 'true'},
          },
          {
            cls: 'android.widget.Button',
            text: 'Send',
            bounds: [0, 500, 100, 600],
            attrs: {clickable: 'true', enabled: 'false'},
          },
          {
            cls: 'android.widget.EditText',
            text: 'hi',
            bounds: [0, 700, 1080, 800],
            attrs: {focused: 'true', clickable: 'true'},
          },
          {res: 'com.foo:id/spacer', bounds: [0, 900, 1080, 910]},
          {
            cls: 'androidx.recyclerview.widget.RecyclerView',
            bounds: [0, 1000, 1080, 2400],
            attrs: {scrollable: 'true'},
            children: [{text: 'Below', bounds: [0, 2500, 1080, 2600], attrs: {clickable: 'true'}}],
          },
        ],
      },
    ])
    const model = buildScreenModel(capture(xml))
    const lines = formatCompact(model).split('\n').slice(2)
    const id = (text: string) =>
      bareElementId(model.elements.find((e) => e.text === text || e.resId === text)?.id as string)
    expect(lines).to.deep.equal([
      '## application com.foo focused',
      `${id('com.foo:id/row')} "Wi-Fi" @540,150`,
      `${id('com.foo:id/done')} check #done @50,350 checked`,
      `${id('Send')} btn "Send" @50,550 dis`,
      `${id('hi')} edit "hi" @540,750 edt,focused`,
      `${bareElementId(model.elements.find((e) => e.className === 'RecyclerView')?.id as string)} list ~540,1700 scr`,
      `off-screen: 1 below (1 interactive); scroll ${bareElementId(model.elements.find((e) => e.className === 'RecyclerView')?.id as string)}`,
    ])
  })
  it('gives the point a tap reaches: never a key of the keyboard or a bar over the element, never past a 1 px edge', () => {
    // The keyboard (topmost: a recorded dump lists it first) covers the bottom third of the app. A tap at the centre
    // of a row half behind it would press a key; a button wholly behind it has no point a tap reaches.
    const xml = dumpXml([
      {
        pkg: 'com.google.android.inputmethod.latin',
        bounds: [0, 1600, 1080, 2400],
        children: [
          {
            text: 'q',
            pkg: 'com.google.android.inputmethod.latin',
            bounds: [0, 1600, 108, 1750],
            attrs: {clickable: 'true'},
          },
        ],
      },
      {
        pkg: 'com.foo',
        bounds: [0, 0, 1080, 2400],
        children: [
          {cls: 'android.widget.Button', text: 'Half', bounds: [0, 1500, 1080, 1700], attrs: {clickable: 'true'}},
          {cls: 'android.widget.Button', text: 'Hidden', bounds: [0, 2000, 1080, 2100], attrs: {clickable: 'true'}},
          {cls: 'android.widget.Button', text: 'Pixel', bounds: [10, 10, 11, 11], attrs: {clickable: 'true'}},
        ],
      },
    ])
    const model = buildScreenModel(capture(xml))
    const row = (text: string) => {
      const id = bareElementId(model.elements.find((e) => e.text === text)?.id as string)
      return formatCompact(model)
        .split('\n')
        .find((l) => l.startsWith(`${id} `))
    }
    expect(row('Half')).to.match(/ btn "Half" @540,1550$/)
    expect(row('Hidden')).to.match(/ btn "Hidden" covered$/)
    // Right and bottom edges are outside a rectangle (Android's Rect.contains): [10,11) holds 10 only.
    expect(row('Pixel')).to.match(/ btn "Pixel" @10,10$/)
    // The keyboard's own keys are what a tap there reaches.
    expect(row('q')).to.match(/ "q" @54,1675$/)
  })
  it('gives no point for an element of another display: a tap reaches display 0, where another element is', () => {
    // Android's `input tap` (and arc's helper) inject pointer events into the default display; a window on display 2
    // has its own coordinates, so its centre on display 0 is some other element's place (here the OK button's).
    const xml = dumpXml([
      {
        pkg: 'com.example.cast',
        bounds: [0, 0, 1920, 1080],
        attrs: {'display-id': '2'},
        children: [
          {
            cls: 'android.widget.Button',
            text: 'Pay',
            pkg: 'com.example.cast',
            bounds: [400, 900, 700, 1100],
            attrs: {clickable: 'true', 'display-id': '2'},
          },
        ],
      },
      {
        pkg: 'com.foo',
        bounds: [0, 0, 1080, 2400],
        attrs: {'display-id': '0'},
        children: [
          {
            cls: 'android.widget.Button',
            text: 'OK',
            bounds: [400, 900, 700, 1100],
            attrs: {clickable: 'true', 'display-id': '0'},
          },
        ],
      },
    ])
    const model = buildScreenModel(capture(xml))
    const compact = formatCompact(model)
    const row = (text: string) => {
      const id = bareElementId(model.elements.find((e) => e.text === text)?.id as string)
      return compact.split('\n').find((l) => l.startsWith(`${id} `))
    }
    expect(compact).to.match(/^## application com.example.cast display:2/m)
    expect(row('OK')).to.match(/ btn "OK" @550,1000$/)
    expect(row('Pay')).to.match(/ btn "Pay"$/)
  })
})
