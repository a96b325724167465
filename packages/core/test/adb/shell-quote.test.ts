import {execFileSync} from 'node:child_process'

import {expect} from 'chai'

import {raw, shellCommand, shq} from '../../src/driver/adb/shell-quote.js'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'

describe('shell quoting', () => {
  it('wraps in single quotes and escapes embedded ones', () => {
    expect(shq('abc')).to.equal("'abc'")
    expect(shq("it's")).to.equal(`'it'\\''s'`)
    expect(shq('')).to.equal("''")
  })

  it('refuses NUL, which no shell argv can carry', () => {
    expect(() => shq('a\0b')).to.throw(/NUL/)
  })

  it('writes numbers and raw words as they are and quotes every other string', () => {
    expect(shellCommand(['input', 'tap', 10, 20.5, raw(';'), 'x y'])).to.equal("'input' 'tap' 10 20.5 ; 'x y'")
  })

  for (const value of NASTY_STRINGS) {
    it(`arrives byte for byte through a POSIX sh: ${JSON.stringify(value)}`, () => {
      const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${shq(value)}`])
      expect(out.toString('utf8')).to.equal(value)
    })
  }
})
