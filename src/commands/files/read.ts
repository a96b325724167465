import {toolCommand} from '@arc-cli/core'

import {readFile} from '../../tools/files/read-file.js'

export default toolCommand(readFile)
