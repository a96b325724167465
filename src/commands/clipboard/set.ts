import {toolCommand} from '@arc-cli/core'

import {setClipboard} from '../../tools/clipboard.js'

export default toolCommand(setClipboard)
