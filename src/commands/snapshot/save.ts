import {toolCommand} from '@arc-cli/core'

import {saveSnapshot} from '../../tools/save-snapshot.js'

export default toolCommand(saveSnapshot)
