import {toolCommand} from '@arc-cli/core'

import {typeAppendText} from '../../tools/type-text.js'

export default toolCommand(typeAppendText)
