import {expect} from 'chai'

import {argumentsNotUtf8, checkArgumentText} from '../../src/cli/argv-text.js'
import type {ArcError} from '../../src/errors/arc-error.js'

function refusal(run: () => void): ArcError | undefined {
  try {
    run()
    return undefined
  } catch (error) {
    return error as ArcError
  }
}

describe('checkArgumentText: arguments whose bytes were not UTF-8', () => {
  const lossy = Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('utf8')

  it('refuses the one Node.js decoded with U+FFFD for bytes it could not read, naming it', () => {
    const argv = ['node', 'arc', 'shell', '--', 'echo', lossy]
    const error = refusal(() => checkArgumentText(['--', 'echo', lossy], argv, () => new Set([lossy])))
    expect(error?.code).to.equal('INVALID_INPUT')
    expect(error?.message).to.equal(
      'argument 4 ("caf\uFFFD") holds bytes that are not UTF-8 (shown as U+FFFD): arc reads its command line as UTF-8, cannot tell which bytes were meant, and would send the device others; nothing was sent'
    )
  })

  it('takes U+FFFD typed as itself, where the command line shows its bytes were UTF-8', () => {
    const argv = ['node', 'arc', 'type', 'a\uFFFDb']
    expect(refusal(() => checkArgumentText(['a\uFFFDb'], argv, () => new Set()))).to.equal(undefined)
  })

  it('refuses any U+FFFD where the command line cannot be read (it cannot tell which it is)', () => {
    const argv = ['node', 'arc', 'type', 'a\uFFFDb']
    const error = refusal(() => checkArgumentText(['a\uFFFDb'], argv, () => undefined))
    expect(error?.message).to.match(/^argument 2 \("a\uFFFDb"\) holds U\+FFFD, the character a command line gets/)
  })

  it("leaves a script line's arguments alone (not on the command line: the script was read as strict UTF-8)", () => {
    const argv = ['node', 'arc', 'batch', 'script.txt']
    expect(refusal(() => checkArgumentText(['a\uFFFDb'], argv, () => undefined))).to.equal(undefined)
  })

  it('reads /proc/self/cmdline where there is one: this process was started with UTF-8 arguments', function () {
    const found = argumentsNotUtf8()
    if (found === undefined) this.skip()
    expect([...(found ?? [])]).to.deep.equal([])
  })
})
