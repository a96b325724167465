import {toolCommand} from '@arc-cli/core'

import {wake} from '../../tools/device.js'

export default toolCommand(wake)
