import {expect} from 'chai'

import {displayBlock} from '../../src/driver/adb/parse-display.js'
import {parseAwake} from '../../src/driver/adb/screen.js'
import {windowSection} from '../../src/driver/adb/window-sections.js'
import {deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'

/**
 * A screen read tells a sleeping display from the window policy's `mAwake=` in the same `dumpsys window -a`: every
 * whole-dump capture (Android 7.1 to 13) prints it (in the policy section up to 9, in display 0's DisplayPolicy from
 * 10), two of them with the screen off.
 */
describe('the display’s power from the window policy section of real captures', () => {
  const expected: Record<string, boolean> = {
    'emulator-sdk_google_phone_x86-android7.1.1.txt': true,
    'emulator-sdk_gphone_x86-android9.txt': true,
    'meizu-mx6-flyme-android7.1.1.txt': false,
    'mtk-rlk6580-t2s-lite-android9.txt': true,
    'mtk-tb8168-tablet-android13.txt': false,
    'pixel-sailfish-android10.txt': true,
    'smartron-tphoneE-android8.1.txt': true,
    'vivo-pd1616-android7.1.2.txt': true,
  }
  for (const [file, awake] of Object.entries(expected)) {
    it(`${file}: mAwake=${awake}`, function () {
      if (!deviceOutputAvailable) this.skip()
      const whole = readDeviceOutput('dumpsys-window', file)
      const policy = windowSection(whole, 'policy')
      const displays = windowSection(whole, 'displays')
      // As a screen read looks: the policy section (up to Android 9), else display 0's DisplayPolicy (10+).
      expect(parseAwake(policy) ?? parseAwake(displayBlock(displays ?? '', 0))).to.equal(awake)
    })
  }

  it('says nothing where the dump has no policy line', () => {
    expect(parseAwake(undefined)).to.equal(undefined)
    expect(parseAwake('WINDOW MANAGER POLICY STATE (dumpsys window policy)\n    mSystemReady=true\n')).to.equal(
      undefined
    )
  })
})
