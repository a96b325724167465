import {toolCommand} from '@arc-cli/core'

import {getClipboard} from '../../tools/clipboard.js'

export default toolCommand(getClipboard)
