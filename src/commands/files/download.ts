import {toolCommand} from '@arc-cli/core'

import {downloadFromUrl} from '../../tools/files/download-from-url.js'

export default toolCommand(downloadFromUrl)
