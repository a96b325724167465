import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel} from '@arc-cli/core'
import {expect} from 'chai'

import {mainScrollable} from '../../src/tools/list-search.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {capture, dumpXml} from '@arc-cli/test-support/dump'
import {longListDevice} from '@arc-cli/test-support/long-list'
import {runArc} from '@arc-cli/test-support/run-arc'

/**
 * `arc scroll-to` with a selector searches a long list for a row not drawn yet: it swipes inside the screen's main
 * list and reads again until one element matches, several do, the list ends or the cap is reached. Run as a user
 * runs it, against `arc emulate` showing a list whose swipes move through its screens (packages/test-support/src/long-list.ts);
 * the swipes sent are read from the emulator's command log.
 */
describe('scroll-to: searching a long list for a selector', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    const device = await longListDevice(dir)
    const plain = path.join(dir, 'plain.xml')
    await writeFile(
      plain,
      dumpXml([
        {
          pkg: 'com.example.shop',
          bounds: [0, 0, 1080, 2400],
          children: [{cls: 'android.widget.TextView', text: 'Nothing to scroll', bounds: [0, 200, 1080, 400]}],
        },
      ])
    )
    return {devices: [], scenario: {devices: {'emu-1': {...device, screens: {...device.screens, plain}}}}}
  })
  beforeEach(() => h.emu.device('emu-1').showScreen('page1'))

  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const inputsSince = (from: number) =>
    h.emu.commands
      .slice(from)
      .map((c) => c.argv)
      .filter((a) => a[0] === 'input')
  /** The swipe a search makes in the list (y 200-2200): half its height, centred; "down" moves the finger up. */
  const DOWN = ['input', 'swipe', '540', '1700', '540', '700', '400']
  const UP = ['input', 'swipe', '540', '700', '540', '1700', '400']
  const idOn = async (text: string) =>
    JSON.parse((await arc('find', 'text', text, '--exact-match', '--json')).stdout).elements[0].id as string

  it('found after N scrolls: one swipe per read until it matches, then its id and the count', async () => {
    const from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Pears', '--exact-match')
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(inputsSince(from)).to.deep.equal([DOWN, DOWN, DOWN])
    expect(h.emu.device('emu-1').screenName).to.equal('page4')
    expect(run.stdout).to.equal(
      `Scrolled to element '${await idOn('Pears')}' (found by --text "Pears" --exact-match) (3 scroll(s))\n`
    )
    h.emu.device('emu-1').showScreen('page1')
    const json = JSON.parse((await arc('scroll-to', '--text', 'kiwi', '--json')).stdout)
    expect(json).to.deep.equal({
      element_id: await idOn('Kiwis'),
      scrolls: 1,
      already_visible: false,
      selector: {text: 'kiwi', exact_match: false},
    })
  })

  it("a row found cut off at the list's edge is then brought into view as scroll-to does, the scrolls counted together", async () => {
    const from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Olive oil')
    expect(run.code).to.equal(0)
    // Two search swipes; page3 shows a third of the row, so one swipe toward it (60% of the list) brings page4.
    expect(inputsSince(from)).to.deep.equal([DOWN, DOWN, ['input', 'swipe', '540', '1800', '540', '600', '400']])
    expect(run.stdout).to.equal(
      `Scrolled to element '${await idOn('Olive oil')}' (found by --text "Olive oil") (3 scroll(s))\n`
    )
  })

  it('--direction up scrolls back up the list (the finger moves down)', async () => {
    h.emu.device('emu-1').showScreen('page4')
    const from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Apples', '--direction', 'up')
    expect(run.code).to.equal(0)
    expect(inputsSince(from)).to.deep.equal([UP, UP, UP])
    expect(run.stdout).to.equal(
      `Scrolled to element '${await idOn('Apples')}' (found by --text "Apples") (3 scroll(s))\n`
    )
  })

  it('the end of the list (a swipe that changes nothing): ELEMENT_NOT_FOUND saying so, with the way back', async () => {
    const from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Zucchini')
    expect(run.code).to.equal(9)
    expect(run.stderr).to.contain(
      'Error [ELEMENT_NOT_FOUND]: no element matches --text "Zucchini": scrolled the list down to its end (4 scroll(s); the last one changed nothing)'
    )
    expect(run.stderr).to.contain('Try: Search the other way: --direction up.')
    expect(inputsSince(from)).to.deep.equal([DOWN, DOWN, DOWN, DOWN])
    const up = JSON.parse((await arc('scroll-to', '--text', 'Zucchini', '--direction', 'up', '--json')).stdout).error
    expect(up).to.include({code: 'ELEMENT_NOT_FOUND', exitCode: 9})
    expect(up.details).to.deep.equal({
      selector: {text: 'Zucchini'},
      exact_match: false,
      direction: 'up',
      scrolls: 4,
      max_scrolls: 20,
      end_of_list: true,
      reason: 'END_OF_LIST',
    })
  })

  it('the cap (--max-scrolls): ELEMENT_NOT_FOUND after that many swipes; 0 searches not at all', async () => {
    let from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Pears', '--max-scrolls', '2')
    expect(run.code).to.equal(9)
    expect(run.stderr).to.contain(
      'no element matches --text "Pears": not within 2 scroll(s) down (--max-scrolls 2), and the list goes on'
    )
    expect(run.stderr).to.contain(
      'Try: Allow more scrolls (--max-scrolls, at most 100), or search the other way: --direction up.'
    )
    expect(inputsSince(from)).to.deep.equal([DOWN, DOWN])
    h.emu.device('emu-1').showScreen('page1')
    from = h.emu.commands.length
    const none = await arc('scroll-to', '--text', 'Pears', '--max-scrolls', '0')
    expect(none.code).to.equal(9)
    expect(none.stderr).to.contain('no element on the current screen matches --text "Pears"')
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('several matches after scrolling: ELEMENT_AMBIGUOUS with the candidates, acting on none', async () => {
    const from = h.emu.commands.length
    const run = await arc('scroll-to', '--desc', 'on offer', '--json')
    expect(run.code).to.equal(20)
    const error = JSON.parse(run.stdout).error
    expect(error.message).to.match(
      /^2 elements match --desc "on offer" \(after 2 scroll\(s\)\), and arc acts on one element only/
    )
    expect(error.details).to.include({count: 2, scrolls: 2})
    expect(error.details.candidates.map((c: {text: string}) => c.text)).to.deep.equal(['Oat milk', 'Olive oil'])
    expect(inputsSince(from)).to.deep.equal([DOWN, DOWN])
  })

  it('found on the first read: no swipe at all; no list on the screen: ELEMENT_NOT_FOUND as before, nothing sent', async () => {
    let from = h.emu.commands.length
    const run = await arc('scroll-to', '--text', 'Carrots')
    expect(run.stdout).to.equal(`Element '${await idOn('Carrots')}' (found by --text "Carrots") is already visible\n`)
    expect(inputsSince(from)).to.deep.equal([])
    h.emu.device('emu-1').showScreen('plain')
    from = h.emu.commands.length
    const none = await arc('scroll-to', '--text', 'Zucchini')
    expect(none.code).to.equal(9)
    expect(none.stderr).to.contain(
      'Error [ELEMENT_NOT_FOUND]: no element on the current screen matches --text "Zucchini"'
    )
    expect(inputsSince(from)).to.deep.equal([])
  })

  it('bad --direction, --max-scrolls out of range, or either with an element id: INVALID_INPUT, no device command', async () => {
    const id = await idOn('Carrots')
    const from = h.emu.commands.length
    const sideways = await arc('scroll-to', '--text', 'Pears', '--direction', 'left')
    expect(sideways.code).to.equal(2)
    expect(sideways.stderr).to.contain('--direction')
    for (const n of ['101', '-1', '2.5']) {
      const bad = await arc('scroll-to', '--text', 'Pears', '--max-scrolls', n)
      expect(bad.code, n).to.equal(2)
      expect(bad.stderr, n).to.contain('--max-scrolls')
    }
    const withId = await arc('scroll-to', id, '--direction', 'up', '--max-scrolls', '3')
    expect(withId.code).to.equal(2)
    expect(withId.stderr).to.contain(
      `--direction and --max-scrolls apply to a selector's search down a list, not to an element id (${id})`
    )
    expect(
      h.emu.commands
        .slice(from)
        .filter((c) => c.argv[0] !== 'uiautomator' && c.argv[0] !== 'dumpsys')
        .map((c) => c.argv)
    ).to.deep.equal([])
  })

  it('arc batch: a script scrolls to a row, then clicks it by the same selector', async () => {
    const from = h.emu.commands.length
    const run = await runArc(['batch'], {env: h.env, input: 'scroll-to --text Kiwis\nclick --text Kiwis\n'})
    // Only the echo of each line: nothing went wrong.
    expect(run.stderr).to.equal('stdin:1 scroll-to --text Kiwis\nstdin:2 click --text Kiwis\n')
    expect(run.code).to.equal(0)
    const id = await idOn('Kiwis')
    expect(run.stdout).to.equal(
      `Scrolled to element '${id}' (found by --text "Kiwis") (1 scroll(s))\nClick performed on element '${id}' (found by --text "Kiwis")\n`
    )
    expect(inputsSince(from)).to.deep.equal([DOWN, ['input', 'tap', '540', '1750']])
  })

  it('the main list is the largest scrollable of the main display by what shows of it, never the keyboard', () => {
    const model = buildScreenModel(
      capture(
        dumpXml([
          {
            bounds: [0, 0, 1080, 2400],
            children: [
              {
                cls: 'android.widget.HorizontalScrollView',
                res: 'chips',
                attrs: {scrollable: 'true'},
                bounds: [0, 200, 1080, 400],
              },
              {
                cls: 'android.widget.ScrollView',
                res: 'page',
                attrs: {scrollable: 'true'},
                bounds: [0, 1900, 1080, 4000],
              },
              {cls: 'android.widget.ListView', res: 'list', attrs: {scrollable: 'true'}, bounds: [0, 400, 1080, 1900]},
            ],
          },
          {
            pkg: 'com.google.android.inputmethod.latin',
            bounds: [0, 1500, 1080, 2400],
            children: [
              {
                cls: 'android.widget.ListView',
                res: 'suggestions',
                attrs: {scrollable: 'true'},
                bounds: [0, 0, 1080, 2400],
              },
            ],
          },
        ])
      )
    )
    expect(mainScrollable(model)?.resId).to.equal('list')
  })
})
