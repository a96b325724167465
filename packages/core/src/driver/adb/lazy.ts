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

/**
 * Every device the adb server knows and the state of the device `--device NAME` would pick (undefined while
 * nothing matches NAME): what `arc devices --wait --serial NAME` waits on.
 */
export async function findAdbDevice(
  options: Omit<AdbConnectOptions, 'serial'>,
  name: string
): Promise<{devices: DeviceSummary[]; state?: string}> {
  const {findAdbDevice: find} = await import('./connect.js')
  return find(options, name)
}

export type {AdbConnectOptions} from './connect.js'
