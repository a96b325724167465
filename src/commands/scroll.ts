import {toolCommand} from '@arc-cli/core'

import {scroll} from '../tools/scroll.js'

export default toolCommand(scroll)
