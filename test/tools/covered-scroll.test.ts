/**
 * A scroll arc computes itself never starts on a window stacked above the list it scrolls. A phone hands the whole
 * gesture to the window under its first point (AOSP InputDispatcher.cpp `findTouchedWindowAtLocked`, on ACTION_DOWN;
 * the moves follow that window), so a swipe starting on a picture-in-picture video over a list drags the video and
 * leaves the list where it was, while arc reported the scroll done. arc emulate routes a swipe the same way
 * (packages/emulator touch.ts, the `inside` of a swipe transition). The video here floats at the right edge over the
 * lower part of the list, where every swipe a scroll made began: `scroll --element-id`, scroll-to's swipe toward a
 * row, and scroll-to's search down the list. A list the video covers whole is refused, naming it.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, recordedWindow, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

type Box = [number, number, number, number]
/** A picture-in-picture video snapped to the right edge: 600 px wide, so it holds the screen's middle column. */
const PIP: Box = [448, 1500, 1048, 1838]
const LIST: Box = [0, 200, 1080, 2200]

const row = (text: string, top: number): NodeSpec => ({
  cls: 'android.widget.TextView',
  text,
  bounds: [0, top, 1080, top + 200],
})
/** The app: a list of rows from `top` down (cut off at the list's edge), and a small list inside the video's area. */
const app = (first: number, top: number): NodeSpec => ({
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    {
      cls: 'androidx.recyclerview.widget.RecyclerView',
      res: 'com.example:id/list',
      bounds: LIST,
      attrs: {scrollable: 'true'},
      children: Array.from({length: 10}, (_, i) => row(`Row ${first + i}`, top + i * 200)),
    },
    {
      cls: 'android.widget.ScrollView',
      res: 'com.example:id/small',
      bounds: [500, 1550, 1000, 1800],
      attrs: {scrollable: 'true'},
      children: [row('Small row', 1550)],
    },
  ],
})
const video: NodeSpec = {
  pkg: 'com.video',
  bounds: PIP,
  children: [{cls: 'android.view.View', desc: 'Pause', attrs: {clickable: 'true'}, bounds: PIP}],
}

/** A screen of the app under the video, as a phone with the helper or `dump --windows` reports it. */
async function pipScreen(dir: string, name: string, first: number, top: number): Promise<string> {
  const folder = path.join(dir, name)
  await mkdir(folder)
  // uiautomator lists the topmost window first.
  await writeFile(path.join(folder, 'window_dump.xml'), dumpXml([video, app(first, top)]))
  const meta = {
    format: 'arc-snapshot/1',
    width: 1080,
    height: 2400,
    rotation: 0,
    package: 'com.example',
    activity: '.Main',
    allWindows: true,
    windowManager: {
      windows: [
        // The pinned activity's window: an ordinary BASE_APPLICATION window of its own package, above the app's.
        recordedWindow('com.video/com.video.PlayerActivity', 'com.video', 'BASE_APPLICATION', 0, PIP),
        recordedWindow('com.example/com.example.Main', 'com.example', 'BASE_APPLICATION', 1, [0, 0, 1080, 2400]),
      ],
      focus: 'com.example/com.example.Main',
    },
  }
  await writeFile(path.join(folder, 'meta.json'), JSON.stringify(meta))
  return folder
}

describe('scrolls and a picture-in-picture window above the list (arc emulate)', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => ({
    devices: [],
    scenario: {
      devices: {
        'emu-1': {
          screens: {
            // Row 10 cut off at the list's bottom edge (half of it shows).
            top: await pipScreen(dir, 'top', 1, 300),
            // The list scrolled on: Row 10 whole in view above the video; then Row 30, which a search looks for.
            scrolled: await pipScreen(dir, 'scrolled', 5, 200),
            further: await pipScreen(dir, 'further', 25, 200),
            // The video dragged: the list as it was.
            moved: await pipScreen(dir, 'moved', 1, 300),
          },
          timing: {transitionMs: 0},
          transitions: [
            // The finger moving up on the list scrolls it down; on the video it drags the video.
            {from: 'top', swipe: {direction: 'up', inside: {resourceId: 'com.example:id/list'}}, to: 'scrolled'},
            {from: 'scrolled', swipe: {direction: 'up', inside: {resourceId: 'com.example:id/list'}}, to: 'further'},
            {from: '*', swipe: {direction: 'up', inside: {contentDesc: 'Pause'}}, to: 'moved'},
          ],
        },
      },
    },
  }))
  beforeEach(() => h.emu.device('emu-1').showScreen('top'))

  const arc = (...args: string[]) => runArc(args, {env: h.env})
  const device = () => h.emu.device('emu-1')
  const idOf = async (...find: string[]) =>
    JSON.parse((await arc('find', ...find, '--json')).stdout).elements[0].id as string
  const swipesSince = (from: number) =>
    device()
      .inputEvents.slice(from)
      .filter((e) => e.type === 'swipe') as Array<{x1: number; y1: number; x2: number; y2: number}>
  const onVideo = (x: number, y: number) => x >= PIP[0] && x < PIP[2] && y >= PIP[1] && y < PIP[3]

  it('scroll --element-id swipes in the part of the list the video leaves free: the list scrolls, the video stays', async () => {
    const list = await idOf('resource_id', 'com.example:id/list', '--exact-match')
    const from = device().inputEvents.length
    const run = await arc('scroll', 'down', '--element-id', list)
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    const swipes = swipesSince(from)
    expect(swipes).to.have.length(1)
    expect(onVideo(swipes[0]!.x1, swipes[0]!.y1), `swipe from (${swipes[0]!.x1}, ${swipes[0]!.y1})`).to.equal(false)
    expect(device().screenName).to.equal('scrolled')
  })

  it("scroll-to's swipe toward a row starts beside the video, not on it", async () => {
    const target = await idOf('text', 'Row 10', '--exact-match')
    const from = device().inputEvents.length
    const run = await arc('scroll-to', target)
    const swipes = swipesSince(from)
    expect(swipes.length).to.be.greaterThan(0)
    for (const s of swipes) expect(onVideo(s.x1, s.y1), `swipe from (${s.x1}, ${s.y1})`).to.equal(false)
    expect(device().screenName).to.not.equal('moved')
    expect(run.code, run.stderr).to.equal(0)
  })

  it("scroll-to's search down the list swipes beside the video and finds the row", async () => {
    const from = device().inputEvents.length
    const run = await arc('scroll-to', '--text', 'Row 30', '--exact-match')
    const swipes = swipesSince(from)
    for (const s of swipes) expect(onVideo(s.x1, s.y1), `swipe from (${s.x1}, ${s.y1})`).to.equal(false)
    expect(run.code, run.stderr).to.equal(0)
    expect(device().screenName).to.equal('further')
  })

  it('refuses a scroll inside a list the video covers whole, naming the video, and sends nothing', async () => {
    const small = await idOf('resource_id', 'com.example:id/small', '--exact-match')
    const from = device().inputEvents.length
    const run = await arc('scroll', 'down', '--element-id', small, '--json')
    expect(run.code).to.not.equal(0)
    const error = JSON.parse(run.stdout || run.stderr).error
    expect(error.code).to.equal('INVALID_INPUT')
    expect(error.message).to.include('com.video/com.video.PlayerActivity')
    expect(error.message).to.include('[448,1500][1048,1838]')
    expect(error.details.covered_by).to.deep.equal([
      {name: 'com.video/com.video.PlayerActivity', package: 'com.video', type: 'BASE_APPLICATION', bounds: PIP},
    ])
    expect(device().inputEvents.slice(from)).to.deep.equal([])
    expect(device().screenName).to.equal('top')
  })
})
