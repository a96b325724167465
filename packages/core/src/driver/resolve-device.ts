import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import type {ArcConfig} from '../config/config-schema.js'
import type {DeviceDriver} from './device-driver.js'
import {SnapshotDriver} from './snapshot-driver.js'

/** The bundled demo snapshot (the project's own screen, made by scripts/make-demo.ts). */
export const DEMO_DIR = fileURLToPath(new URL('../../demo/', import.meta.url))

export interface DeviceSelection {
  device?: string
  adbHost?: string
  adbPort?: number
  config?: ArcConfig
  env?: NodeJS.ProcessEnv
}

/**
 * A device string names a recorded snapshot when it contains a slash, ends in `.xml`, or is an existing path;
 * `demo` is the bundled snapshot; anything else is an adb serial. adb serials (`emulator-5554`,
 * `192.168.1.7:5555`, `R58M12ABCDE`) never contain a slash.
 */
export function isSnapshotPath(device: string): boolean {
  return device.includes('/') || device.includes('\\') || device.toLowerCase().endsWith('.xml') || existsSync(device)
}

/** Which device string is in force: --device, then ANDROID_SERIAL, then the config's `device`. */
export function selectedDevice(selection: DeviceSelection): string | undefined {
  const env = selection.env ?? process.env
  return selection.device ?? (env.ANDROID_SERIAL || undefined) ?? selection.config?.device
}

/** Opens the driver for a selection. The ADB driver is loaded only when a live device is asked for. */
export async function resolveDriver(selection: DeviceSelection): Promise<DeviceDriver> {
  const device = selectedDevice(selection)
  if (device === 'demo') return SnapshotDriver.open(DEMO_DIR, 'demo')
  if (device !== undefined && isSnapshotPath(device)) return SnapshotDriver.open(device)
  const {connectAdbDriver} = await import('./adb/connect.js')
  return connectAdbDriver({
    serial: device,
    host: selection.adbHost ?? selection.config?.adb?.host,
    port: selection.adbPort ?? selection.config?.adb?.port,
    timeoutMs: selection.config?.adb?.timeoutMs,
    env: selection.env ?? process.env,
  })
}
