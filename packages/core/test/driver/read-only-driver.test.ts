import {CAPABILITY_METHODS, type DeviceDriver} from '../../src/driver/device-driver.js'
import {DEMO_DIR} from '../../src/driver/resolve-device.js'
import {NOT_RECORDED, openSnapshot, READ_ONLY_ACTIONS} from '../../src/driver/snapshot-driver.js'
import {expect} from 'chai'

describe('a recorded snapshot as a whole driver: screen and info served, every other method refused by its capability', () => {
  let driver: DeviceDriver
  before(async () => {
    driver = await openSnapshot(DEMO_DIR, 'demo')
  })

  for (const [capability, methods] of Object.entries(CAPABILITY_METHODS)) {
    if (capability === 'screen' || capability === 'info') continue
    for (const [method, use] of Object.entries(methods)) {
      const [code, message] =
        use === 'act'
          ? [
              'DEVICE_READ_ONLY',
              `recorded device is read-only: cannot ${READ_ONLY_ACTIONS[capability as keyof typeof READ_ONLY_ACTIONS]} on demo`,
            ]
          : [
              'UNSUPPORTED',
              `a recorded snapshot has no ${NOT_RECORDED[capability as keyof typeof NOT_RECORDED]} (demo)`,
            ]
      it(`${capability}.${method} fails ${code}`, async () => {
        const call = (driver as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[method] as (
          ...args: unknown[]
        ) => Promise<unknown>
        const error = await call.call(driver, {x: 1, y: 2}, 3).then(
          () => undefined,
          (e: {code: string; message: string}) => e
        )
        expect(error?.code).to.equal(code)
        expect(error?.message).to.equal(message)
      })
    }
  }

  it('every refusal has its words: no capability falls back to a generic message', () => {
    for (const [capability, methods] of Object.entries(CAPABILITY_METHODS)) {
      if (capability === 'screen' || capability === 'info') continue
      for (const use of Object.values(methods)) {
        const table: Record<string, string> = use === 'act' ? READ_ONLY_ACTIONS : NOT_RECORDED
        expect(table, `${capability} ${use}`).to.have.property(capability)
      }
    }
  })

  it('still reads: a capture, the screen size and the rotation come from the snapshot', async () => {
    expect((await driver.captureScreen()).xml).to.include('<hierarchy')
    expect(await driver.screenSize()).to.have.keys('width', 'height')
    expect((await driver.rotation()).rotation).to.equal(0)
  })
})
