import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import type {ArcConfig} from '../config/config-schema.js'
import type {AdbConnectOptions} from './adb/connect.js'
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

/**
 * Which device string is in force and where it came from: --device, then ANDROID_SERIAL, then the config's
 * `device`; undefined means the single attached device.
 */
export function selectedDevice(selection: DeviceSelection): {device?: string; source: string} {
  const env = selection.env ?? process.env
  if (selection.device !== undefined) return {device: selection.device, source: '--device'}
  if (env.ANDROID_SERIAL) return {device: env.ANDROID_SERIAL, source: 'env ANDROID_SERIAL'}
  if (selection.config?.device !== undefined) return {device: selection.config.device, source: 'config'}
  return {source: 'default (the single attached device)'}
}

/** How to reach the adb server for a selection: flags, the config's `adb` section, the environment. */
export function adbOptions(selection: DeviceSelection): Omit<AdbConnectOptions, 'serial'> {
  return {
    host: selection.adbHost,
    port: selection.adbPort,
    configured: selection.config?.adb,
    timeoutMs: selection.config?.adb?.timeoutMs,
    env: selection.env ?? process.env,
  }
}

/** Opens the driver for a selection. The ADB driver is loaded only when a live device is asked for. */
export async function resolveDriver(selection: DeviceSelection): Promise<DeviceDriver> {
  const {device} = selectedDevice(selection)
  if (device === 'demo') return SnapshotDriver.open(DEMO_DIR, 'demo')
  if (device !== undefined && isSnapshotPath(device)) return SnapshotDriver.open(device)
  const {connectAdbDriver} = await import('./adb/connect.js')
  return connectAdbDriver({...adbOptions(selection), serial: device})
}
