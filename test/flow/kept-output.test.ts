/**
 * What `arc test` keeps of a step's output for its report (src/flow/kept-output.ts): bounded whatever the step
 * writes, with the first lines (what a failure by exit status alone reports) and the last (where the error is).
 */
import {expect} from 'chai'

import {KEPT_CHARS, KeptOutput} from '../../src/flow/kept-output.js'

describe("arc test's copy of a step's output", () => {
  it('keeps small output whole, as written, less terminal control sequences split across writes', () => {
    const kept = new KeptOutput()
    kept.add('no element matches text "Pay"\n')
    kept.add(Buffer.from('Error [TIMEOUT]: \u001B['))
    kept.add('31mwait ran out\u001B[0m\n')
    expect(kept.text()).to.equal('no element matches text "Pay"\nError [TIMEOUT]: wait ran out\n')
  })

  it('keeps the head and the tail of a step that writes hundreds of times the bound, never the whole', () => {
    const kept = new KeptOutput()
    kept.add('first line\n')
    const block = Buffer.alloc(1024 * 1024, 0x41)
    for (let i = 0; i < 200; i++) kept.add(block) // 200 MB, as `files pull … -o -` writes it
    kept.add('\nError [DEVICE_COMMAND_FAILED]: the last words\n')
    const text = kept.text()
    expect(text.length).to.be.at.most(2 * KEPT_CHARS + 64)
    expect(text.startsWith('first line\nAAAA')).to.equal(true)
    expect(text.endsWith('AAAA\nError [DEVICE_COMMAND_FAILED]: the last words\n')).to.equal(true)
    expect(text).to.include('[… output left out …]')
  })

  it('keeps one write larger than the bound by its two ends', () => {
    const kept = new KeptOutput()
    kept.add(`${'h'.repeat(KEPT_CHARS)}${'m'.repeat(3 * KEPT_CHARS)}${'t'.repeat(KEPT_CHARS)}`)
    expect(kept.text()).to.equal(`${'h'.repeat(KEPT_CHARS)}\n[… output left out …]\n${'t'.repeat(KEPT_CHARS)}`)
  })
})
