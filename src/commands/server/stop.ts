import {ArcCommand, isProcessAlive, sleep, TimeoutError} from '@arc-cli/core'

import {ask, serverAt} from '../../server/ask.js'
import type {ServerStatus} from '../../server/protocol.js'

/** How long `stop` waits for the server's process to end (a command running there ends first). */
const STOP_WAIT_MS = 30_000

export default class ServerStop extends ArcCommand {
  static override summary = "Stop this installation's arc server"
  static override description =
    'A command running in the server ends first; new commands run in their own process from the moment the server is asked to stop. Exits 0 when no server runs too.'
  static override examples = ['<%= config.bin %> server stop']

  async run(): Promise<unknown> {
    await this.parse(ServerStop)
    const {root, socket, answer} = await serverAt(this.config.root)
    if (answer === 'silent') {
      throw new TimeoutError(`the arc server on ${socket} does not answer (stopped with Ctrl-Z or SIGSTOP?)`, {
        actions: ['Resume it (fg, or kill -CONT PID) and stop it again, or end it (kill PID).'],
      })
    }
    const status = answer as ServerStatus | undefined
    if (!socket || !status) {
      this.log('arc server: not running')
      return {stopped: false}
    }
    await ask(socket, root, 'stop')
    const until = Date.now() + STOP_WAIT_MS
    while (isProcessAlive(status.pid) && Date.now() < until) await sleep(20)
    const gone = !isProcessAlive(status.pid)
    this.log(
      gone
        ? `arc server: stopped (pid ${status.pid})`
        : `arc server: asked to stop (pid ${status.pid}); a command still runs there and it stops at its end`
    )
    return {stopped: true, pid: status.pid, exited: gone}
  }
}
