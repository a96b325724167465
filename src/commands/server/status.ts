import {ArcCommand} from '@arc-cli/core'

import {serverAt} from '../../server/ask.js'
import type {ServerStatus} from '../../server/protocol.js'

export default class ServerStatusCommand extends ArcCommand {
  static override summary = "Say whether this installation's arc server runs, and what it has done"
  static override description =
    'Exits 0 either way; with --json, `running` says which, `answering` whether a running server answered (false for one stopped with Ctrl-Z), and an answering server adds its pid, socket, start time, the commands it ran, whether one runs now (`busy`) and its idle limit in ms (`started_at`, `idle_ms`).'
  static override examples = ['<%= config.bin %> server status', '<%= config.bin %> server status --json']

  async run(): Promise<unknown> {
    await this.parse(ServerStatusCommand)
    const {socket, answer} = await serverAt(this.config.root)
    if (answer === 'silent') {
      this.log(`arc server: a server holds ${socket} but does not answer (stopped with Ctrl-Z or SIGSTOP?)`)
      return {running: true, answering: false, socket}
    }
    const status = answer as ServerStatus | undefined
    if (!status) {
      this.log(`arc server: not running${socket ? ` (no server answers on ${socket})` : ''}`)
      return {running: false, ...(socket ? {socket} : {})}
    }
    const idle = status.idleMs > 0 ? `stops after ${status.idleMs / 1000} s without a command` : 'runs until stopped'
    this.log(
      `arc server: running (pid ${status.pid}) on ${status.socket} since ${status.startedAt}: ${status.commands} command(s) run, ${status.busy ? 'one running now' : 'none running now'}; ${idle}`
    )
    // The command line's JSON is snake_case (docs/json.md); the server's own answer keeps its wire names.
    const {startedAt, idleMs, ...rest} = status
    return {running: true, answering: true, ...rest, started_at: startedAt, idle_ms: idleMs}
  }
}
