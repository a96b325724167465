import {buildScreenModel} from '@arc-cli/core'
import {expect} from 'chai'

import {
  DEGRADED_NOTE,
  escapeCell,
  formatScreenState,
  NOTE_LINES,
  screenStateJson,
  truncate,
  TSV_HEADER,
} from '../src/format-tsv.js'
import {capture, dumpXml} from '@arc-cli/test-support/dump'

const rows = (text: string) => text.split('\n').filter((l) => l.startsWith('node_'))

describe('screen-state TSV', () => {
  const xml = dumpXml([
    {
      pkg: 'com.example.app',
      children: [
        {
          cls: 'android.widget.Button',
          text: 'OK',
          res: 'com.example.app:id/ok',
          bounds: [100, 200, 300, 260],
          attrs: {clickable: 'true'},
        },
        {cls: 'android.widget.FrameLayout', bounds: [0, 0, 10, 10]},
        {cls: 'android.widget.TextView', text: 'Hidden', bounds: [100, 2600, 300, 2660]},
        {
          cls: 'android.widget.EditText',
          text: 'secret',
          attrs: {password: 'true', clickable: 'true', focusable: 'true'},
        },
        {
          cls: 'android.widget.EditText',
          desc: 'Type here',
          res: 'input_name',
          bounds: [50, 500, 500, 560],
          attrs: {clickable: 'true', focusable: 'true'},
        },
      ],
    },
  ])
  const model = buildScreenModel(
    capture(xml, {width: 1080, height: 2400}, {foreground: {package: 'com.example.app', activity: '.Main'}})
  )
  const text = formatScreenState(model)
  const lines = text.split('\n')

  it('starts with the four note lines verbatim, then the screen line', () => {
    expect(lines.slice(0, 4)).to.deep.equal([...NOTE_LINES])
    expect(lines[0]).to.equal('note:structural-only nodes are omitted from the tree')
    // The spec's legend, unchanged, then arc's additions after it.
    expect(lines[2]).to.equal(
      'note:flags: on=onscreen off=offscreen clk=clickable lclk=longClickable foc=focusable scr=scrollable edt=editable ena=enabled' +
        ' chk=checked unchk=unchecked sel=selected fcs=hasInputFocus pwd=password hint=textIsTheEmptyFieldsHint'
    )
    expect(lines[3]).to.equal('note:offscreen items require scroll_to_element before interaction')
    expect(lines[4]).to.equal('screen:1080x2400 density:420 orientation:portrait')
  })

  it('prints the window header with the activity on the focused application window, then the TSV header', () => {
    expect(lines[5]).to.equal(
      '--- window:0 type:APPLICATION pkg:com.example.app title:- activity:.Main layer:0 focused:true ---'
    )
    expect(lines[6]).to.equal(TSV_HEADER)
  })

  it('prints one row per kept node with simple class names, `-` for empty values and flags on/off first', () => {
    const r = rows(text)
    expect(r).to.have.length(4)
    expect(r[0]?.split('\t').slice(1)).to.deep.equal([
      'Button',
      'OK',
      '-',
      'com.example.app:id/ok',
      '100,200,300,260',
      'on,clk,ena',
    ])
    expect(r[1]?.split('\t').slice(1)).to.deep.equal(['TextView', 'Hidden', '-', '-', '100,2600,300,2660', 'off,ena'])
    expect(r[3]?.split('\t').slice(1)).to.deep.equal([
      'EditText',
      '-',
      'Type here',
      'input_name',
      '50,500,500,560',
      'on,clk,foc,edt,ena',
    ])
  })

  it("never prints a password field's text", () => {
    expect(text).to.not.include('secret')
    expect(rows(text)[2]?.split('\t')[2]).to.equal('-')
    expect(JSON.stringify(screenStateJson(model))).to.not.include('secret')
  })

  it('cuts text and desc at 100 characters with ...truncated, never splitting an emoji', () => {
    expect(truncate('a'.repeat(100))).to.equal('a'.repeat(100))
    expect(truncate('a'.repeat(101))).to.equal(`${'a'.repeat(100)}...truncated`)
    expect(truncate('😀'.repeat(120))).to.equal(`${'😀'.repeat(100)}...truncated`)
  })

  it('escapes tabs, CR, LF and backslashes so every row has 7 columns', () => {
    expect(escapeCell('a\tb\nc\rd\\e')).to.equal('a\\tb\\nc\\rd\\\\e')
    const tricky = buildScreenModel(capture(dumpXml([{text: 'line1\nline2\tcol', desc: 'x\r\ny'}])))
    const row = rows(formatScreenState(tricky))[0] as string
    expect(row.split('\t')).to.have.length(7)
    expect(row).to.include('line1\\nline2\\tcol')
  })

  it('adds the degradation note when only the active window was dumped', () => {
    const degraded = buildScreenModel(capture(dumpXml([{text: 'x'}]), undefined, {allWindows: false}))
    const out = formatScreenState(degraded).split('\n')
    expect(out[4]).to.equal(DEGRADED_NOTE)
    expect(out[5]).to.match(/^screen:/)
  })

  it('prints density as - when the source cannot tell, and landscape when wider than tall', () => {
    const m = buildScreenModel({
      ...capture(dumpXml([{text: 'x'}]), {width: 1920, height: 1080}),
      screen: {width: 1920, height: 1080, rotation: 1},
    })
    expect(formatScreenState(m).split('\n')[4]).to.equal('screen:1920x1080 density:- orientation:landscape')
  })

  it('gives window types for IME and system windows, with the topmost (first) window on the highest layer', () => {
    const m = buildScreenModel(
      capture(
        dumpXml([
          {pkg: 'com.google.android.inputmethod.latin', text: 'q'},
          {pkg: 'com.android.systemui', text: '9:41'},
          {pkg: 'com.example', text: 'app'},
        ])
      )
    )
    const headers = formatScreenState(m)
      .split('\n')
      .filter((l) => l.startsWith('---'))
    expect(headers[0]).to.match(/type:INPUT_METHOD .* layer:2 focused:false/)
    expect(headers[1]).to.match(/type:SYSTEM .* layer:1 focused:false/)
    expect(headers[2]).to.match(/type:APPLICATION .* layer:0 focused:true/)
  })

  it('derives edt from the class: EditText and its kin', () => {
    const m = buildScreenModel(
      capture(
        dumpXml([
          {
            children: [
              'android.widget.EditText',
              'com.google.android.material.textfield.TextInputEditText',
              'android.widget.AutoCompleteTextView',
              'android.widget.TextView',
            ].map((cls) => ({cls, text: cls})),
          },
        ])
      )
    )
    expect(m.elements.map((e) => e.flags.edt)).to.deep.equal([true, true, true, false])
  })

  it('gives the same data as JSON, untruncated', () => {
    const long = buildScreenModel(capture(dumpXml([{text: 'b'.repeat(150)}])))
    const json = screenStateJson(long)
    expect(json.windows[0]?.elements[0]?.text).to.have.length(150)
    expect(json.screen).to.include({width: 1080, height: 2400, orientation: 'portrait'})
  })
})

describe('screen-state: the state an agent acts on', () => {
  const xml = dumpXml([
    {
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: 'android.widget.CheckBox',
          res: 'a:id/on',
          bounds: [0, 0, 100, 100],
          attrs: {checkable: 'true', checked: 'true', clickable: 'true'},
        },
        {
          cls: 'android.widget.Switch',
          res: 'a:id/off',
          bounds: [0, 100, 100, 200],
          attrs: {checkable: 'true', checked: 'false', clickable: 'true'},
        },
        {cls: 'android.widget.TextView', text: 'Tab', bounds: [0, 200, 100, 300], attrs: {selected: 'true'}},
        {
          cls: 'android.widget.EditText',
          text: 'Search',
          res: 'a:id/q',
          bounds: [0, 300, 500, 400],
          attrs: {hint: 'Search', focused: 'true'},
        },
        {
          cls: 'android.widget.EditText',
          text: 'milk',
          res: 'a:id/typed',
          bounds: [0, 400, 500, 500],
          attrs: {hint: 'Search'},
        },
        {
          cls: 'android.widget.EditText',
          text: '',
          res: 'a:id/pin',
          bounds: [0, 500, 500, 600],
          attrs: {password: 'true'},
        },
      ],
    },
  ])
  const model = buildScreenModel(capture(xml))
  const row = (res: string) =>
    formatScreenState(model)
      .split('\n')
      .find((l) => l.includes(`\t${res}\t`)) ?? ''
  const flags = (res: string) => row(res).split('\t')[6]

  it('tells checked from unchecked, and shows selection, input focus and password fields', () => {
    expect(flags('a:id/on')).to.equal('on,clk,ena,chk')
    expect(flags('a:id/off')).to.equal('on,clk,ena,unchk')
    expect(formatScreenState(model)).to.match(/\tTab\t.*\ton,ena,sel\n/)
    expect(flags('a:id/pin')).to.equal('on,edt,ena,pwd')
  })

  it('shows which option of a segmented control is chosen: a checked option that is no longer clickable keeps its row', () => {
    // As Compose writes a `selectable` row of options (the real ivi-lights screen): the chosen one is checked and
    // not clickable, its label a plain text inside it; an icon-only option has no words at all.
    const option = (label: string | undefined, left: number, chosen: boolean) => ({
      cls: 'android.view.View',
      bounds: [left, 358, left + 200, 446] as [number, number, number, number],
      attrs: {checkable: 'true', checked: String(chosen), clickable: String(!chosen)},
      children: label
        ? [
            {
              cls: 'android.widget.TextView',
              text: label,
              bounds: [left + 80, 388, left + 120, 417] as [number, number, number, number],
            },
          ]
        : [],
    })
    const segmented = buildScreenModel(
      capture(
        dumpXml([
          {
            bounds: [0, 0, 1920, 1080],
            children: [option('Off', 1050, false), option('Auto', 1250, false), option(undefined, 1450, true)],
          },
        ]),
        {width: 1920, height: 1080}
      )
    )
    const tsv = formatScreenState(segmented).split('\n')
    const options = tsv.filter((l) => l.includes('\tView\t'))
    expect(options.map((l) => l.split('\t').slice(5))).to.deep.equal([
      ['1050,358,1250,446', 'on,clk,ena,unchk'],
      ['1250,358,1450,446', 'on,clk,ena,unchk'],
      ['1450,358,1650,446', 'on,ena,chk'],
    ])
  })

  it('marks a field whose text is only its hint, and not a field holding text', () => {
    expect(flags('a:id/q')).to.equal('on,edt,ena,fcs,hint')
    expect(flags('a:id/typed')).to.equal('on,edt,ena')
    const fields = screenStateJson(model).windows[0]!.elements
    expect(fields.find((e) => e.res_id === 'a:id/q')).to.include({hint: 'Search'})
    expect(fields.find((e) => e.res_id === 'a:id/typed')).to.not.have.property('hint')
  })
})
