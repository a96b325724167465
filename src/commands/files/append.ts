import {toolCommand} from '@arc-cli/core'

import {appendFile} from '../../tools/files/append-file.js'

export default toolCommand(appendFile)
