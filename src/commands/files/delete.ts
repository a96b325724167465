import {toolCommand} from '@arc-cli/core'

import {deleteFile} from '../../tools/files/delete-file.js'

export default toolCommand(deleteFile)
