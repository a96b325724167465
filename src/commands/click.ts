import {toolCommand} from '@arc-cli/core'

import {clickElement} from '../tools/click-element.js'

export default toolCommand(clickElement)
