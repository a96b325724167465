import {toolCommand} from '@arc-cli/core'

import {shell} from '../tools/shell.js'

export default toolCommand(shell)
