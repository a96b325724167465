import {toolCommand} from '@arc-cli/core'

import {getElementDetails} from '../tools/element-details.js'

export default toolCommand(getElementDetails)
