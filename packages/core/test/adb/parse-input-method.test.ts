import {readdirSync} from 'node:fs'
import path from 'node:path'

import {keyboardVerdict, keyboardWindowShown} from '@arc-cli/core'
import {expect} from 'chai'

import {parseInputShown} from '../../src/driver/adb/parse-input-method.js'
import {parseWindowManager} from '../../src/driver/adb/parse-windows.js'
import {DEVICE_OUTPUT_DIR, deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'

const files = (folder: string) => readdirSync(path.join(DEVICE_OUTPUT_DIR, folder)).sort()

describe('is the soft keyboard shown: dumpsys input_method and the window list, from real captures of Android 7.1 to 15', function () {
  before(function () {
    if (!deviceOutputAvailable) this.skip()
  })

  it("reads mInputShown=false from every capture, not the IME dump's mIsInputViewShown=true that stays after hiding", () => {
    const all = files('dumpsys-input-method')
    expect(all).to.have.length(6)
    for (const file of all)
      expect(parseInputShown(readDeviceOutput('dumpsys-input-method', file)), file).to.equal(false)
    // The Android 7.1 emulator and the Android 9 POS terminal were captured with the keyboard hidden and the IME's
    // view still marked shown: only the service's flag says whether a BACK would close a keyboard.
    for (const file of ['emulator-sdk_google_phone_x86-android7.1.1.txt', 'mtk-rlk6580-t2s-lite-android9.txt']) {
      expect(readDeviceOutput('dumpsys-input-method', file)).to.match(/^ {2}mIsInputViewShown=true /m)
    }
  })

  it('reads the flag where each release prints it: the flags line (7-13), a line of its own (14+), CRLF line ends', () => {
    const android13 = readDeviceOutput('dumpsys-input-method', 'mtk-tb8168-tablet-android13.txt')
    expect(
      parseInputShown(android13.replace('mShowForced=false mInputShown=false', 'mShowForced=true mInputShown=true'))
    ).to.equal(true)
    expect(
      parseInputShown(android13.replaceAll('\n', '\r\n').replace('mInputShown=false', 'mInputShown=true'))
    ).to.equal(true)
    expect(
      parseInputShown(
        ' mRequestedShowExplicitly=false mShowForced=false\n  mImeHiddenByDisplayPolicy=false\n  mInputShown=true\n'
      )
    ).to.equal(true)
    expect(parseInputShown(android13.replace('mInputShown=false', 'mInputShown=maybe'))).to.equal(undefined)
    expect(parseInputShown("Can't find service: input_method\n")).to.equal(undefined)
    expect(parseInputShown('  mIsInputViewShown=true\n')).to.equal(undefined)
  })

  it('the window lists: each keyboard window is listed hidden; a list without one (Android 8.1, 9, 10) is no keyboard, not unknown', () => {
    const withWindow: string[] = []
    for (const file of files('dumpsys-window-windows')) {
      const wm = parseWindowManager(readDeviceOutput('dumpsys-window-windows', file))
      expect(keyboardWindowShown(wm), file).to.equal(false)
      if (wm.windows.some((w) => w.type === 'INPUT_METHOD')) withWindow.push(file)
    }
    expect(withWindow).to.have.length(9)
    expect(keyboardWindowShown({windows: []})).to.equal(undefined)
    expect(keyboardWindowShown(undefined)).to.equal(undefined)
    // The same list with the keyboard's window shown (Android 13 tablet), and on a second display only.
    const tablet = parseWindowManager(readDeviceOutput('dumpsys-window-windows', 'mtk-tb8168-tablet-android13.txt'))
    const shown = tablet.windows.map((w) => (w.type === 'INPUT_METHOD' ? {...w, visible: true} : w))
    expect(keyboardWindowShown({windows: shown})).to.equal(true)
    expect(
      keyboardWindowShown({windows: shown.map((w) => ({...w, displayId: w.type === 'INPUT_METHOD' ? 1 : w.displayId}))})
    ).to.equal(false)
  })

  it('the verdict: shown or hidden only where every source that answered agrees', () => {
    expect(keyboardVerdict({inputShown: true, windowShown: true})).to.equal('shown')
    expect(keyboardVerdict({windowShown: true})).to.equal('shown')
    expect(keyboardVerdict({inputShown: false, windowShown: false})).to.equal('hidden')
    expect(keyboardVerdict({inputShown: true, windowShown: false})).to.equal('mixed')
    expect(keyboardVerdict({inputShown: false, windowShown: true})).to.equal('mixed')
    expect(keyboardVerdict({})).to.equal('unknown')
  })
})
