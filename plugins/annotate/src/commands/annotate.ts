import {toolCommand} from '@arc-cli/core'

import {bundled} from '../load-bundled.js'
import type {annotate} from '../tools/annotate.js'

// From the plugin's bundle in a build (load-bundled.ts): a one-shot `arc annotate` compiles it from its code cache.
// Without one (the sources, or a bundle that does not load), from the tool's module.
const tool = (bundled()?.annotate as typeof annotate | undefined) ?? (await import('../tools/annotate.js')).annotate

export default toolCommand(tool)
