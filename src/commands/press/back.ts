import {toolCommand} from '@arc-cli/core'

import {pressBack} from '../../tools/press-system-keys.js'

export default toolCommand(pressBack)
