#!/usr/bin/env node
// Where this installation's `arc server` runs and takes the command, it runs there and this process only relays its
// output (src/server/client.ts, Node.js built-ins only); anywhere else arc runs it here: oclif from the core's
// bundle, the copy every arc command extends (packages/core/src/oclif.ts).
import {realpathSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {handOff} from '../dist/server/client.js'

if (!(await handOff(realpathSync(fileURLToPath(new URL('..', import.meta.url))), process.argv.slice(2)))) {
  const {execute} = await import('@arc-cli/core/oclif')
  await execute({dir: import.meta.url})
}
