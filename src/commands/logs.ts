import {toolCommand} from '@arc-cli/core'

import {getDeviceLogs} from '../tools/get-device-logs.js'

export default toolCommand(getDeviceLogs)
