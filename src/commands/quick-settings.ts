import {toolCommand} from '@arc-cli/core'

import {openQuickSettings} from '../tools/status-bar.js'

export default toolCommand(openQuickSettings)
