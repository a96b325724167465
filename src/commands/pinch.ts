import {toolCommand} from '@arc-cli/core'

import {pinch} from '../tools/pinch.js'

export default toolCommand(pinch)
