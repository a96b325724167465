import {toolCommand} from '@arc-cli/core'

import {swipe} from '../tools/swipe.js'

export default toolCommand(swipe)
