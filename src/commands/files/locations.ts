import {toolCommand} from '@arc-cli/core'

import {listStorageLocations} from '../../tools/files/list-storage-locations.js'

export default toolCommand(listStorageLocations)
