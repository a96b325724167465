/**
 * Windows the dump does not list. With the helper off and a uiautomator without `--windows`, the dump holds only the
 * active window (AOSP uiautomator DumpCommand: the root of the active window), so a picture-in-picture video above
 * the app is seen only in the window manager's list (`dumpsys window`), as an ordinary BASE_APPLICATION window above
 * the app's, framed where it floats. That list also holds windows that take no touch: a blue-light filter is a
 * full-screen overlay with FLAG_NOT_TOUCHABLE (its `fl=` line says NOT_TOUCHABLE on every release in
 * ../shared/fixtures/device-output), and the input dispatcher passes touches through it (AOSP InputDispatcher.cpp
 * `windowAcceptsTouchAt`). arc emulate routes touches the same way (packages/emulator touch.ts): the video takes a
 * touch in its frame although the dump lacks it, the filter takes none. So click must tap beside the video, or refuse
 * an element wholly under it naming it, and scrolls must not start on it; the filter covers nothing.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {button, dumpXml, recordedWindow, type NodeSpec} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'

type Box = [number, number, number, number]
/** A picture-in-picture video snapped to the right edge, over the lower middle of the screen. */
const PIP: Box = [448, 1500, 1048, 1838]
/** A toast over the middle of the `Toasted` button. */
const TOAST: Box = [240, 1950, 840, 2100]

const row = (text: string, top: number): NodeSpec => ({
  cls: 'android.widget.TextView',
  text,
  bounds: [0, top, 1080, top + 200],
})
/** The app, the only window the plain dump holds. */
const app = (first: number): NodeSpec => ({
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [
    {
      cls: 'androidx.recyclerview.widget.RecyclerView',
      res: 'com.example:id/list',
      // It reaches under the video, whose frame holds where a scroll of the whole list would start.
      bounds: [0, 200, 1080, 2200],
      attrs: {scrollable: 'true'},
      children: Array.from({length: 6}, (_, i) => row(`Row ${first + i}`, 200 + i * 200)),
    },
    button('Wide', [0, 1600, 1080, 1800]),
    button('Hidden', [500, 1550, 1000, 1800]),
    button('Toasted', [0, 1900, 1080, 2150]),
  ],
})

async function screen(dir: string, name: string, first: number): Promise<string> {
  const folder = path.join(dir, name)
  await mkdir(folder)
  await writeFile(path.join(folder, 'window_dump.xml'), dumpXml([app(first)]))
  const meta = {
    format: 'arc-snapshot/1',
    width: 1080,
    height: 2400,
    rotation: 0,
    package: 'com.example',
    activity: '.Main',
    windowManager: {
      windows: [
        // Topmost: the night-light filter over everything, taking no touch.
        recordedWindow('NightLightFilter', 'com.example.filter', 'APPLICATION_OVERLAY', 0, [0, 0, 1080, 2400], false),
        // A toast, which takes no touch either (Toast's window has FLAG_NOT_TOUCHABLE).
        recordedWindow('Toast', 'com.example', 'TOAST', 1, TOAST, false),
        recordedWindow('com.video/com.video.PlayerActivity', 'com.video', 'BASE_APPLICATION', 2, PIP),
        recordedWindow('com.example/com.example.Main', 'com.example', 'BASE_APPLICATION', 3, [0, 0, 1080, 2400]),
      ],
      focus: 'com.example/com.example.Main',
    },
  }
  await writeFile(path.join(folder, 'meta.json'), JSON.stringify(meta))
  return folder
}

describe('windows the dump does not list: a picture-in-picture video and a night-light filter (arc emulate, plain dump)', function () {
  this.timeout(120_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'wide.xml'), dumpXml([{pkg: 'com.example', text: 'Wide opened'}]))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {
              plain: await screen(dir, 'plain', 1),
              scrolled: await screen(dir, 'scrolled', 4),
              wide: path.join(dir, 'wide.xml'),
              toasted: path.join(dir, 'wide.xml'),
            },
            timing: {transitionMs: 0},
            transitions: [
              {from: 'plain', tap: {text: 'Wide'}, to: 'wide'},
              {from: 'plain', tap: {text: 'Toasted'}, to: 'toasted'},
              {from: 'plain', swipe: {direction: 'up', inside: {resourceId: 'com.example:id/list'}}, to: 'scrolled'},
            ],
          },
        },
      },
    }
  })
  beforeEach(() => h.emu.device('emu-1').showScreen('plain'))

  // The helper off: the dump is uiautomator's plain one, and this device's uiautomator has no `--windows`.
  const arc = (...args: string[]) => runArc(args, {env: {...h.env, ARC_HELPER: 'off'}})
  const device = () => h.emu.device('emu-1')
  const idOf = async (by: string, value: string) =>
    JSON.parse((await arc('find', by, value, '--exact-match', '--json')).stdout).elements[0].id as string
  const since = (from: number) => device().inputEvents.slice(from) as Array<Record<string, number | string>>
  const onVideo = (x: number, y: number) => x >= PIP[0] && x < PIP[2] && y >= PIP[1] && y < PIP[3]

  it('click taps the part of a button the video leaves free (the filter over it all takes nothing)', async () => {
    const id = await idOf('text', 'Wide')
    const from = device().inputEvents.length
    const run = await arc('click', id)
    expect(run.code, run.stderr).to.equal(0)
    const [tap] = since(from)
    expect(tap).to.include({type: 'tap'})
    expect(onVideo(tap!.x as number, tap!.y as number), `tap at (${tap!.x}, ${tap!.y})`).to.equal(false)
    expect(device().screenName).to.equal('wide')
  })

  it('click taps the centre of a button under a toast: the toast takes no touch, so it covers nothing', async () => {
    const id = await idOf('text', 'Toasted')
    const from = device().inputEvents.length
    const run = await arc('click', id)
    expect(run.code, run.stderr).to.equal(0)
    expect(since(from)).to.deep.equal([{type: 'tap', x: 540, y: 2025}])
    expect(device().screenName).to.equal('toasted')
  })

  it('click refuses a button wholly under the video, naming it, and sends nothing', async () => {
    const id = await idOf('text', 'Hidden')
    const from = device().inputEvents.length
    const run = await arc('click', id, '--json')
    expect(run.code).to.not.equal(0)
    const error = JSON.parse(run.stdout || run.stderr).error
    expect(error.code).to.equal('INVALID_INPUT')
    expect(error.message).to.include('"com.video/com.video.PlayerActivity" (com.video) [448,1500][1048,1838]')
    expect(error.details.covered_by).to.deep.equal([
      {name: 'com.video/com.video.PlayerActivity', package: 'com.video', type: 'BASE_APPLICATION', bounds: PIP},
    ])
    expect(since(from)).to.deep.equal([])
  })

  it('a plain scroll starts beside the video: the list scrolls', async () => {
    const from = device().inputEvents.length
    const run = await arc('scroll', 'down')
    expect(run.code, run.stderr).to.equal(0)
    const swipes = since(from).filter((e) => e.type === 'swipe')
    expect(swipes).to.have.length(1)
    const [s] = swipes
    expect(onVideo(s!.x1 as number, s!.y1 as number), `swipe from (${s!.x1}, ${s!.y1})`).to.equal(false)
    expect(device().screenName).to.equal('scrolled')
  })

  it('scroll --element-id starts beside the video in the list', async () => {
    const list = await idOf('resource_id', 'com.example:id/list')
    const from = device().inputEvents.length
    const run = await arc('scroll', 'down', '--element-id', list)
    expect(run.code, run.stderr).to.equal(0)
    const [s] = since(from).filter((e) => e.type === 'swipe')
    expect(onVideo(s!.x1 as number, s!.y1 as number), `swipe from (${s!.x1}, ${s!.y1})`).to.equal(false)
    expect(device().screenName).to.equal('scrolled')
  })
})
