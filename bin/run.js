#!/usr/bin/env node
// Where this installation's `arc server` runs, the command runs there and this process only relays its output
// (src/server/: protocol.ts decides with one stat, client.ts, loaded only then, relays); anywhere else arc runs it
// here: oclif from the core's bundle, the copy every arc command extends (packages/core/src/oclif.ts).
import {realpathSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {serverFor} from '../dist/server/protocol.js'

const root = realpathSync(fileURLToPath(new URL('..', import.meta.url)))
const argv = process.argv.slice(2)
const socket = serverFor(root, argv)
const served = socket !== undefined && (await (await import('../dist/server/client.js')).handOff(socket, root, argv))
if (!served) {
  const {execute} = await import('@arc-cli/core/oclif')
  await execute({dir: import.meta.url})
}
