import {toolCommand} from '@arc-cli/core'

import {openUrl} from '../../tools/app-manage.js'

export default toolCommand(openUrl)
