/**
 * Entry points of the ADB driver for @arc-cli/core's public surface. They import the driver (and adbkit) only when
 * called, so commands that never touch a live device do not pay for loading it.
 */
import type {DeviceSummary} from '../device-driver.js'
import type {AdbConnectOptions} from './connect.js'

/** Every device the adb server knows (serial, state, model, product), without choosing one. */
export async function listAdbDevices(options: Omit<AdbConnectOptions, 'serial'>): Promise<DeviceSummary[]> {
  const {listAdbDevices: list} = await import('./connect.js')
  return list(options)
}

export type {AdbConnectOptions} from './connect.js'
