import {toolCommand} from '@arc-cli/core'

import {installApp} from '../../tools/app-manage.js'

export default toolCommand(installApp)
