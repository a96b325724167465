import {existsSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {loadBundle} from '@arc-cli/core/loader'

/**
 * The image half of `arc annotate` (annotate-device.ts and what it imports: the canvas, placement, drawing,
 * encoding), built by scripts/bundle-plugins.js into one CommonJS file with V8's code cache beside it. A one-shot
 * `arc annotate` runs this code once, cold: Node 20 would find, read and compile its 19 ES modules one by one
 * (there is no compile cache for them), while the bundle compiles from the cache as the core does
 * (@arc-cli/core/loader). The same modules as `import('./annotate-device.js')`, and the same answers.
 */
export const ANNOTATE_DEVICE_BUNDLE = fileURLToPath(new URL('./bundle/annotate-device.cjs', import.meta.url))

type AnnotateDeviceModule = typeof import('./annotate-device.js')

/**
 * annotate-device's exports: from the bundle in a build, from the modules themselves when running from the sources
 * (bin/dev.js, the tests) or when there is no bundle.
 */
export async function loadAnnotateDevice(): Promise<AnnotateDeviceModule> {
  if (import.meta.url.endsWith('.ts') || !existsSync(ANNOTATE_DEVICE_BUNDLE)) return import('./annotate-device.js')
  return loadBundle(ANNOTATE_DEVICE_BUNDLE) as unknown as AnnotateDeviceModule
}
