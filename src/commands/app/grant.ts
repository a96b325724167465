import {toolCommand} from '@arc-cli/core'

import {grantPermission} from '../../tools/app-manage.js'

export default toolCommand(grantPermission)
