import {toolCommand} from '@arc-cli/core'

import {longClickElement} from '../tools/click-element.js'

export default toolCommand(longClickElement)
