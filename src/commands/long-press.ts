import {toolCommand} from '@arc-cli/core'

import {longPress} from '../tools/long-press.js'

export default toolCommand(longPress)
