import {toolCommand} from '@arc-cli/core'

import {doctor} from '../tools/doctor.js'

export default toolCommand(doctor)
