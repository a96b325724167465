import {DeviceNotFoundError} from '../../errors/arc-error.js'
import type {DeviceDriver} from '../device-driver.js'

export interface AdbConnectOptions {
  serial?: string
  host?: string
  port?: number
  timeoutMs?: number
  env: NodeJS.ProcessEnv
}

/** Placeholder until the ADB driver lands (issue 4): live devices are not reachable yet. */
export async function connectAdbDriver(options: AdbConnectOptions): Promise<DeviceDriver> {
  throw new DeviceNotFoundError(
    `no device ${options.serial ?? ''}: live ADB devices are not supported yet`.replace('  ', ' '),
    {actions: ['Use --device demo, or a snapshot folder or .xml file.']},
  )
}
