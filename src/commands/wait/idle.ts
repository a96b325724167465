import {toolCommand} from '@arc-cli/core'

import {waitForIdle} from '../../tools/wait.js'

export default toolCommand(waitForIdle)
