import {toolCommand} from '@arc-cli/core'

import {unlock} from '../../tools/device.js'

export default toolCommand(unlock)
