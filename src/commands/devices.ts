import {toolCommand} from '@arc-cli/core'

import {listDevices} from '../tools/list-devices.js'

export default toolCommand(listDevices)
