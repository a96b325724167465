// bin/dev.js runs this once it has checked the Node.js version.
import {fileURLToPath} from 'node:url'

import {execute} from '@oclif/core'

import {sourceLoadOptions} from './source-load-options.js'

// Development: the commands come from src/ through tsx, never from dist/ or its oclif.manifest.json.
process.env.NODE_ENV = 'development'
await execute({development: true, loadOptions: await sourceLoadOptions(fileURLToPath(new URL('..', import.meta.url)))})
