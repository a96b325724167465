import {toolCommand} from '@arc-cli/core'

import {hideKeyboard} from '../../tools/keyboard.js'

export default toolCommand(hideKeyboard)
