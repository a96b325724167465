import {toolCommand} from '@arc-cli/core'

import {findElements} from '../tools/find-elements.js'

export default toolCommand(findElements)
