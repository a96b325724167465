import {toolCommand} from '@arc-cli/core'

import {typeInsertText} from '../../tools/type-text.js'

export default toolCommand(typeInsertText)
