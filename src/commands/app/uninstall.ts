import {toolCommand} from '@arc-cli/core'

import {uninstallApp} from '../../tools/app-manage.js'

export default toolCommand(uninstallApp)
