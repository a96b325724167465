/**
 * A click never lands on a window stacked above the element's app: a picture-in-picture video over the list of the
 * app behind it, as a phone reports it. The window manager lists the pinned activity's window as an ordinary
 * BASE_APPLICATION window of its own package, above the app's, framed where the video floats (AOSP `dumpsys window
 * windows`: the task's windowing mode is `pinned`, its bounds the small rectangle); the input dispatcher hands a
 * touch there to that window (InputDispatcher findTouchedWindowAtLocked, front to back), and arc emulate does the
 * same (packages/emulator touch.ts). Tapping the element's centre would pause the video instead; a refusal names
 * the window, so the one reading it knows what to move.
 */
import {mkdir, mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, MemoryDeviceState, type DeviceState} from '@arc-cli/core'
import {tools as screenTools} from '@arc-cli/plugin-screen-state'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {connectAdbDriver} from '@arc-cli/core/testing'
import {button, dumpXml, recordedWindow, type NodeSpec} from '@arc-cli/test-support/dump'
import {toolContext} from '@arc-cli/test-support/tool-context'

const all = [...tools, ...screenTools]
const tool = (name: string) => all.find((t) => t.name === name)!

type Box = [number, number, number, number]
const PIP: Box = [600, 1700, 1040, 2100]
const app: NodeSpec = {
  pkg: 'com.example',
  bounds: [0, 0, 1080, 2400],
  children: [button('Wide', [200, 1800, 1080, 2000]), button('Hidden', [700, 1750, 1000, 2050])],
}
const video: NodeSpec = {
  pkg: 'com.video',
  bounds: PIP,
  children: [{cls: 'android.view.View', desc: 'Pause', attrs: {clickable: 'true'}, bounds: PIP}],
}

describe('click and a picture-in-picture window above the app (arc emulate)', function () {
  this.timeout(60_000)
  let dir: string
  let emu: Emulator
  let state: DeviceState

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-covered-'))
    const snapshot = path.join(dir, 'pip')
    await mkdir(snapshot)
    // uiautomator lists the topmost window first.
    await writeFile(path.join(snapshot, 'window_dump.xml'), dumpXml([video, app]))
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
          recordedWindow('com.video/com.video.PlayerActivity', 'com.video', 'BASE_APPLICATION', 0, PIP),
          recordedWindow('com.example/com.example.Main', 'com.example', 'BASE_APPLICATION', 1, [0, 0, 1080, 2400]),
        ],
        focus: 'com.example/com.example.Main',
      },
    }
    await writeFile(path.join(snapshot, 'meta.json'), JSON.stringify(meta))
    await writeFile(path.join(dir, 'wide.xml'), dumpXml([{pkg: 'com.example', text: 'Wide opened'}]))
    await writeFile(path.join(dir, 'paused.xml'), dumpXml([{pkg: 'com.video', text: 'Video paused'}]))
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {pip: snapshot, wide: path.join(dir, 'wide.xml'), paused: path.join(dir, 'paused.xml')},
            // Where a tap leads, not when its screen shows: the screen a tap opens shows at once (a phone's
            // transition time, which the reads after an action wait for, is test/tools/read-after-action.test.ts's).
            timing: {transitionMs: 0},
            transitions: [
              {from: 'pip', tap: {text: 'Wide'}, to: 'wide'},
              {from: 'pip', tap: {contentDesc: 'Pause'}, to: 'paused'},
            ],
          },
        },
      },
    })
  })
  after(async () => {
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })
  beforeEach(() => {
    state = new MemoryDeviceState()
    emu.device('emu-1').showScreen('pip')
  })

  async function click(text: string) {
    const driver = await connectAdbDriver({port: emu.port, host: '127.0.0.1', timeoutMs: 10_000, env: {}})
    try {
      const model = buildScreenModel(await driver.captureScreen())
      const id = model.elements.find((e) => e.text === text)!.id
      const from = emu.device('emu-1').inputEvents.length
      const ctx = toolContext(driver, {state})
      const error = await tool('click_element')
        .handler(ctx, tool('click_element').input.parse({element_id: id}))
        .then(
          () => undefined,
          (e: unknown) => e as {code: string; message: string}
        )
      return {id, error, events: emu.device('emu-1').inputEvents.slice(from), screen: emu.device('emu-1').screenName}
    } finally {
      await driver.close()
    }
  }

  it('taps the part of the element the video leaves free: the element acts, the video does not', async () => {
    const r = await click('Wide')
    expect(r.error).to.equal(undefined)
    expect(r.events).to.have.length(1)
    const tap = r.events[0] as {type: string; x: number; y: number}
    expect(tap.type).to.equal('tap')
    expect(tap.x < PIP[0] || tap.x >= PIP[2] || tap.y < PIP[1] || tap.y >= PIP[3], `tap at (${tap.x}, ${tap.y})`).to.be
      .true
    expect(r.screen).to.equal('wide')
  })

  it('refuses an element wholly under the video, naming it, and sends nothing', async () => {
    const r = await click('Hidden')
    expect(r.error).to.have.property('code', 'INVALID_INPUT')
    expect(r.error!.message).to.include('com.video/com.video.PlayerActivity')
    expect(r.error!.message).to.include('[600,1700][1040,2100]')
    expect(r.events).to.deep.equal([])
    expect(r.screen).to.equal('pip')
  })
})
