import {exitCodeFor} from '@arc-cli/core'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

const INVALID = exitCodeFor('INVALID_INPUT')

/** What users of other CLIs type first: -h, -v, `version`, and a flag spelt wrong. */
describe('the words users of other CLIs type', () => {
  it('-h is --help, for arc itself and for a command (topics included)', async () => {
    const top = await runArc(['-h'])
    expect(top.code, top.stderr).to.equal(0)
    expect(top.stdout).to.include('USAGE').and.include('TOPICS')
    const click = await runArc(['click', '-h'])
    expect(click.code, click.stderr).to.equal(0)
    expect(click.stdout).to.include('$ arc click')
    const back = await runArc(['press', 'back', '-h'])
    expect(back.code, back.stderr).to.equal(0)
    expect(back.stdout).to.include('$ arc press back')
  })

  it('-h after `--` is an argument of the command, not a request for help', async () => {
    const out = await runArc(['shell', '-d', 'demo', '--', 'ls', '-h'])
    expect(out.code).to.equal(exitCodeFor('DEVICE_READ_ONLY'))
    expect(out.stdout).to.equal('')
  })

  it('-v, --version and `arc version` print the same line; `arc version --json` names each part', async () => {
    const lines = await Promise.all([['-v'], ['--version'], ['version']].map((args) => runArc(args)))
    for (const out of lines) expect(out.code, out.stderr).to.equal(0)
    expect(lines[0]!.stdout).to.match(/^arc-cli\/\d+\.\d+\.\d+ \S+-\S+ node-v\d+/)
    expect(lines[1]!.stdout).to.equal(lines[0]!.stdout)
    expect(lines[2]!.stdout).to.equal(lines[0]!.stdout)
    const json = await runArc(['version', '--json'])
    expect(JSON.parse(json.stdout)).to.deep.equal({
      version: lines[0]!.stdout.split(' ')[0]!.split('/')[1],
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    })
  })

  it('a misspelt flag is refused with the flags it was probably meant to be', async () => {
    const detail = await runArc(['screen-state', '-d', 'demo', '--detial', 'compact'])
    expect(detail.code).to.equal(INVALID)
    expect(detail.stderr).to.include('Nonexistent flag: --detial (did you mean --detail?)')
    expect(detail.stdout).to.equal('')
    const text = await runArc(['click', '-d', 'demo', '--txt=OK'])
    expect(text.code).to.equal(INVALID)
    expect(text.stderr).to.include('(did you mean --text?)')
    // Nothing near: no guess.
    const far = await runArc(['tap', '--zzzzzz', '1'])
    expect(far.code).to.equal(INVALID)
    expect(far.stderr).to.include('Nonexistent flag: --zzzzzz').and.not.include('did you mean')
  })
})
