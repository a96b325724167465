/**
 * arc's on-device helper as shipped: the dex built from packages/core/helper/src (build.sh) and what the build
 * recorded of it (arc-helper.json: its sha256, size, the hash of the sources it came from, its entry point). The
 * host side pushes this exact file, named by its hash, and starts it with app_process (docs/devices.md, "The
 * on-device helper").
 */
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {ConfigError} from '../errors/arc-error.js'

/** `auto`: the helper where it works, ADB where not; `off`: ADB only; `required`: the helper or an error. */
export type HelperMode = 'auto' | 'off' | 'required'
export const HELPER_MODES = ['auto', 'off', 'required'] as const satisfies readonly HelperMode[]

/**
 * The helper mode in force: `--helper`, else ARC_HELPER, else the config's `adb.helper`, else `auto`. An
 * ARC_HELPER that is not a mode is a ConfigError naming it (the flag and the config are checked where parsed).
 */
export function helperMode(
  flag: HelperMode | undefined,
  env: NodeJS.ProcessEnv,
  configured: HelperMode | undefined
): HelperMode {
  if (flag !== undefined) return flag
  const fromEnv = env.ARC_HELPER
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!(HELPER_MODES as readonly string[]).includes(fromEnv)) {
      throw new ConfigError(
        `ARC_HELPER=${JSON.stringify(fromEnv)} is not a helper mode; allowed: ${HELPER_MODES.join(', ')}`,
        {
          actions: ['Unset ARC_HELPER for the default (auto), or set it to auto, off or required.'],
        }
      )
    }
    return fromEnv as HelperMode
  }
  return configured ?? 'auto'
}

/** How long the helper keeps UiAutomation after a read unless told otherwise: not at all (docs/devices.md). */
export const DEFAULT_HELPER_HOLD_MS = 0
const MAX_HELPER_HOLD_MS = 600000

/**
 * How long the helper keeps UiAutomation after a request that needed it: ARC_HELPER_HOLD_MS, else the config's
 * `adb.helperHoldMs`, else 0 (it lets go at once: another tool's UiAutomation is never refused because of an arc
 * read that ended). An ARC_HELPER_HOLD_MS that is not a whole number from 0 to 600000 is a ConfigError naming it.
 */
export function helperHoldMs(env: NodeJS.ProcessEnv, configured: number | undefined): number {
  const fromEnv = env.ARC_HELPER_HOLD_MS
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!/^\d{1,6}$/.test(fromEnv) || Number(fromEnv) > MAX_HELPER_HOLD_MS) {
      throw new ConfigError(
        `ARC_HELPER_HOLD_MS=${JSON.stringify(fromEnv)} is not a hold time; allowed: a whole number of milliseconds from 0 to ${MAX_HELPER_HOLD_MS}`,
        {actions: ['Unset ARC_HELPER_HOLD_MS for the default (0: UiAutomation is let go after every read).']}
      )
    }
    return Number(fromEnv)
  }
  return configured ?? DEFAULT_HELPER_HOLD_MS
}

/** The dex file. Two folders up from here is the core package, both from src/driver and from dist/bundle. */
export const HELPER_DEX = fileURLToPath(new URL('../../helper/arc-helper.dex', import.meta.url))
const HELPER_JSON = fileURLToPath(new URL('../../helper/arc-helper.json', import.meta.url))

export interface HelperBuild {
  dex: string
  sha256: string
  bytes: number
  sourcesSha256: string
  /** The class app_process starts: `arc.helper.Main`. */
  mainClass: string
  minSdk: number
  javac: string
  dx: string
}

let build: HelperBuild | undefined

/** arc-helper.json, read once. */
export function helperBuild(): HelperBuild {
  build ??= JSON.parse(readFileSync(HELPER_JSON, 'utf8')) as HelperBuild
  return build
}

/** Where arc puts the helper on a device: named by the build's hash, so a device holding it needs no push. */
export function helperDevicePath(sha256 = helperBuild().sha256): string {
  return `/data/local/tmp/arc-helper-${sha256.slice(0, 16)}.dex`
}
