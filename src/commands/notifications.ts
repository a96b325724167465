import {toolCommand} from '@arc-cli/core'

import {openNotifications} from '../tools/status-bar.js'

export default toolCommand(openNotifications)
