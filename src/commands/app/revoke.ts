import {toolCommand} from '@arc-cli/core'

import {revokePermission} from '../../tools/app-manage.js'

export default toolCommand(revokePermission)
