import {toolCommand} from '@arc-cli/core'

import {pressHome} from '../../tools/press-system-keys.js'

export default toolCommand(pressHome)
