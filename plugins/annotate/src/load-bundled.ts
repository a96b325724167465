import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {loadBundle} from '@arc-cli/core/loader'

/**
 * `arc annotate`'s code (the tool with its options and styles, and the image code: annotate-device.ts and what it
 * imports, the canvas, placement, drawing, encoding), built by scripts/bundle-plugins.js from annotate-bundle.ts
 * into one CommonJS file with V8's code cache beside it. A one-shot `arc annotate` runs this code once, cold: Node 20
 * would find, read and compile its 30-odd ES modules one by one (there is no compile cache for them), while the
 * bundle compiles from the cache as the core does (@arc-cli/core/loader). The same modules, and the same answers.
 */
export const ANNOTATE_BUNDLE = fileURLToPath(new URL('./bundle/annotate.cjs', import.meta.url))

type AnnotateDeviceModule = typeof import('./annotate-device.js')

let broken = false
let loadError: unknown

/** Why the bundle did not load, where it did not (the build reports it: a bundle that fails gets no code cache). */
export function bundleLoadError(): unknown {
  return loadError
}

/**
 * The bundle's exports, or undefined when running from the sources (bin/dev.js, the tests), without a bundle, or
 * with one that does not load (cut short by a build writing it meanwhile, damaged on disk): the ES modules it was
 * built from are installed beside it and give the same answers, so the command runs from them instead of failing
 * with a bare SyntaxError and no --json. `DEBUG=arc` says why.
 */
export function bundled(): Record<string, unknown> | undefined {
  if (broken || import.meta.url.endsWith('.ts') || !existsSync(ANNOTATE_BUNDLE)) return undefined
  try {
    return loadBundle(ANNOTATE_BUNDLE)
  } catch (error) {
    broken = true
    loadError = error
    if (/(^|,)\s*arc/.test(process.env.DEBUG ?? ''))
      process.stderr.write(`arc: bundle ${ANNOTATE_BUNDLE} did not load, using its modules: ${String(error)}\n`)
    return undefined
  }
}

/** annotate-device's exports: what the tool's handler loads once it runs (the canvas library with it). */
export async function loadAnnotateDevice(): Promise<AnnotateDeviceModule> {
  const bundle = bundled() as {loadAnnotateDevice(): Promise<AnnotateDeviceModule>} | undefined
  return bundle ? bundle.loadAnnotateDevice() : import('./annotate-device.js')
}
