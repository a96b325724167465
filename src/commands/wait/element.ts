import {toolCommand} from '@arc-cli/core'

import {waitForElement} from '../../tools/wait.js'

export default toolCommand(waitForElement)
