import {UnsupportedError} from './errors/arc-error.js'

/** How a native addon's loader says its prebuilt binary is not there (napi-rs, node-gyp-build, a missing package). */
const MISSING_BINARY =
  /Cannot find native binding|Failed to load native binding|Cannot find module '@napi-rs\/|ERR_DLOPEN_FAILED|No native build was found/

/**
 * Imports a module that loads a native addon (the canvas library behind annotated screenshots) and turns "the
 * binary for this platform is not installed" into an UNSUPPORTED error that says which platform and how to get
 * it, instead of the addon's stack trace. Any other failure passes through unchanged.
 */
export async function importNativeModule<T>(load: () => Promise<T>, feature: string, pkg: string): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const text = error instanceof Error ? `${error.message} ${(error as {code?: string}).code ?? ''}` : String(error)
    if (!MISSING_BINARY.test(text)) throw error
    throw new UnsupportedError(
      `${feature} needs the prebuilt ${pkg} binary for ${process.platform}-${process.arch}, and it is not installed`,
      {
        details: {platform: process.platform, arch: process.arch, package: pkg},
        actions: [
          `Reinstall on this machine: npm install (arc's package-lock.json lists ${pkg}'s binary for every platform it ships).`,
          "An install copied from another OS or CPU lacks this platform's binary; install where arc runs.",
        ],
        cause: error,
      }
    )
  }
}
