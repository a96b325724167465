import {toolCommand} from '@arc-cli/core'

import {pressKey} from '../../tools/press-key.js'

export default toolCommand(pressKey)
