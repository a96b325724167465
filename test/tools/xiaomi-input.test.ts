import {DEMO_DIR, type CapabilityReport} from '@arc-cli/core'
import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'

/**
 * Xiaomi, Redmi and POCO phones (MIUI, HyperOS) refuse every injected event until "USB debugging (Security settings)"
 * is on: `input` exists and fails with `SecurityException … INJECT_EVENTS` (the emulator's `xiaomi` profile prints it
 * as the phones do). arc doctor must find that out by trying, and every action must name the setting.
 */
describe('a Xiaomi phone that refuses input until “USB debugging (Security settings)” is on', function () {
  this.timeout(30_000)
  const h = useEmulator({devices: [], scenario: {devices: {redmi: {snapshot: DEMO_DIR, profile: 'xiaomi'}}}})
  const arc = (args: string[]) => runArc([...args, '--device', 'redmi'], {env: h.env})

  it('arc doctor tries input and reports it refused, naming the setting; nothing reached the screen', async () => {
    const run = await arc(['doctor', '--json'])
    expect(run.code, run.stderr).to.equal(0)
    const report = JSON.parse(run.stdout) as CapabilityReport
    expect(report.android).to.include({release: '13', sdk: 33})
    const input = report.capabilities.find((c) => c.id === 'input')!
    expect(input.status).to.equal('no')
    expect(input.detail).to.include('INJECT_EVENTS')
    expect(input.fallback).to.include('USB debugging (Security settings)')
    expect(input.backend).to.equal('none')
    expect(report.costs.input_ms).to.equal(null)
    expect(report.costs.read_ms).to.be.a('number')
    expect(h.emu.device('redmi').inputEvents).to.deep.equal([])
    const human = await arc(['doctor'])
    expect(human.stdout).to.match(/^input +no +input is refused: .*INJECT_EVENTS.*USB debugging \(Security settings\)/m)
  })

  it('a tap fails with the setting named (DEVICE_COMMAND_FAILED, exit 8), not a bare exception', async () => {
    const run = await arc(['tap', '100', '100'])
    expect(run.code).to.equal(8)
    expect(run.stderr).to.match(
      /^Error \[DEVICE_COMMAND_FAILED\]: input tap 100 100 was refused on redmi: the device does not let adb inject input/
    )
    expect(run.stderr).to.include('"USB debugging (Security settings)"')
    expect(run.stderr).to.include('Try: On Xiaomi, Redmi and POCO phones (MIUI, HyperOS)')
  })

  it('an element action (click by its description) gives the same hint', async () => {
    const run = await arc(['click', '--desc', 'Delete Lemons'])
    expect(run.code, run.stderr).to.equal(8)
    expect(run.stderr).to.include('USB debugging (Security settings)')
  })

  it('with the setting on, doctor finds input working and says what serves it and what it cost', async () => {
    h.emu.device('redmi').usbDebuggingSecurity = true
    try {
      const run = await arc(['doctor', '--json'])
      const report = JSON.parse(run.stdout) as CapabilityReport
      const input = report.capabilities.find((c) => c.id === 'input')!
      expect(input).to.include({status: 'yes', backend: 'input (cmd input, in system_server)'})
      expect(report.costs.input_ms).to.be.a('number')
      const tap = await arc(['tap', '100', '100'])
      expect(tap.code, tap.stderr).to.equal(0)
    } finally {
      h.emu.device('redmi').usbDebuggingSecurity = false
    }
  })
})

describe('arc doctor names what serves each capability on an Android 11 phone', function () {
  this.timeout(30_000)
  const h = useEmulator({
    devices: [],
    scenario: {devices: {r: {snapshot: DEMO_DIR, profile: 'android-11', timing: {vmStartMs: 0}}}},
  })

  it('input through app_process, motionevent gestures, cmd statusbar', async () => {
    const run = await runArc(['doctor', '--json', '--device', 'r'], {env: h.env})
    const report = JSON.parse(run.stdout) as CapabilityReport
    const served = Object.fromEntries(report.capabilities.map((c) => [c.id, c.backend]))
    expect(served).to.include({
      'ui-dump': 'uiautomator dump --windows',
      input: 'input (app_process: a new VM per call)',
      'single-finger-gesture': 'input motionevent',
      'clipboard-read': 'none',
      screenshot: 'screencap -p',
      'statusbar-service': 'cmd statusbar',
    })
  })
})
