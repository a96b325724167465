import {toolCommand} from '@arc-cli/core'

import {openApp} from '../../tools/apps.js'

export default toolCommand(openApp)
