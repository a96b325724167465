import {toolCommand} from '@arc-cli/core'

import {doubleTap} from '../tools/tap.js'

export default toolCommand(doubleTap)
