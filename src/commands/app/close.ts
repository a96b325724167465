import {toolCommand} from '@arc-cli/core'

import {closeApp} from '../../tools/apps.js'

export default toolCommand(closeApp)
