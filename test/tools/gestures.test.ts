import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'

import {ArcError, DEMO_DIR} from '@arc-cli/core'
import {expect} from 'chai'

import {findTouchscreen, parseGetevent, toRaw} from '@arc-cli/core/testing'
import {tools} from '../../src/tools/index.js'
import {pinchPaths} from '../../src/tools/pinch.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {DEVICE_OUTPUT_DIR} from '@arc-cli/test-support/paths'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!
const valid = (name: string, input: unknown) => tool(name).input.safeParse(input).success

describe('pinch and custom_gesture', function () {
  this.timeout(30_000)

  describe('validation, as the spec says', () => {
    const p = (x: number, y: number, time: number) => ({x, y, time})
    it('custom_gesture: non-empty paths, >= 2 points, coordinates and times >= 0, strictly increasing times', () => {
      expect(valid('custom_gesture', {paths: [[p(1, 2, 0), p(3, 4, 10)]]})).to.equal(true)
      expect(
        valid('custom_gesture', {
          paths: [
            [p(0, 0, 0), p(0, 0, 1)],
            [p(5, 5, 0), p(6, 6, 1)],
          ],
        })
      ).to.equal(true)
      expect(valid('custom_gesture', {paths: []})).to.equal(false)
      expect(valid('custom_gesture', {})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(1, 2, 0)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(-1, 2, 0), p(3, 4, 10)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(1, -2, 0), p(3, 4, 10)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(1, 2, -5), p(3, 4, 10)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(1, 2, 10), p(3, 4, 10)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[p(1, 2, 10), p(3, 4, 20), p(3, 4, 15)]]})).to.equal(false)
      expect(valid('custom_gesture', {paths: [[{x: 1, y: 2}, p(3, 4, 10)]]})).to.equal(false)
      const issue = tool('custom_gesture').input.safeParse({paths: [[p(1, 2, 10), p(3, 4, 5)]]})
      expect(issue.success).to.equal(false)
      expect(JSON.stringify(issue.error?.issues)).to.include('time must increase strictly within a path (5 after 10)')
    })

    it('pinch: coordinates >= 0, scale > 0, duration 1-60000 (default 300)', () => {
      expect(tool('pinch').input.parse({center_x: 5, center_y: 6, scale: 2})).to.deep.equal({
        center_x: 5,
        center_y: 6,
        scale: 2,
        duration: 300,
      })
      for (const bad of [
        {center_x: -1, center_y: 6, scale: 2},
        {center_x: 5, center_y: -6, scale: 2},
        {center_x: 5, center_y: 6, scale: 0},
        {center_x: 5, center_y: 6, scale: -1},
        {center_x: 5, center_y: 6, scale: 2, duration: 0},
        {center_x: 5, center_y: 6, scale: 2, duration: 60001},
        {center_x: 5, center_y: 6},
      ]) {
        expect(valid('pinch', bad), JSON.stringify(bad)).to.equal(false)
      }
    })

    it('pinch paths: two fingers on a line through the centre, apart to zoom in, together to zoom out, kept on screen', () => {
      const screen = {width: 1080, height: 2400}
      expect(pinchPaths({x: 540, y: 1200}, 2, 300, screen)).to.deep.equal([
        [
          {x: 432, y: 1200, time: 0},
          {x: 324, y: 1200, time: 300},
        ],
        [
          {x: 648, y: 1200, time: 0},
          {x: 756, y: 1200, time: 300},
        ],
      ])
      expect(pinchPaths({x: 540, y: 1200}, 0.5, 300, screen)).to.deep.equal([
        [
          {x: 324, y: 1200, time: 0},
          {x: 432, y: 1200, time: 300},
        ],
        [
          {x: 756, y: 1200, time: 0},
          {x: 648, y: 1200, time: 300},
        ],
      ])
      expect(pinchPaths({x: 10, y: 5}, 4, 100, screen)[0]?.[1]).to.deep.equal({x: 0, y: 5, time: 100})
    })
  })

  describe('touch coordinates to raw axis values', () => {
    const axes = {x: {min: 0, max: 1079}, y: {min: 0, max: 2159}}
    it('scales to the axis range and undoes the display rotation', () => {
      // A 1080x2160 panel: its raw range is its pixels, so the mapping is easy to check by hand.
      expect(toRaw({x: 100, y: 200}, {width: 1080, height: 2160, rotation: 0}, axes)).to.deep.equal({x: 100, y: 200})
      // Rotation 1 (landscape, 2160x1080): display (x, y) is panel (W - y, x).
      expect(toRaw({x: 100, y: 200}, {width: 2160, height: 1080, rotation: 1}, axes)).to.deep.equal({x: 880, y: 100})
      expect(toRaw({x: 100, y: 200}, {width: 1080, height: 2160, rotation: 2}, axes)).to.deep.equal({x: 980, y: 1960})
      expect(toRaw({x: 100, y: 200}, {width: 2160, height: 1080, rotation: 3}, axes)).to.deep.equal({x: 200, y: 2060})
      const virtio = {x: {min: 0, max: 32767}, y: {min: 0, max: 32767}}
      expect(toRaw({x: 540, y: 1200}, {width: 1080, height: 2400, rotation: 0}, virtio)).to.deep.equal({
        x: 16384,
        y: 16384,
      })
      expect(toRaw({x: 1080, y: 2400}, {width: 1080, height: 2400, rotation: 0}, virtio)).to.deep.equal({
        x: 32767,
        y: 32767,
      })
    })
  })

  describe('getevent -pl from real devices (../shared/fixtures/device-output)', () => {
    const expected: Record<string, [string, string, number, number]> = {
      'emulator-avd-android15-virtio.txt': ['/dev/input/event1', 'virtio_input_multi_touch_1', 32767, 32767],
      'vivo-tablet-mt6991.txt': ['', 'vivo_ts', 0, 0],
      'xiaomi-mi-mix2-chiron-lineageos17.1.txt': ['/dev/input/event1', 'synaptics_dsx', 1079, 2159],
      'variant-getevent-p-numeric-himax-sdm670.txt': ['', '', 0, 0],
    }
    for (const [file, [devicePath, name, maxX, maxY]] of Object.entries(expected)) {
      it(`finds the touchscreen in ${file}`, function () {
        const full = path.join(DEVICE_OUTPUT_DIR, 'getevent-pl', file)
        if (!existsSync(full)) this.skip()
        const touch = findTouchscreen(parseGetevent(readFileSync(full, 'utf8')))
        expect(touch, file).to.not.equal(undefined)
        if (devicePath) expect(touch?.path).to.equal(devicePath)
        if (name) expect(touch?.name).to.equal(name)
        if (maxX) expect(touch?.abs.get('ABS_MT_POSITION_X')).to.deep.equal({min: 0, max: maxX})
        if (maxY) expect(touch?.abs.get('ABS_MT_POSITION_Y')).to.deep.equal({min: 0, max: maxY})
        expect(touch?.abs.has('ABS_MT_POSITION_Y')).to.equal(true)
      })
    }
  })

  it('takes the lowest event number among look-alike touchscreens, whatever order getevent lists them in', function () {
    const full = path.join(DEVICE_OUTPUT_DIR, 'getevent-pl', 'emulator-avd-android15-virtio.txt')
    if (!existsSync(full)) this.skip()
    const devices = parseGetevent(readFileSync(full, 'utf8'))
    expect(devices.filter((d) => d.name.startsWith('virtio_input_multi_touch_'))).to.have.length(11)
    for (const order of [[...devices].reverse(), [...devices.slice(5), ...devices.slice(0, 5)]]) {
      expect(findTouchscreen(order)?.name).to.equal('virtio_input_multi_touch_1')
    }
  })

  describe('on arc emulate', () => {
    const h = useEmulator({
      devices: [{serial: 'emu-1', snapshot: DEMO_DIR}],
      scenario: {
        devices: {
          'emu-mt': {snapshot: DEMO_DIR, touchscreen: {writable: true}},
          'emu-9': {snapshot: DEMO_DIR, properties: {'ro.build.version.sdk': '28', 'ro.build.version.release': '9'}},
        },
      },
    })

    async function run(serial: string, name: string, input: Record<string, unknown>) {
      const driver = await h.driver(serial)
      const device = h.emu.device(serial)
      const fromEvent = device.inputEvents.length
      const from = h.emu.commands.length
      const ctx = toolContext(driver)
      let text: string | undefined
      let data: unknown
      let error: ArcError | undefined
      try {
        ;({text, data} = await tool(name).handler(ctx, tool(name).input.parse(input)))
      } catch (e) {
        if (!(e instanceof ArcError)) throw e
        error = e
      }
      return {text, data, error, events: device.inputEvents.slice(fromEvent), argv: h.argvSince(from)}
    }

    it('plays two fingers as a protocol B sendevent stream, scaled to the axis range', async () => {
      const r = await run('emu-mt', 'custom_gesture', {
        paths: [
          [
            {x: 100, y: 200, time: 0},
            {x: 300, y: 200, time: 30},
          ],
          [
            {x: 900, y: 200, time: 0},
            {x: 700, y: 200, time: 30},
          ],
        ],
      })
      expect(r.error).to.equal(undefined)
      expect(r.text).to.equal('Custom gesture executed with 2 path(s), total 4 point(s)')
      expect(r.data).to.deep.equal({paths: 2, points: 4, method: 'sendevent'})
      const stream = r.events.map((e) => {
        const ev = e as {type: string; device: string; evType: number; code: number; value: number}
        expect(ev.type).to.equal('sendevent')
        expect(ev.device).to.equal('/dev/input/event1')
        return [ev.evType, ev.code, ev.value]
      })
      // 1080x2400 screen, 0..32767 axes: x 100 → 3034, 300 → 9102, 700 → 21239, 900 → 27307; y 200 → 2731.
      expect(stream).to.deep.equal([
        [3, 47, 0],
        [3, 57, 100],
        [3, 48, 5],
        [3, 58, 512],
        [3, 53, 3034],
        [3, 54, 2731],
        [3, 47, 1],
        [3, 57, 101],
        [3, 48, 5],
        [3, 58, 512],
        [3, 53, 27307],
        [3, 54, 2731],
        [1, 330, 1],
        [0, 0, 0],
        [3, 47, 0],
        [3, 53, 9102],
        [3, 54, 2731],
        [3, 47, 1],
        [3, 53, 21239],
        [3, 54, 2731],
        [0, 0, 0],
        [3, 47, 0],
        [3, 57, -1],
        [3, 47, 1],
        [3, 57, -1],
        [1, 330, 0],
        [0, 0, 0],
      ])
      // One shell command: getevent, the screen size reads, then every sendevent and the sleep between frames.
      expect(r.argv.filter((a) => a[0] === 'sleep')).to.deep.equal([['sleep', '0.03']])
    })

    it('pinch on the same device: two fingers moving apart from the centre', async () => {
      const r = await run('emu-mt', 'pinch', {center_x: 540, center_y: 1200, scale: 2, duration: 60})
      expect(r.text).to.equal('Pinch (zoom in) executed at (540, 1200) with scale 2.0 over 60ms')
      const xs = (slot: number) => {
        const out: number[] = []
        let current = -1
        for (const e of r.events as Array<{evType: number; code: number; value: number}>) {
          if (e.evType === 3 && e.code === 47) current = e.value
          else if (e.evType === 3 && e.code === 53 && current === slot) out.push(e.value)
        }
        return out
      }
      const left = xs(0)
      const right = xs(1)
      expect(left.length).to.be.greaterThan(1)
      expect(left.at(-1)).to.be.lessThan(left[0] as number)
      expect(right.at(-1)).to.be.greaterThan(right[0] as number)
    })

    it('refuses multi-touch with UNSUPPORTED where the shell may not write /dev/input (Android 10+), sending nothing', async () => {
      const r = await run('emu-1', 'pinch', {center_x: 540, center_y: 1200, scale: 0.5})
      expect(r.error?.code).to.equal('UNSUPPORTED')
      expect(r.error?.message).to.equal(
        'multi-touch injection is not permitted on emu-1: the adb shell may not write /dev/input/event1'
      )
      expect(r.events).to.deep.equal([])
    })

    it('plays one finger with input motionevent on Android 10+', async () => {
      const r = await run('emu-1', 'custom_gesture', {
        paths: [
          [
            {x: 100, y: 100, time: 0},
            {x: 200, y: 200, time: 40},
            {x: 300, y: 300, time: 60},
          ],
        ],
      })
      expect(r.text).to.equal('Custom gesture executed with 1 path(s), total 3 point(s)')
      expect(r.events).to.deep.equal([
        {type: 'motionevent', action: 'DOWN', x: 100, y: 100},
        {type: 'motionevent', action: 'MOVE', x: 150, y: 150},
        {type: 'motionevent', action: 'MOVE', x: 200, y: 200},
        {type: 'motionevent', action: 'UP', x: 300, y: 300},
      ])
    })

    it('plays one finger as swipes before Android 10, and multi-touch there via sendevent', async () => {
      const r = await run('emu-9', 'custom_gesture', {
        paths: [
          [
            {x: 100, y: 100, time: 0},
            {x: 200, y: 200, time: 150},
            {x: 300, y: 300, time: 300},
          ],
        ],
      })
      expect(r.data).to.deep.equal({paths: 1, points: 3, method: 'swipe'})
      expect(r.argv).to.deep.equal([
        // The on-screen check's read of the size (Android 9: the rotation is in the windows section).
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'window', 'windows'],
        ['getprop', 'ro.build.version.sdk'],
        ['dumpsys', 'power'],
        ['input', 'swipe', '100', '100', '200', '200', '150'],
        ['input', 'swipe', '200', '200', '300', '300', '150'],
      ])
      const multi = await run('emu-9', 'pinch', {center_x: 540, center_y: 1200, scale: 3, duration: 30})
      expect(multi.error).to.equal(undefined)
      expect((multi.data as {method: string}).method).to.equal('sendevent')
    })
  })
})
