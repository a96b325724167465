import {toolCommand} from '@arc-cli/core'

import {assertScreen} from '../tools/assert.js'

export default toolCommand(assertScreen)
