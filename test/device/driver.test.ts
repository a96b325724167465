import {randomBytes} from 'node:crypto'

import {buildScreenModel, isPng, pngSize} from '@arc-cli/core'
import {NASTY_STRINGS} from '@arc-cli/test-support/nasty-strings'
import {useRealDevice, withDriver} from '@arc-cli/test-support/real-device'
import {expect} from 'chai'

/**
 * The ADB driver against a real phone (`npm run test:device`, ARC_TEST_DEVICE=<serial>): what every phone must
 * answer whatever it shows. Writes only a folder of its own under /sdcard/Download, removed after.
 */
describe('device tier: the ADB driver on a real phone', function () {
  this.timeout(120_000)
  const device = useRealDevice()
  const folder = `/sdcard/Download/arc-device-test-${randomBytes(4).toString('hex')}`

  after(async function () {
    if (!device.serial) return
    await withDriver(device, (driver) => driver.runCommand(['rm', '-rf', folder]))
  })

  it('reads the screen: windows with elements, and a screenshot PNG of the screen size either way round', async () => {
    await withDriver(device, async (driver) => {
      const model = buildScreenModel(await driver.captureScreen())
      expect(model.hierarchy.windows.length, 'windows in the dump').to.be.at.least(1)
      const size = await driver.screenSize()
      const png = await driver.screenshot()
      expect(isPng(png), 'screencap -p is a PNG').to.equal(true)
      const shot = pngSize(png)
      if (!shot) expect.fail('the screenshot has no PNG header')
      expect([
        [size.width, size.height],
        [size.height, size.width],
      ]).to.deep.include([shot.width, shot.height])
    })
  })

  it('names the device: its serial, an Android version and an SDK level', async () => {
    const info = await withDriver(device, (driver) => driver.deviceInfo())
    expect(info.serial).to.equal(device.serial)
    expect(info.android_version, 'ro.build.version.release').to.be.a('string').and.not.equal('')
    expect(info.sdk, 'ro.build.version.sdk').to.be.a('number').and.be.at.least(21)
  })

  it('sends every hostile string to the device shell byte for byte', async () => {
    await withDriver(device, async (driver) => {
      for (const text of NASTY_STRINGS) {
        const out = await driver.runCommand(['printf', '%s', text])
        expect(out.stdout.toString('utf8'), JSON.stringify(text)).to.equal(text)
      }
    })
  })

  it('writes a file under a name of spaces and quotes, reads it back byte for byte, and deletes it', async () => {
    const file = `${folder}/it's a "file" $(x).bin`
    const data = randomBytes(100_000)
    await withDriver(device, async (driver) => {
      await driver.makeDirs(folder)
      await driver.writeFile(file, data)
      expect((await driver.readFile(file)).equals(data), 'the bytes read back').to.equal(true)
      await driver.deleteFile(file)
      expect(await driver.statFile(file)).to.equal(undefined)
    })
  })
})
