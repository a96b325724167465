import {toolCommand} from '@arc-cli/core'

import {typeReplaceText} from '../../tools/type-text.js'

export default toolCommand(typeReplaceText)
