import {expect} from 'chai'

import {printedPath} from '../../src/driver/adb/files.js'

describe('printedPath: the path `realpath PATH && echo` printed', () => {
  it('takes every byte before the two line breaks of a raw stream (Android 7+)', () => {
    expect(printedPath('/sdcard/a\n\n')).to.equal('/sdcard/a')
    expect(printedPath('/sdcard/cr\r\n\n')).to.equal('/sdcard/cr\r')
    expect(printedPath('/sdcard/two\nlines\n\n')).to.equal('/sdcard/two\nlines')
  })

  it("reads the terminal's \\r\\n line breaks (adbd before Android 7), keeping a bare \\r", () => {
    expect(printedPath('/sdcard/a\r\n\r\n')).to.equal('/sdcard/a')
    expect(printedPath('/sdcard/cr\r\r\n\r\n')).to.equal('/sdcard/cr\r')
  })

  it('gives up on what it cannot tell apart or did not ask for', () => {
    // Through a terminal, `\r\n` in a name and a line break look the same.
    expect(printedPath('/sdcard/two\r\nlines\r\n\r\n')).to.equal(undefined)
    expect(printedPath('/sdcard/a\n')).to.equal(undefined)
    expect(printedPath('relative\n\n')).to.equal(undefined)
    expect(printedPath('')).to.equal(undefined)
  })
})
