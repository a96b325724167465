import {existsSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

import type {ArcConfig} from '../config/config-schema.js'
import {ArcError, DeviceNotFoundError, DeviceUnavailableError, isArcError} from '../errors/arc-error.js'
import type {AdbConnectOptions} from './adb/connect.js'
import type {Backend} from './compose.js'
import type {DeviceDriver} from './device-driver.js'
import {helperHoldMs, helperMode, type HelperMode} from './device-helper.js'
import {openSnapshot, snapshotBackend} from './snapshot-driver.js'

/**
 * The bundled demo snapshot (the project's own screen, made by scripts/make-demo.ts). Two folders up from this
 * module: src/driver/ in development, dist/driver/ built, dist/bundle/ in the core's bundle (scripts/bundle-core.js
 * keeps that depth).
 */
export const DEMO_DIR = fileURLToPath(new URL('../../demo/', import.meta.url))

export interface DeviceSelection {
  device?: string
  adbHost?: string
  adbPort?: number
  /** `--helper`: whether the on-device helper serves what it can. */
  helper?: HelperMode
  /**
   * The caller runs many calls in this process (`arc batch`, `arc test`, `arc mcp serve`), so the helper's start
   * is paid once: an adb device's touches go through it (AdbDriverOptions.resident).
   */
  resident?: boolean
  config?: ArcConfig
  env?: NodeJS.ProcessEnv
}

/**
 * A device string names a recorded snapshot when it looks like a path: it contains a slash (or a backslash) or
 * ends in `.xml`. `demo` is the bundled snapshot. Anything else is an adb serial, even when a file or folder of
 * that name exists here (`arc snapshot save a -d a` saves the device `a` into the folder `a`); adb serials
 * (`emulator-5554`, `192.168.1.7:5555`, `R58M12ABCDE`) never contain a slash. Write `./a` for the folder.
 */
export function isSnapshotPath(device: string): boolean {
  return device.includes('/') || device.includes('\\') || device.toLowerCase().endsWith('.xml')
}

/**
 * Why `--device NAME` could never reach an adb device called NAME (arc would read the name as a snapshot), or
 * undefined when it can. `arc emulate` refuses such serials so a virtual device is always reachable by name.
 */
export function unreachableSerial(serial: string): string | undefined {
  if (serial === 'demo') return '`demo` always means the bundled demo snapshot'
  if (isSnapshotPath(serial)) return 'a name with a slash or ending in .xml is read as a snapshot path'
  return undefined
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
    helper: helperMode(selection.helper, selection.env ?? process.env, selection.config?.adb?.helper),
    helperHoldMs: helperHoldMs(selection.env ?? process.env, selection.config?.adb?.helperHoldMs),
    ...(selection.resident ? {resident: true} : {}),
  }
}

/**
 * The backend a selection names, when it serves less than every capability: a recorded snapshot (what it serves
 * and how it refuses the rest, known from the device string before anything is opened). Undefined for an adb
 * device, which serves them all.
 */
export function partialBackend(selection: DeviceSelection): Backend | undefined {
  const {device} = selectedDevice(selection)
  if (device === 'demo') return snapshotBackend('demo')
  if (device !== undefined && isSnapshotPath(device)) return snapshotBackend(device)
  return undefined
}

/** Opens the driver for a selection. The ADB driver is loaded only when a live device is asked for. */
export async function resolveDriver(selection: DeviceSelection): Promise<DeviceDriver> {
  const {device, source} = selectedDevice(selection)
  if (device === 'demo') return openSnapshot(DEMO_DIR, 'demo')
  if (device !== undefined && isSnapshotPath(device)) return openSnapshot(device)
  const {connectAdbDriver} = await import('./adb/connect.js')
  try {
    return await connectAdbDriver({...adbOptions(selection), serial: device})
  } catch (error) {
    throw namesSource(namesBoth(error, device), device, source)
  }
}

const SERIAL_SETTER = Symbol.for('arc.serial-setter')
type SerialSetter = {serial: string; where: string; action: string}
type SerialSetterHolder = {[SERIAL_SETTER]?: SerialSetter}

/**
 * Says (or unsays) that this process set $ANDROID_SERIAL to `serial` for the commands it runs (`arc test --device`
 * hands its device to its steps that way): a device that is not attached is then said to come from there, not from
 * the user's environment. Kept on globalThis: a plugin's copy of this module must hear it too.
 */
export function serialSetBy(setter: SerialSetter | undefined): void {
  ;(globalThis as SerialSetterHolder)[SERIAL_SETTER] = setter
}

/**
 * A serial that is not attached, when the command line did not name it: a stale $ANDROID_SERIAL in a CI job or a
 * shell, or the config's `device`, is otherwise invisible in `arc tap 1 1`'s error. Says where it came from.
 */
function namesSource(error: unknown, device: string | undefined, source: string): unknown {
  if (device === undefined || !isArcError(error) || error.code !== 'DEVICE_NOT_FOUND') return error
  const setter = (globalThis as SerialSetterHolder)[SERIAL_SETTER]
  const from =
    source === 'env ANDROID_SERIAL' && setter?.serial === device
      ? {where: setter.where, action: setter.action}
      : source === 'env ANDROID_SERIAL'
        ? {
            where: '$ANDROID_SERIAL',
            action: 'Unset ANDROID_SERIAL, or pass --device, to pick another device.',
          }
        : source === 'config'
          ? {
              where: '`device` in the config',
              action: 'Run `arc config` to see which file sets `device`; pass --device to pick another device.',
            }
          : undefined
  if (!from) return error
  return new DeviceNotFoundError(`${error.message} (the serial comes from ${from.where})`, {
    details: error.details,
    actions: [from.action, ...error.actions],
    cause: error,
  })
}

/**
 * A bare name that is not a device but is a file or folder here could have meant the snapshot: say so, with the
 * spelling that picks it, instead of leaving the user to guess why the folder was not used.
 */
function namesBoth(error: unknown, device: string | undefined): unknown {
  if (device === undefined || !(error instanceof ArcError) || !existsSync(device)) return error
  if (!(error instanceof DeviceNotFoundError || error instanceof DeviceUnavailableError)) return error
  const spelled = `.${path.sep}${device}`
  const Kind = error instanceof DeviceNotFoundError ? DeviceNotFoundError : DeviceUnavailableError
  return new Kind(
    `${error.message}; "${device}" is read as an adb serial, though a file or folder of that name is here`,
    {
      details: {...error.details, device, local_path: path.resolve(device)},
      actions: [`For the recorded snapshot, pass it as a path: --device ${spelled}`, ...error.actions],
      cause: error,
    }
  )
}
