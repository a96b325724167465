import {toolCommand} from '@arc-cli/core'

import {listApps} from '../../tools/apps.js'

export default toolCommand(listApps)
