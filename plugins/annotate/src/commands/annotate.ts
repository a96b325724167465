import {toolCommand} from '@arc-cli/core'

import {annotate} from '../tools/annotate.js'

export default toolCommand(annotate)
