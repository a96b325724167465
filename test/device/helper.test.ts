import {buildScreenModel, jpegSize, pngSize} from '@arc-cli/core'
import {backendUses, closeHelperSessions, connectAdbDriver, type AdbDriver} from '@arc-cli/core/testing'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {useRealDevice} from '@arc-cli/test-support/real-device'
import {expect} from 'chai'

/**
 * arc's on-device helper on a real phone (`npm run test:device`, ARC_TEST_DEVICE=<serial>), in mode `required`, so
 * a part the phone's release refuses fails here with the reason instead of falling back unseen. Puts the helper's
 * dex in /data/local/tmp (kept: later runs find it by its hash) and sets the clipboard, putting the user's back.
 */
describe('device tier: the on-device helper on a real phone', function () {
  this.timeout(120_000)
  const device = useRealDevice()
  let driver: AdbDriver

  beforeEach(async () => {
    driver = (await connectAdbDriver({
      serial: device.serial,
      env: process.env,
      timeoutMs: 60_000,
      helper: 'required',
    })) as AdbDriver
  })

  afterEach(async () => {
    await driver?.close()
    await closeHelperSessions()
  })

  it('starts (pushing its dex when the phone lacks this build) and reads every window through UiAutomation', async () => {
    const model = buildScreenModel(await driver.captureScreen())
    expect(model.hierarchy.windows.length, 'windows in the helper read').to.be.at.least(1)
    expect(model.hierarchy.listedWindows?.length, 'the <displays> form lists windows').to.be.at.least(1)
    expect(backendUses(driver.shell).screen?.backend).to.equal('helper')
  })

  it('reads and writes the clipboard byte for byte, then puts back what was there', async () => {
    const before = await driver.getClipboard().catch(() => undefined)
    try {
      for (const text of NASTY_STRINGS.filter((t) => t !== '')) {
        await driver.setClipboard(text)
        expect(await driver.getClipboard(), JSON.stringify(text)).to.equal(text)
      }
    } finally {
      if (typeof before === 'string') await driver.setClipboard(before)
    }
  })

  it('arc doctor names the helper and what it serves', async () => {
    const rows = new Map((await driver.probeCapabilities()).capabilities.map((c) => [c.id, c]))
    expect(['yes', 'partial'], rows.get('helper')?.detail).to.include(rows.get('helper')?.status)
    expect(rows.get('helper-dump')?.status, rows.get('helper-dump')?.detail).to.equal('yes')
  })

  it('takes a screenshot scaled and JPEG-encoded on the phone (Bitmap.createScaledBitmap + compress), long side 1024', async () => {
    const full = await driver.screenshot()
    const size = pngSize(full)
    if (!size) expect.fail('the full-size screenshot is not a PNG')
    const jpeg = await driver.screenshot({maxSize: 1024, format: 'jpeg', quality: 80})
    const small = jpegSize(jpeg)
    if (!small) expect.fail('the small screenshot is not a whole JPEG')
    const long = Math.max(size.width, size.height)
    expect(Math.max(small.width, small.height)).to.equal(Math.min(1024, long))
    expect(jpeg.length, 'a 1024-pixel JPEG is smaller than the full PNG').to.be.lessThan(full.length)
    expect(backendUses(driver.shell).screenshot?.backend).to.equal('helper')
  })
})
