import {readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {DEVICE_OUTPUT_DIR} from '@arc-cli/test-support/device-output'
import {makeSnapshot} from './support.js'

/** The real Android 9 capture the layout is built from (../shared/fixtures/device-output, INDEX.tsv). */
const CAPTURE = 'dumpsys-window/emulator-sdk_gphone_x86-android9.txt'

describe('arc emulate on Android 9 prints `dumpsys window` in Android 9’s layout, and arc reads it', () => {
  const h = useEmulator(async (dir) => ({
    devices: [],
    scenario: {
      devices: {
        pie: {
          snapshot: makeSnapshot(path.join(dir, 'land'), 'Land', {rotation: 1, width: 1280, height: 720}),
          properties: {'ro.build.version.sdk': '28', 'ro.build.version.release': '9'},
        },
      },
    },
  }))
  const run = async (command: string) => (await h.server().shell('pie', command)).output.toString('utf8')

  it('the displays section has neither the rotation nor the focus; the windows section closes with them, as the capture does', async function () {
    let capture: string
    try {
      capture = readFileSync(path.join(DEVICE_OUTPUT_DIR, CAPTURE), 'utf8')
    } catch {
      this.skip()
    }
    const displays = await run('dumpsys window displays')
    const windows = await run('dumpsys window windows')
    for (const text of [capture, displays]) expect(text).to.match(/^ {2}Display: mDisplayId=0$/m)
    expect(displays).not.to.match(/mCurrentRotation=|mCurrentFocus=|mFocusedApp=/)
    // Each of these lines of the capture has its like in what the device prints.
    const shapes = [
      /^ {4}init=\d+x\d+ \d+dpi cur=\d+x\d+ app=\d+x\d+ rng=\d+x\d+-\d+x\d+$/m,
      /^ {4}mDisplayId=0 stackId=\d+ mSession=Session\{\w+ \d+:u0a\d+\} mClient=android\.os\.BinderProxy@\w+$/m,
      /^ {4}mBaseLayer=\d+ mSubLayer=0 mAnimLayer=0\+=0 mLastLayer=0$/m,
      /^ {4}mToken=WindowToken\{\w+ android\.os\.BinderProxy@\w+\}$/m,
      /^ {4}mFrame=\[\d+,\d+\]\[\d+,\d+\] last=\[\d+,\d+\]\[\d+,\d+\]$/m,
      /^ {2}mCurrentFocus=Window\{\w+ u0 [\w.]+\/[\w.]+\}$/m,
      /^ {2}mFocusedApp=AppWindowToken\{\w+ token=Token\{\w+ ActivityRecord\{\w+ u0 [\w.]+\/[\w.]+ t\d+\}\}\}$/m,
      /^ {2}mRotation=\d mAltOrientation=false$/m,
    ]
    const device = `${displays}\n${windows}`
    for (const shape of shapes) {
      expect(capture!, String(shape)).to.match(shape)
      expect(device, String(shape)).to.match(shape)
    }
    expect(windows).to.match(/^ {2}mCurrentFocus=Window\{\w+ u0 com\.example\/com\.example\.LoginActivity\}$/m)
    expect(windows).to.include('  mRotation=1 mAltOrientation=false')
  })

  it('the whole dump (-a) goes from the last ANR to the windows, with an empty section before the displays, as the capture', async function () {
    let capture: string
    try {
      capture = readFileSync(path.join(DEVICE_OUTPUT_DIR, CAPTURE), 'utf8')
    } catch {
      this.skip()
    }
    const headers = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^(WINDOW MANAGER |-{79}$)/.test(l))
        .map((l) => l.replace(/ \(dumpsys.*/, ''))
    const whole = await run('dumpsys window -a')
    expect(headers(whole)).to.deep.equal(headers(capture!))
  })

  it('arc reads the rotation and the app in front from that layout', async () => {
    const capture = await h.capture('pie')
    expect(capture.screen.rotation).to.equal(1)
    expect(capture.screen).to.include({width: 1280, height: 720})
    expect(capture.foreground.package).to.equal('com.example')
  })
})
