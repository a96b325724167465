import {toolCommand} from '@arc-cli/core'

import {writeFile} from '../../tools/files/write-file.js'

export default toolCommand(writeFile)
