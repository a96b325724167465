import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

import {typeWithAdbKeyboard} from '../../src/driver/adb/adb-keyboard.js'
import {DeviceShell} from '../../src/driver/adb/device-shell.js'

/**
 * `ime set ID` answers `Input method ID selected for user #0`: the id is the device's (the keyboard that was
 * current), and a name like com.terror.keys holds "error". Only ime's own words may say it failed.
 */
describe("ime's answer echoes the input method's id", function () {
  this.timeout(30_000)
  const h = useEmulator({devices: [], scenario: {devices: {'emu-1': {snapshot: DEMO_DIR, adbKeyboard: true}}}})

  it('setting back a keyboard whose id says "error" is no failure', async () => {
    const device = h.emu.device('emu-1')
    const previous = 'com.terror.keys/.UnknownCannotIme'
    device.settings.set('secure/default_input_method', previous)
    // The phone's answer for that keyboard (the virtual device knows Gboard and ADBKeyBoard only).
    device.addFault({
      command: `ime set ${previous}`,
      kind: 'garbage',
      output: `Input method ${previous} selected for user #0\n`,
    })
    const server = h.server()
    const from = h.emu.commands.length
    try {
      await typeWithAdbKeyboard(new DeviceShell(server, 'emu-1'), 'café', ['é'])
      expect(h.argvSince(from).map((a) => a.join(' '))).to.include(`ime set ${previous}`)
    } finally {
      await server.shutdown()
      device.clearFaults()
    }
  })
})
