import {toolCommand} from '@arc-cli/core'

import {fileReplace} from '../../tools/files/file-replace.js'

export default toolCommand(fileReplace)
