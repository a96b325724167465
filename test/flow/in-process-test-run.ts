/**
 * A process with an IPC channel of its own (as a test runner's worker has) that runs `arc test` in process, then
 * waits on its channel for the parent's word (in-process-run.test.ts beside it): `node --import tsx
 * in-process-test-run.ts FLOW DIR [ARGS…]` (runs in DIR, ARGS after the flow's). Says `ran` on the channel once the run returned; exits 7 on the parent's `bye`, or
 * prints `loop emptied` and exits 3 when nothing keeps it alive any more (its channel was unref'd).
 */
import {runCommand} from '@oclif/test'

import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

const [flow = '', dir = '.', ...more] = process.argv.slice(2)
process.chdir(dir)
await inDevelopment(async () => runCommand(['test', flow, '--device', 'demo', ...more], await sourceOptions()))
process.on('message', (message) => {
  if (message === 'bye') process.exit(7)
})
process.once('beforeExit', () => {
  process.stdout.write('loop emptied\n')
  process.exit(3)
})
process.send?.('ran')
