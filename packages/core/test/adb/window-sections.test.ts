/**
 * One `dumpsys window -a` instead of `dumpsys window displays` + `dumpsys window windows`: the sections sliced from
 * the whole dump must read exactly as the separate outputs do. Real captures: every file of
 * device-output/dumpsys-window (Android 7.1 to 13) has its displays and windows captures beside it. INDEX.tsv gives
 * each as a line range of the same bugreport as the whole dump (the bugreport's window service dump, taken with
 * `-a`), so they are one moment: everything must be equal, byte for byte, with nothing set aside for timing.
 */
import {readdirSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'

import {parseForeground, parseRotation} from '../../src/driver/adb/parse-dumpsys.js'
import {parseDisplayMetrics} from '../../src/driver/adb/parse-display.js'
import {parseWindowManager} from '../../src/driver/adb/parse-windows.js'
import {windowSection} from '../../src/driver/adb/window-sections.js'
import {DEVICE_OUTPUT_DIR, deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'
import {useEmulator} from '@arc-cli/test-support/emulator-support'

/** What a screen read takes from the two sections, parsed as screen.ts parses them. */
function readWindowManager(displays: string, windows: string) {
  const lookup = /mFocusedApp|mCurrentFocus/.test(displays) ? displays : windows
  return {
    windowManager: parseWindowManager(windows, displays),
    metrics: parseDisplayMetrics(displays),
    rotation: parseRotation(displays) ?? parseRotation(windows),
    foreground: parseForeground(lookup),
  }
}

const WHOLE = deviceOutputAvailable ? readdirSync(path.join(DEVICE_OUTPUT_DIR, 'dumpsys-window')).sort() : []

describe('dumpsys window -a: the displays and windows sections of one dump', () => {
  describe('real captures, Android 7.1 to 13', function () {
    before(function () {
      if (!deviceOutputAvailable) this.skip()
    })

    it('covers every whole capture, and each has its separate displays and windows captures', function () {
      if (!deviceOutputAvailable) this.skip()
      expect(WHOLE).to.have.length(8)
      for (const folder of ['dumpsys-window-displays', 'dumpsys-window-windows']) {
        expect(readdirSync(path.join(DEVICE_OUTPUT_DIR, folder))).to.include.members(WHOLE)
      }
    })

    for (const file of WHOLE) {
      it(`${file}: the slices are the separate captures byte for byte, and read the same windows, size, density, rotation and foreground`, () => {
        const whole = readDeviceOutput('dumpsys-window', file)
        const displays = readDeviceOutput('dumpsys-window-displays', file)
        const windows = readDeviceOutput('dumpsys-window-windows', file)
        expect(windowSection(whole, 'displays')).to.equal(displays)
        expect(windowSection(whole, 'windows')).to.equal(windows)
        const fromWhole = readWindowManager(windowSection(whole, 'displays')!, windowSection(whole, 'windows')!)
        const fromSeparate = readWindowManager(displays, windows)
        expect(fromWhole).to.deep.equal(fromSeparate)
        // Not empty reads: each capture shows windows with frames, a size and a density.
        expect(fromWhole.windowManager.windows.length).to.be.greaterThan(3)
        expect(fromWhole.windowManager.windows.some((w) => w.frame !== undefined && w.visible)).to.equal(true)
        expect(fromWhole.metrics?.density).to.be.greaterThan(0)
        expect(fromWhole.rotation).to.be.oneOf([0, 1, 2, 3])
      })
    }
  })

  describe('slicing', () => {
    const whole = [
      '',
      '-------------------------------------------------------------------------------',
      'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
      '    mSystemReady=true',
      '-------------------------------------------------------------------------------',
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      '  Display: mDisplayId=0',
      '',
      '-------------------------------------------------------------------------------',
      'WINDOW MANAGER WINDOWS (dumpsys window windows)',
      '  Window #0 Window{1 u0 StatusBar}:',
      'WINDOW MANAGER TRACE (dumpsys window trace)',
      'Status: Disabled',
    ].join('\n')

    it('cuts a section at the dashes or at the next header, header included', () => {
      expect(windowSection(whole, 'displays')).to.equal(
        'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n\n'
      )
      expect(windowSection(whole, 'windows')).to.equal(
        'WINDOW MANAGER WINDOWS (dumpsys window windows)\n  Window #0 Window{1 u0 StatusBar}:\n'
      )
      expect(windowSection(whole, 'trace')).to.equal('WINDOW MANAGER TRACE (dumpsys window trace)\nStatus: Disabled')
    })

    it('gives undefined for a section the output lacks (an error, another format)', () => {
      expect(windowSection(whole, 'tokens')).to.equal(undefined)
      expect(windowSection("Can't find service: window\n", 'windows')).to.equal(undefined)
      expect(windowSection('', 'displays')).to.equal(undefined)
    })
  })

  describe('ADB driver (adbkit against arc emulate)', () => {
    const h = useEmulator()

    it('falls back to dumpsys window displays and windows only when the whole dump lacks a section, and reads the same', async () => {
      const driver = await h.driver()
      const expected = await driver.windowInfo()
      const whole = (await h.server().shell('emu-1', 'dumpsys window -a')).output.toString('utf8')
      const withoutWindows = whole.replace(/^WINDOW MANAGER WINDOWS \(dumpsys window windows\)$/m, '')
      expect(withoutWindows).to.not.equal(whole)
      h.emu.device('emu-1').addFault({command: 'dumpsys window -a', kind: 'garbage', output: withoutWindows})
      const from = h.emu.commands.length
      const info = await driver.windowInfo()
      expect(h.argvSince(from))
        .to.deep.include.members([
          ['dumpsys', 'window', '-a'],
          ['dumpsys', 'window', 'displays'],
          ['dumpsys', 'window', 'windows'],
        ])
        .and.have.length(3)
      expect(h.argvSince(from)[0]).to.deep.equal(['dumpsys', 'window', '-a'])
      expect(info).to.deep.equal(expected)
      expect(info.windowManager!.windows.length).to.be.greaterThan(1)
    })

    it('reads no stale section: a capture without the fault asks the whole dump only', async () => {
      const driver = await h.driver()
      const from = h.emu.commands.length
      await driver.windowInfo()
      expect(h.argvSince(from)).to.deep.equal([['dumpsys', 'window', '-a']])
    })
  })
})
