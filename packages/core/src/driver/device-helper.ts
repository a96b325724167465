/**
 * arc's on-device helper as shipped: the dex built from packages/core/helper/src (build.sh) and what the build
 * recorded of it (arc-helper.json: its sha256, size, the hash of the sources it came from, its entry point). The
 * host side pushes this exact file, named by its hash, and starts it with app_process (docs/devices.md, "The
 * on-device helper").
 */
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

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
