import {expect} from 'chai'

import {DEMO_DIR, exitCodeFor, type ErrorCode} from '@arc-cli/core'
import {parseScenario} from '@arc-cli/emulator'

import {runArc} from '@arc-cli/test-support/run-arc'
import {useEmulator} from '@arc-cli/test-support/emulator-support'

/**
 * What reaches the device and what comes back, against `arc emulate` (demo: 1080x2400): a refused input sends
 * no input command at all, and unexpected device output is a failure, never "executed".
 */
describe('hostile: device input', function () {
  const h = useEmulator()

  const refused: Array<[string[], ErrorCode, string]> = [
    [['tap', '5000', '5000'], 'INVALID_INPUT', '(5000, 5000) is off the 1080x2400 screen'],
    [['tap', '99999999', '99999999'], 'INVALID_INPUT', 'off the 1080x2400 screen'],
    [['tap', '1080', '0'], 'INVALID_INPUT', 'x must be below 1080'],
    [['double-tap', '5', '2400'], 'INVALID_INPUT', 'y below 2400'],
    [['long-press', '2000', '5'], 'INVALID_INPUT', 'off the 1080x2400 screen'],
    // A swipe's end may go past the edge (the finger leaves the screen), by up to the screen's size.
    [['swipe', '500', '1500', '500', '9000'], 'INVALID_INPUT', 'end (500, 9000) is off the 1080x2400 screen by more'],
    [['swipe', '500', '2400', '500', '1000'], 'INVALID_INPUT', 'start (500, 2400) is off the 1080x2400 screen'],
    // A finger put down off the screen touches nothing on a phone: pinch and gesture refuse it as tap does.
    [['pinch', '540', '5000', '2'], 'INVALID_INPUT', 'centre (540, 5000) is off the 1080x2400 screen'],
    [
      ['gesture', '--paths', '[{"x":100,"y":100,"time":0},{"x":100,"y":9000,"time":300}]'],
      'INVALID_INPUT',
      'path 1 point 2 (100, 9000) is off the 1080x2400 screen by more',
    ],
    [
      ['gesture', '--paths', '[{"x":100,"y":2400,"time":0},{"x":100,"y":1000,"time":300}]'],
      'INVALID_INPUT',
      'path 1 point 1 (100, 2400) is off the 1080x2400 screen',
    ],
    [['tap', '0x10', '5'], 'INVALID_INPUT', 'in decimal digits (got "0x10")'],
    [['tap', '1e3', '5'], 'INVALID_INPUT', 'in decimal digits (got "1e3")'],
    [['tap', ' 5', '5'], 'INVALID_INPUT', 'in decimal digits'],
    [['logs', '--package-name', '$(id)'], 'INVALID_INPUT', 'expected a package id'],
    [['logs', '--package-name=-h'], 'INVALID_INPUT', 'expected a package id'],
    [['logs', '--last-lines', '0x10'], 'INVALID_INPUT', 'in decimal digits'],
  ]
  for (const [args, code, says] of refused) {
    it(`arc ${args.join(' ')}: exit ${code} (${exitCodeFor(code)}), no input or pidof sent`, async () => {
      const from = h.emu.commands.length
      const run = await runArc(args, {env: h.env})
      expect(run.code, run.stderr).to.equal(exitCodeFor(code))
      expect(run.stderr).to.include(says)
      const sent = h.emu.commands.slice(from).map((c) => c.argv[0])
      expect(sent).to.not.include('input').and.not.include('pidof').and.not.include('sendevent')
    })
  }

  it('a swipe from the screen to past its edge is sent as given, as `input swipe` delivers it (the touched window keeps the gesture)', async () => {
    const device = h.emu.device('emu-1')
    const from = device.inputEvents.length
    const run = await runArc(['swipe', '540', '1800', '540', '3000'], {env: h.env})
    expect(run.code, run.stderr).to.equal(0)
    expect(device.inputEvents.slice(from)).to.deep.include({
      type: 'swipe',
      x1: 540,
      y1: 1800,
      x2: 540,
      y2: 3000,
      durationMs: 300,
    })
    const gesture = await runArc(
      ['gesture', '--paths', '[{"x":1000,"y":500,"time":0},{"x":1500,"y":500,"time":200}]'],
      {env: h.env}
    )
    expect(gesture.code, gesture.stderr).to.equal(0)
  })

  it('random bytes from `input` with exit status 0: exit DEVICE_COMMAND_FAILED (8) quoting the output, not "Tap executed"', async () => {
    h.emu.device('emu-1').addFault({command: 'input', kind: 'garbage', output: 'Xq\u0007#random'})
    const run = await runArc(['tap', '10', '10'], {env: h.env})
    expect(run.code, run.stderr).to.equal(exitCodeFor('DEVICE_COMMAND_FAILED'))
    expect(run.stdout).to.not.include('Tap executed')
    expect(run.stderr).to.include('unexpected output').and.include('random')
  })

  it('a fault with "command": "" is accepted by the scenario schema and matches any command, as docs/emulate.md says', async () => {
    const scenario = parseScenario(
      {devices: {x: {snapshot: DEMO_DIR, faults: [{command: '', kind: 'hang'}]}}},
      'test',
      process.cwd()
    )
    expect(scenario.devices.x?.faults?.[0]?.command).to.equal('')
    h.emu.device('emu-1').addFault({command: '', kind: 'error', message: 'boom\n', exitCode: 3})
    const run = await runArc(['press', 'back'], {env: h.env})
    expect(run.code, run.stderr).to.equal(exitCodeFor('DEVICE_COMMAND_FAILED'))
    expect(run.stderr).to.include('boom')
  })
})
