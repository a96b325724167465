import {expect} from 'chai'

import {parseDisplayMetrics} from '../../src/driver/adb/parse-display.js'
import {deviceOutputAvailable, readDeviceOutput} from '@arc-cli/test-support/device-output'

/** Size and density of display 0 as INDEX.tsv states them for each device (natural orientation). */
const STATED: Array<[file: string, width: number, height: number, density: number]> = [
  ['emulator-sdk_google_phone_x86-android7.1.1.txt', 1440, 2560, 480],
  ['vivo-pd1616-android7.1.2.txt', 1080, 1920, 480],
  ['meizu-mx6-flyme-android7.1.1.txt', 1080, 1920, 480],
  ['smartron-tphoneE-android8.1.txt', 1080, 2160, 480],
  ['emulator-sdk_gphone_x86-android9.txt', 1080, 1920, 420],
  // A landscape POS terminal listing its second display (320 dpi) before display 0 (230 dpi).
  ['mtk-rlk6580-t2s-lite-android9.txt', 1920, 1080, 230],
  ['pixel-sailfish-android10.txt', 1080, 1920, 420],
  ['mtk-tb8168-tablet-android13.txt', 480, 800, 240],
]

describe('dumpsys window displays: size and density in force', () => {
  describe('real captures, Android 7.1 to 13', function () {
    before(function () {
      if (!deviceOutputAvailable) this.skip()
    })

    for (const [file, width, height, density] of STATED) {
      it(`${file}: display 0 is ${width}x${height} at ${density} dpi, alone and inside the whole \`dumpsys window\``, () => {
        const expected = {size: {width, height}, density}
        expect(parseDisplayMetrics(readDeviceOutput('dumpsys-window-displays', file))).to.deep.equal(expected)
        expect(parseDisplayMetrics(readDeviceOutput('dumpsys-window', file))).to.deep.equal(expected)
      })
    }

    it('finds no size in a windows list (nothing to read there: wm size is asked instead)', () => {
      expect(parseDisplayMetrics(readDeviceOutput('dumpsys-window-windows', 'pixel-sailfish-android10.txt'))).to.equal(
        undefined
      )
    })
  })

  // The line as DisplayContent.dump writes it: init=, then base= only when `wm size`/`wm density` overrode either.
  const display = (line: string) =>
    `WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=3\n    ${line}\n    mRotation=0\n`

  it('base= (a wm size or wm density override) wins over init=, both values at once', () => {
    expect(
      parseDisplayMetrics(
        display(
          'init=1080x2400 420dpi mMinSizeOfResizeableTaskDp=220 base=720x1600 320dpi cur=720x1600 app=720x1528 rng=720x720-1600x1600'
        )
      )
    ).to.deep.equal({
      size: {width: 720, height: 1600},
      density: 320,
    })
    // Only the density overridden: base= repeats the physical size.
    expect(
      parseDisplayMetrics(
        display('init=1080x1920 420dpi base=1080x1920 480dpi cur=1080x1920 app=1080x1794 rng=1080x1017-1794x1731')
      )
    ).to.deep.equal({
      size: {width: 1080, height: 1920},
      density: 480,
    })
  })

  it('reads the line when `noscale` ends it early, and with CRLF line ends', () => {
    expect(
      parseDisplayMetrics(
        display(
          'init=1440x2560 560dpi base=1080x1920 420dpi noscale\n cur=1080x1920 app=1080x1794 rng=1080x1017-1794x1731'
        )
      )
    ).to.deep.equal({
      size: {width: 1080, height: 1920},
      density: 420,
    })
    expect(
      parseDisplayMetrics(
        display('init=1080x2340 440dpi cur=2340x1080 app=2340x1080 rng=1080x1080-2340x2340').replace(/\n/g, '\r\n')
      )
    ).to.deep.equal({
      size: {width: 1080, height: 2340},
      density: 440,
    })
  })

  it("reads display 0 only, wherever it is listed, and never another display's base=", () => {
    const two = [
      '  Display: mDisplayId=2 (organized)',
      '    init=800x480 213dpi base=640x480 160dpi cur=800x480 app=800x480 rng=480x480-800x800',
      '  Display: mDisplayId=0 (organized)',
      '    init=1080x2400 420dpi mMinSizeOfResizeableTaskDp=220 cur=1080x2400 app=1080x2400 rng=1080x1080-2400x2400',
    ].join('\n')
    expect(parseDisplayMetrics(two)).to.deep.equal({size: {width: 1080, height: 2400}, density: 420})
    expect(parseDisplayMetrics(two.split('\n').slice(0, 2).join('\n'))).to.equal(undefined)
  })

  it('gives undefined (so wm size and wm density are asked) when the size line is missing or says nothing', () => {
    expect(parseDisplayMetrics('')).to.equal(undefined)
    expect(parseDisplayMetrics('\u0000\u00ff not a dump')).to.equal(undefined)
    expect(parseDisplayMetrics(display('mDisplayInfo=DisplayInfo{"Built-in Screen", real 1080 x 1920}'))).to.equal(
      undefined
    )
    expect(parseDisplayMetrics(display('init=0x0 0dpi cur=0x0 app=0x0 rng=0x0-0x0'))).to.equal(undefined)
    // A size line outside any display block is not trusted.
    expect(parseDisplayMetrics('    init=1080x1920 420dpi cur=1080x1920')).to.equal(undefined)
  })
})
