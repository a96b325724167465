import {toolCommand} from '@arc-cli/core'

import {pullFile} from '../../tools/files/transfer.js'

export default toolCommand(pullFile)
