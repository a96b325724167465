import {toolCommand} from '@arc-cli/core'

import {listFiles} from '../../tools/files/list-files.js'

export default toolCommand(listFiles)
