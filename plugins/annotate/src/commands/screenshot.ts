import {toolCommand} from '@arc-cli/core'

import {screenshot} from '../tools/screenshot.js'

export default toolCommand(screenshot)
