import {toolCommand} from '@arc-cli/core'

import {scrollToElement} from '../tools/scroll-to-element.js'

export default toolCommand(scrollToElement)
