import {toolCommand} from '@arc-cli/core'

import {assertScreenshot} from '../../tools/assert-screenshot.js'

export default toolCommand(assertScreenshot)
