import {toolCommand} from '@arc-cli/core'

import {customGesture} from '../tools/custom-gesture.js'

export default toolCommand(customGesture)
