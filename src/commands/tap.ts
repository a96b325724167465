import {toolCommand} from '@arc-cli/core'

import {tap} from '../tools/tap.js'

export default toolCommand(tap)
