/**
 * The device tier (`npm run test:device`): suites run against a real phone, the one whose adb serial
 * ARC_TEST_DEVICE names, through the usual adb server (or the one ADB_SERVER_SOCKET names). Without the variable
 * every suite skips, saying how to run it. The suites assume nothing about what the phone shows or has installed;
 * what they change (a folder in Download, the HOME key) they say in their titles and undo where they can.
 */
import {connectAdbDriver, type AdbDriver} from '@arc-cli/core/testing'

export const DEVICE_VAR = 'ARC_TEST_DEVICE'

export const SKIP_REASON = `skipped: set ${DEVICE_VAR} to the adb serial of a phone to run the device tier (\`adb devices\` lists them; ADB_SERVER_SOCKET for a remote server)`

export interface RealDevice {
  serial: string
  /** For a spawned arc: the device chosen the way a user chooses it. */
  env: NodeJS.ProcessEnv
  /** A driver for the device (the caller closes it). */
  driver(): Promise<AdbDriver>
}

/** For a mocha suite: the phone ARC_TEST_DEVICE names, or the suite skips with SKIP_REASON. */
export function useRealDevice(): RealDevice {
  const device = {} as RealDevice
  before(function () {
    const serial = process.env[DEVICE_VAR]?.trim()
    if (!serial) {
      console.log(`    (${SKIP_REASON})`)
      this.skip()
    }
    device.serial = serial
    device.env = {ANDROID_SERIAL: serial}
    device.driver = () => connectAdbDriver({serial, env: process.env, timeoutMs: 60_000})
  })
  return device
}

/** Runs `work` with a driver for the device and closes it after. */
export async function withDriver<T>(device: RealDevice, work: (driver: AdbDriver) => Promise<T>): Promise<T> {
  const driver = await device.driver()
  try {
    return await work(driver)
  } finally {
    await driver.close()
  }
}
