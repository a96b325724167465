import {toolCommand} from '@arc-cli/core'

import {rotation} from '../../tools/device.js'

export default toolCommand(rotation)
