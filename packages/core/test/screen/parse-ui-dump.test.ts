import {InvalidDumpError, parseUiDump, sliceDump} from '@arc-cli/core'
import {expect} from 'chai'

import {dumpXml} from '@arc-cli/test-support/dump'

function expectDumpError(fn: () => unknown, pattern: RegExp): void {
  try {
    fn()
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidDumpError)
    expect((error as InvalidDumpError).code).to.equal('INVALID_DUMP')
    expect((error as Error).message).to.match(pattern)
    return
  }
  expect.fail(`expected an InvalidDumpError matching ${pattern}`)
}

const ONE = dumpXml([{text: 'hi', children: [{cls: 'android.widget.Button', text: 'OK'}]}])

describe('parseUiDump', () => {
  it('reads all three header variants', () => {
    for (const header of [
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
      "<?xml version='1.0' encoding='UTF-8' standalone='yes'?>",
      '<?xml version="1.0" encoding="UTF-8"?>',
    ]) {
      const h = parseUiDump(ONE.replace(/^<\?xml[^>]*>/, header))
      expect(h.windows).to.have.length(1)
      expect(h.windows[0]?.children[0]?.text).to.equal('OK')
    }
  })

  it('slices out the trailing message real devices print, and a leading log line', () => {
    const device = `${ONE}UI hierchary dumped to: /dev/tty\n`
    expect(sliceDump(device)).to.equal(ONE)
    expect(parseUiDump(`[tool] connected\r\n${device}`).nodeCount).to.equal(2)
  })

  it('decodes entities and numeric references, including code points above U+FFFF, and keeps NBSP, NNBSP and LRM', () => {
    const xml = ONE.replace(
      'text="hi"',
      'text="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#128151; &#x1F600; x\u00A0y\u202Fz\u200E"'
    )
    expect(parseUiDump(xml).windows[0]?.text).to.equal('a & b <c> "d" \'e\' 💗 😀 x\u00A0y\u202Fz\u200E')
  })

  it('reads several top-level windows, visible-to-user, NAF, hint, display-id and drawing-order', () => {
    const xml = dumpXml([
      {pkg: 'com.android.systemui', attrs: {'visible-to-user': 'true', 'display-id': '0'}},
      {attrs: {NAF: 'true', clickable: 'true', hint: 'Search', 'drawing-order': '3', 'visible-to-user': 'false'}},
    ])
    const h = parseUiDump(xml)
    expect(h.windows).to.have.length(2)
    expect(h.windows[0]).to.include({visibleToUser: true, displayId: 0})
    expect(h.windows[1]).to.include({naf: true, hint: 'Search', drawingOrder: 3, visibleToUser: false})
  })

  it('reads Appium-style dumps whose tags are class names', () => {
    const xml =
      '<?xml version="1.0"?><hierarchy rotation="1" width="1920" height="1080"><android.widget.FrameLayout text="" bounds="[0,0][10,10]"><android.widget.TextView text="x" bounds="[0,0][5,5]"/></android.widget.FrameLayout></hierarchy>'
    const h = parseUiDump(xml)
    expect(h.format).to.equal('classname-tags')
    expect(h.rotation).to.equal(1)
    expect(h.declaredSize).to.deep.equal({width: 1920, height: 1080})
    expect(h.windows[0]?.children[0]?.className).to.equal('android.widget.TextView')
  })

  it('rejects empty output', () => {
    expectDumpError(() => parseUiDump(''), /is empty/)
    expectDumpError(() => parseUiDump(Buffer.alloc(0)), /is empty/)
    expectDumpError(() => parseUiDump('  \n'), /is empty/)
  })

  it('rejects binary input', () => {
    expectDumpError(() => parseUiDump(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2])), /binary data/)
  })

  it('rejects bytes that are not UTF-8', () => {
    expectDumpError(
      () =>
        parseUiDump(
          Buffer.concat([Buffer.from(ONE.slice(0, 80)), Buffer.from([0xba, 0xfc]), Buffer.from(ONE.slice(80))])
        ),
      /not valid UTF-8/
    )
  })

  it('rejects non-XML text, naming how it starts', () => {
    expectDumpError(
      () => parseUiDump('error: device offline'),
      /not a uiautomator XML dump: it starts with "error: device offline"/
    )
  })

  it('explains uiautomator failures printed instead of XML', () => {
    expectDumpError(() => parseUiDump('ERROR: could not get idle state.'), /never became idle/)
    expectDumpError(() => parseUiDump('ERROR: null root node returned by UiTestAutomationBridge.'), /no window to dump/)
  })

  it('rejects truncated XML at any cut point, never returning half a screen', () => {
    for (let cut = 60; cut < ONE.length - 1; cut += 7) {
      expectDumpError(() => parseUiDump(ONE.slice(0, cut)), /truncated|not valid XML/)
    }
  })

  it('rejects mismatched tags, unknown entities, bad bounds and a foreign document element', () => {
    expectDumpError(() => parseUiDump(ONE.replace('</hierarchy>', '</node></hierarchy>')), /not valid XML/)
    expectDumpError(() => parseUiDump(ONE.replace('text="hi"', 'text="&nbsp;"')), /unknown entity &nbsp;/)
    expectDumpError(() => parseUiDump(ONE.replace('[0,0][100,100]', '[0,0][x,100]')), /unreadable bounds/)
    expectDumpError(() => parseUiDump('<?xml version="1.0"?><html></html>'), /unsupported dump format.*<html>/)
  })
})
