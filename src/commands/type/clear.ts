import {toolCommand} from '@arc-cli/core'

import {typeClearText} from '../../tools/type-text.js'

export default toolCommand(typeClearText)
