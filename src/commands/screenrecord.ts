import {toolCommand} from '@arc-cli/core'

import {screenrecord} from '../tools/screenrecord.js'

export default toolCommand(screenrecord)
