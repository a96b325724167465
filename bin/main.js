// arc, started by bin/run.js once it has checked the Node.js version.
// Where this installation's `arc server` runs, the command runs there and this process only relays its output
// (src/server/: protocol.ts decides with one stat, client.ts, loaded only then, relays); anywhere else arc runs it
// here: oclif from the core's bundle, the copy every arc command extends (packages/core/src/oclif.ts).
import {realpathSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

import {asksOclifText, serverFor} from '../dist/server/protocol.js'

const root = realpathSync(fileURLToPath(new URL('..', import.meta.url)))
const argv = process.argv.slice(2)
const socket = serverFor(root, argv)
const served = socket !== undefined && (await (await import('../dist/server/client.js')).handOff(socket, root, argv))
if (!served) {
  // A stdout or stderr that fails (a full disk, a reader gone) reports it as an 'error' event after the write that
  // met it, often a console write that swallowed the throw: unhandled, Node printed a line of the minified bundle and
  // exited 1. Said as arc says any error instead (OUTPUT_FAILED, exit 13), on stderr while it still works, and the
  // process ends there as one killed by SIGPIPE would: what it acted on was done, what it prints cannot arrive.
  // Said once: a command's own write path may say the same error object (core's errors/output-failure.ts).
  const said = (globalThis[Symbol.for('arc.output-errors-said')] ??= new WeakSet())
  // Help and the version are oclif's own text, read through `| head` or a pager as often as whole: a reader that
  // stops early ends them quietly, as it ends git's or grep's.
  const ownText = asksOclifText(argv)
  const outputFailed = (error) => {
    if (typeof error !== 'object' || error === null || said.has(error)) return
    said.add(error)
    if (ownText && error.code === 'EPIPE') process.exit(0)
    void import('@arc-cli/core')
      .then((core) => {
        const arcError = core.toArcError(error)
        if (!process.stderr.destroyed) process.stderr.write(`${core.cliErrorText(arcError, process.stderr)}\n`)
        return core.exitCodeFor(arcError.code)
      })
      .catch(() => 1)
      .then((status) => process.exit(status))
  }
  const {execute} = await import('@arc-cli/core/oclif')
  // oclif's Command module, loaded just now, listens on stdout too and throws every error but EPIPE (which it drops,
  // so a reader gone went unsaid): an uncaught exception before this could say anything. Only this listener stays.
  for (const stream of [process.stdout, process.stderr]) {
    stream.removeAllListeners('error')
    stream.on('error', outputFailed)
  }
  await execute({dir: import.meta.url})
}
