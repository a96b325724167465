import {toolCommand} from '@arc-cli/core'

import {pushFile} from '../../tools/files/transfer.js'

export default toolCommand(pushFile)
