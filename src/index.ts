import {toolCommands} from '@arc-cli/core'
import type {Command} from '@oclif/core'

import Batch from './commands/batch.js'
import Config from './commands/config.js'
import Emulate from './commands/emulate.js'
import {tools} from './tools/index.js'

export {tools} from './tools/index.js'

/** Every command of arc's oclif core: one per device tool, plus the hand-written ones. */
export const commands: Record<string, Command.Class> = {
  ...toolCommands(tools),
  batch: Batch,
  config: Config,
  emulate: Emulate,
}
