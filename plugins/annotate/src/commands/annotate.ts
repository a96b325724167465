import {toolCommand} from '@arc-cli/core'

import {loadAnnotateTool} from '../load-bundled.js'

// From the plugin's bundle in a build (load-bundled.ts): a one-shot `arc annotate` compiles it from its code cache.
export default toolCommand(await loadAnnotateTool())
