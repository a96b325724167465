import {toolCommand} from '@arc-cli/core'

import {keyboardStatus} from '../../tools/keyboard.js'

export default toolCommand(keyboardStatus)
