import {DEMO_DIR, SnapshotDriver, type DeviceDriver} from '@arc-cli/core'
import {expect} from 'chai'

import {NOT_RECORDED, READ_ONLY_ACTIONS} from '../../src/driver/read-only-driver.js'

describe('SnapshotDriver refusals (one table, no stub per method)', () => {
  let driver: SnapshotDriver
  before(async () => {
    driver = await SnapshotDriver.open(DEMO_DIR, 'demo')
  })

  for (const [method, words] of Object.entries(READ_ONLY_ACTIONS)) {
    it(`${method} fails DEVICE_READ_ONLY`, async () => {
      const call = (driver as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] as (...args: unknown[]) => Promise<unknown>
      const error = await call.call(driver, {x: 1, y: 2}, 3).then(
        () => undefined,
        (e: {code: string; message: string}) => e,
      )
      expect(error?.code).to.equal('DEVICE_READ_ONLY')
      expect(error?.message).to.equal(`recorded device is read-only: cannot ${words} on demo`)
    })
  }

  for (const [method, words] of Object.entries(NOT_RECORDED)) {
    it(`${method} fails UNSUPPORTED`, async () => {
      const call = (driver as unknown as Record<string, () => Promise<unknown>>)[method] as () => Promise<unknown>
      const error = await call.call(driver).then(
        () => undefined,
        (e: {code: string; message: string}) => e,
      )
      expect(error?.code).to.equal('UNSUPPORTED')
      expect(error?.message).to.equal(`a recorded snapshot has no ${words} (demo)`)
    })
  }

  it('still reads: a capture and the screen size come from the snapshot', async () => {
    const d: DeviceDriver = driver
    expect((await d.captureScreen()).xml).to.include('<hierarchy')
    expect(await d.screenSize()).to.have.keys('width', 'height')
  })
})
