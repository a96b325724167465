import {toolCommand} from '@arc-cli/core'

import {deviceInfo} from '../../tools/device.js'

export default toolCommand(deviceInfo)
