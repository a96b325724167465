import {toolCommand} from '@arc-cli/core'

import {waitForElementGone} from '../../tools/wait.js'

export default toolCommand(waitForElementGone)
