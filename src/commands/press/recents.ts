import {toolCommand} from '@arc-cli/core'

import {pressRecents} from '../../tools/press-system-keys.js'

export default toolCommand(pressRecents)
