import {toolCommand} from '@arc-cli/core'

import {waitForIdle} from '../../tools/wait-idle.js'

export default toolCommand(waitForIdle)
