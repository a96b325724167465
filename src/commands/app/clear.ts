import {toolCommand} from '@arc-cli/core'

import {clearAppData} from '../../tools/app-manage.js'

export default toolCommand(clearAppData)
