import {realpathSync, rmSync} from 'node:fs'

import {
  cliErrorText,
  errorJson,
  exitCodeFor,
  Flags,
  InvalidInputError,
  MAX_DURATION_MS,
  OutputError,
  parseDuration,
  residentCliHost,
  toArcError,
  UnsupportedError,
} from '@arc-cli/core'

import {ScriptCommand, exitStatus} from '../script-command.js'
import {ask} from '../server/ask.js'
import {Host} from '../server/host.js'
import {serverSocketPath, socketExists, type ServerStatus} from '../server/protocol.js'

/**
 * Commands a server never runs; the client runs them itself: those that read stdin (the client's is not sent:
 * `batch`, `mcp serve`, and `test`, whose flow files oclif reads from a pipe when none is named), `emulate`, help,
 * and the server's own commands. A command that touches stdin in the server anyway fails loudly (host.ts).
 */
const NOT_HERE = new Set(['server', 'server:status', 'server:stop', 'batch', 'test', 'mcp:serve', 'emulate', 'help'])

/** Words that make oclif print help or the version instead of running the command: left to the client's oclif. */
const OCLIF_OWN = new Set(['--help', '-h', '--version', '-v'])

/**
 * `arc server`: keeps arc loaded, so the commands of this installation that follow start in milliseconds, not in
 * the 150-250 ms that loading Node.js modules costs each arc process (docs/server.md).
 */
export default class Server extends ScriptCommand {
  static override enableJsonFlag = false
  static override summary = 'Keep arc loaded: later arc commands run in this process, starting at once'
  static override description = [
    'Serves the arc commands of this installation that run while it does: each `arc …` finds the server (a Unix socket in a folder of your own under $TMPDIR) and runs there, with its own arguments, environment, working folder and terminal, printing the same output and exiting with the same status; it starts in a few milliseconds instead of loading arc anew. Device connections and the on-device helper stay open between commands, as in `arc batch`.',
    'One command at a time: a command started while another runs here runs in its own process, as it would with no server. `batch`, `mcp serve`, `emulate` and help always run in their own process. ARC_SERVER=off makes a command run in its own process.',
    'Runs until Ctrl-C, SIGTERM, `arc server stop`, --idle without a command, or a rebuild or upgrade of arc (its files changed).',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> server --idle 10m &',
    '<%= config.bin %> server status',
    '<%= config.bin %> server stop',
  ]
  static override flags = {
    idle: Flags.string({
      summary: 'Stop after this long without a command (0: never).',
      default: '15m',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Server)
    const idleMs = parseDuration(flags.idle)
    if (idleMs === undefined || idleMs > MAX_DURATION_MS) {
      throw new InvalidInputError(
        `--idle must be a duration from 0 to 24h: milliseconds (1500), or a number with ms, s, m or h (got ${JSON.stringify(flags.idle)})`,
        {details: {input: 'idle', value: flags.idle}, actions: ['e.g. --idle 10m, or --idle 0 to run until stopped']}
      )
    }
    const root = realpathSync(this.config.root)
    const socket = serverSocketPath(root)
    if (socket === undefined) {
      throw new UnsupportedError('arc server needs Unix sockets, which this platform (Windows) does not give arc', {
        actions: ['Run arc commands as they are, or many of them at once with `arc batch`.'],
      })
    }
    if (socketExists(socket)) {
      const running = (await ask(socket, root, 'status')) as ServerStatus | undefined
      if (running) {
        this.log(`arc server: already running (pid ${running.pid}) on ${socket}`)
        return
      }
      // A socket nobody listens on: a server killed before its clean-up. Taken over.
      rmSync(socket, {force: true})
    }
    const ownStderr = process.stderr.write.bind(process.stderr)
    const host = new Host({
      root,
      socket,
      idleMs,
      log: (line) => ownStderr(`${line}\n`),
      accepts: (argv) => this.accepts(argv),
      run: (argv) => this.runHere(argv),
    })
    try {
      await host.listen()
    } catch (error) {
      throw new OutputError(`arc server cannot listen on ${socket}: ${(error as Error).message}`, {
        details: {path: socket},
        cause: error,
      })
    }
    const stop = (signal: string) => host.shutdown(`${signal}`)
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
    this.log(`arc server: listening on ${socket} (pid ${process.pid})`)
    this.log(
      `arc commands of this installation now run here${idleMs > 0 ? `; it stops after ${flags.idle} without one` : ''}. Stop: ${this.config.bin} server stop, or Ctrl-C.`
    )
    const why = await host.closed()
    this.log(`arc server: stopped (${why})`)
    // Device connections and helper sessions of the commands it ran would keep the process alive: they end with it.
    process.exit(0)
  }

  /** Whether a client's command line runs here: not help, the version or a command that must run on its own. */
  private accepts(argv: string[]): boolean {
    const end = argv.indexOf('--')
    const options = end === -1 ? argv : argv.slice(0, end)
    if (options.some((word) => OCLIF_OWN.has(word))) return false
    const id = this.findCommandId(argv)
    return id !== undefined && !NOT_HERE.has(id)
  }

  /** One client's command line, which `accepts` took, in this process: its exit status. */
  private async runHere(argv: string[]): Promise<number> {
    const id = this.findCommandId(argv) as string
    const end = argv.indexOf('--')
    const options = end === -1 ? argv : argv.slice(0, end)
    // Each command is a resident host's span of its own: touches go through the on-device helper, started once for
    // all the commands this server runs, and the config is read afresh for each command, as a one-shot arc reads it.
    residentCliHost(true)
    try {
      await this.runLine(id, argv.slice(id.split(':').length))
      return 0
    } catch (error) {
      const status = exitStatus(error)
      if (status !== undefined) return status
      // Failed outside the command's own error handling (its module did not load): said as the command would.
      const arcError = toArcError(error)
      if (options.includes('--json')) process.stdout.write(`${JSON.stringify(errorJson(arcError), null, 2)}\n`)
      else process.stderr.write(`${cliErrorText(arcError, process.stderr)}\n`)
      return exitCodeFor(arcError.code)
    } finally {
      residentCliHost(false)
    }
  }
}
