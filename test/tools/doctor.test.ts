import {ArcError, DEMO_DIR, type CapabilityReport} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

describe('arc doctor and the clipboard against emulated Android versions', function () {
  this.timeout(30_000)
  const h = useEmulator({
    devices: [{serial: 'emu-1', snapshot: DEMO_DIR}],
    scenario: {
      devices: {
        'emu-9': {snapshot: DEMO_DIR, properties: {'ro.build.version.sdk': '28', 'ro.build.version.release': '9'}},
        'emu-rooted': {
          snapshot: DEMO_DIR,
          touchscreen: {writable: true, maxX: 1079, maxY: 2399, name: 'synaptics_dsx'},
        },
      },
    },
  })

  async function run(serial: string, name: string, input: Record<string, unknown> = {}) {
    const driver = await h.driver(serial)
    const device = h.emu.device(serial)
    const fromEvents = device.inputEvents.length
    const ctx = toolContext(driver)
    try {
      const result = await tool(name).handler(ctx, tool(name).input.parse(input))
      return {text: result.text, data: result.data as CapabilityReport, events: device.inputEvents.slice(fromEvents)}
    } catch (error) {
      if (!(error instanceof ArcError)) throw error
      return {error, events: device.inputEvents.slice(fromEvents)}
    }
  }

  const statuses = (report: CapabilityReport) => Object.fromEntries(report.capabilities.map((c) => [c.id, c.status]))

  it('Android 14 (default): dump, input, motionevent; no multi-touch, no clipboard', async () => {
    const r = await run('emu-1', 'doctor')
    expect(r.data?.android).to.deep.equal({release: '14', sdk: 34, model: r.data?.android.model, build_type: 'user'})
    expect(statuses(r.data as CapabilityReport)).to.deep.equal({
      'ui-dump': 'yes',
      input: 'yes',
      // The suites run with ARC_HELPER=off (scripts/run-mocha.js): the helper's row says so.
      helper: 'no',
      'text-input': 'partial',
      'single-finger-gesture': 'yes',
      'multi-touch': 'no',
      'clipboard-read': 'no',
      'clipboard-write': 'no',
      screenshot: 'yes',
      screenrecord: 'yes',
      'statusbar-service': 'yes',
      'package-service': 'yes',
      realpath: 'yes',
    })
    const multi = r.data?.capabilities.find((c) => c.id === 'multi-touch')
    expect(multi?.detail).to.equal(
      'the shell may not write /dev/input/event1 (sendevent: /dev/input/event1: Permission denied)'
    )
    expect(multi?.fallback).to.equal('pinch and custom_gesture with several paths fail with UNSUPPORTED')
    expect(r.text).to.match(
      /^device emu-1: Android 14 \(API 34\), .*, user build\ncosts \(measured now\): a screen read \d+ ms, one input call \d+ ms\n\ncapability +works +how \/ what arc does instead\n/
    )
    expect(r.text).to.include('multi-touch            no      the shell may not write /dev/input/event1')
    // Probing did nothing a user would notice: one press of left Shift, which no view acts on alone, to prove input works.
    expect(r.events).to.deep.equal([{type: 'keyevent', code: 59, name: 'KEYCODE_SHIFT_LEFT'}])
  })

  it('Android 9: swipes for one finger, multi-touch through sendevent; the probe sends only left Shift and a lone SYN_REPORT', async () => {
    const r = await run('emu-9', 'doctor')
    const s = statuses(r.data as CapabilityReport)
    expect([s['single-finger-gesture'], s['multi-touch'], s['clipboard-read']]).to.deep.equal(['partial', 'yes', 'no'])
    expect(r.data?.capabilities.find((c) => c.id === 'clipboard-read')?.detail).to.match(
      /^Android has no shell command for the clipboard/
    )
    expect(r.events).to.deep.equal([
      {type: 'keyevent', code: 59, name: 'KEYCODE_SHIFT_LEFT'},
      {type: 'sendevent', device: '/dev/input/event1', evType: 0, code: 0, value: 0},
    ])
  })

  it('a device whose shell may write /dev/input reports the touchscreen and its ranges', async () => {
    const r = await run('emu-rooted', 'doctor')
    expect(r.data?.capabilities.find((c) => c.id === 'multi-touch')).to.deep.equal({
      id: 'multi-touch',
      status: 'yes',
      detail: 'sendevent to /dev/input/event1 (synaptics_dsx, x 0..1079, y 0..2399)',
      fallback: '',
      backend: 'sendevent /dev/input/event1',
    })
  })

  it('the clipboard tools say UNSUPPORTED with the reason for the version, never an empty clipboard', async () => {
    const read14 = await run('emu-1', 'get_clipboard')
    expect(read14.error?.code).to.equal('UNSUPPORTED')
    expect(read14.error?.message).to.equal(
      'cannot read the clipboard over ADB on this device (API 34): Android 10+ lets only the focused app or the default keyboard read the clipboard, and the adb shell is neither (a read would come back empty, not fail)'
    )
    const read9 = await run('emu-9', 'get_clipboard')
    expect(read9.error?.message).to.match(
      /^cannot read the clipboard over ADB on this device \(API 28\): Android has no shell command/
    )
    const write = await run('emu-1', 'set_clipboard', {text: 'Hello'})
    expect(write.error?.code).to.equal('UNSUPPORTED')
    expect(tool('set_clipboard').input.safeParse({}).success).to.equal(false)
  })

  it('arc doctor from the CLI: the table, and --json', async () => {
    const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${h.emu.port}`}
    const human = await runArc(['doctor', '--device', 'emu-9'], {env})
    expect(human.code).to.equal(0)
    expect(human.stdout).to.match(/^device emu-9: Android 9 \(API 28\)/)
    const json = await runArc(['doctor', '--device', 'emu-9', '--json'], {env})
    expect(json.code).to.equal(0)
    const report = JSON.parse(json.stdout) as CapabilityReport
    expect(report.android.sdk).to.equal(28)
    expect(report.capabilities.map((c) => c.id)).to.include('multi-touch')
    const demo = await runArc(['doctor', '--device', 'demo'])
    expect(demo.code).to.equal(12)
    expect(demo.stderr).to.include('a recorded snapshot has no device to probe')
  })
})
