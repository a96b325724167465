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
  forgetScreenGeometry,
  residentCliHost,
  serveDespiteOutputErrors,
  ServerRunningError,
  toArcError,
  UnsupportedError,
} from '@arc-cli/core'

import {ScriptCommand, exitStatus} from '../script-command.js'
import {serverAt} from '../server/ask.js'
import {Host} from '../server/host.js'
import {takeServerLock} from '../server/lock.js'
import {
  asksOclifText,
  MAX_SOCKET_PATH_BYTES,
  optionWords,
  serverSocketPath,
  socketPathFits,
} from '../server/protocol.js'

/**
 * Commands a server never runs; the client runs them itself: those that read stdin (the client's is not sent:
 * `batch`, `mcp serve`, and `test`, whose flow files oclif reads from a pipe when none is named), those that run
 * until stopped, help, and the server's own commands. A command that reads stdin in the server anyway fails loudly
 * (host.ts).
 */
export const NOT_HERE: ReadonlySet<string> = new Set([
  'server',
  'server:status',
  'server:stop',
  'batch',
  'test',
  'mcp:serve',
  'emulate',
  'help',
  // Run until stopped, and wind up on Ctrl-C keeping what they made: a client killed meanwhile must leave nothing, as a
  // one-shot arc killed does, and a recording must not hold the server for minutes.
  'screenrecord',
  'logs',
])

/**
 * `arc server`: keeps arc loaded, so the commands of this installation that follow start in milliseconds, not in
 * the 150-250 ms that loading Node.js modules costs each arc process (docs/server.md).
 */
export default class Server extends ScriptCommand {
  static override enableJsonFlag = false
  static override summary = 'Keep arc loaded: later arc commands run in this process, starting at once'
  static override description = [
    'Serves the arc commands of this installation that run while it does: each `arc …` finds the server (a Unix socket in a folder of your own under $TMPDIR) and runs there, with its own arguments, environment, working folder and terminal, printing the same output and exiting with the same status; it starts in a few milliseconds instead of loading arc anew. Device connections and the on-device helper stay open between commands, as in `arc batch`.',
    'One command at a time: a command started while another runs here runs in its own process, as it would with no server. `batch`, `test`, `mcp serve`, `emulate`, `logs`, `screenrecord` and help always run in their own process (they read stdin or run until stopped). ARC_SERVER=off makes a command run in its own process.',
    'Runs until Ctrl-C, SIGTERM, SIGHUP, `arc server stop`, --idle without a command, or a rebuild or upgrade of arc (its files changed).',
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
    if (!socketPathFits(socket)) {
      throw new OutputError(
        `arc server cannot listen on ${socket}: the path is ${Buffer.byteLength(socket)} bytes, over the ${MAX_SOCKET_PATH_BYTES} a Unix socket's address holds`,
        {
          details: {path: socket},
          actions: ['Set TMPDIR to a shorter folder for the server and the commands it serves.'],
        }
      )
    }
    // One server per installation, however many start at once (lock.ts): only the lock's holder looks at the
    // socket, removes a dead server's and listens; every other start is told who serves.
    const lock = await takeServerLock(socket)
    if ('heldBy' in lock) {
      const {answer} = await serverAt(root)
      // One that serves already: what this start was for is so (a script's `arc server` run twice succeeds twice).
      if (typeof answer === 'object') return this.alreadyRunning(answer.pid, socket)
      throw serverRunning(socket, answer, lock.heldBy)
    }
    let host: Host
    try {
      // A server that answers though this start holds the lock: one of an arc from before the lock (an upgrade).
      const {answer} = await serverAt(root)
      if (typeof answer === 'object') {
        lock.release()
        return this.alreadyRunning(answer.pid, socket)
      }
      if (answer !== undefined) throw serverRunning(socket, answer, undefined)
      // Its log's reader gone (`arc server 2>&1 | head -3`), it goes on serving, the client's command with it.
      serveDespiteOutputErrors()
      // A socket nobody listens on, if one is there: a server killed before its clean-up. Taken over.
      rmSync(socket, {force: true})
      const ownStderr = process.stderr.write.bind(process.stderr)
      host = new Host({
        root,
        socket,
        idleMs,
        log: (line) => ownStderr(`${line}\n`),
        accept: (argv) => this.accept(argv),
        run: (id, argv) => this.runHere(id, argv),
        // Its socket gone, the next start may serve at once, while this one finishes its last command.
        stopped: () => lock.release(),
      })
      try {
        await host.listen()
      } catch (error) {
        throw new OutputError(`arc server cannot listen on ${socket}: ${(error as Error).message}`, {
          details: {path: socket},
          cause: error,
        })
      }
    } catch (error) {
      lock.release()
      throw error
    }
    const stop = (signal: string) => host.shutdown(`${signal}`)
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
    // The terminal or SSH session it was started from went away: as SIGTERM, the command running ends first.
    process.once('SIGHUP', () => stop('SIGHUP'))
    this.log(`arc server: listening on ${socket} (pid ${process.pid})`)
    this.log(
      `arc commands of this installation now run here${idleMs > 0 ? `; it stops after ${flags.idle} without one` : ''}. Stop: ${this.config.bin} server stop, or Ctrl-C.`
    )
    // The server's own folder is one that cannot go away, whatever the folder it was started in becomes.
    process.chdir('/')
    const why = await host.closed()
    await host.drained()
    this.log(`arc server: stopped (${why})`)
    // Device connections and helper sessions of the commands it ran would keep the process alive: they end with it.
    process.exit(0)
  }

  /**
   * The command id of a client's command line that runs here, or undefined: help, the version, a command that must
   * run on its own.
   */
  /** Another server of this installation answers: said on stdout, exit 0 (what a start asks for holds already). */
  private alreadyRunning(pid: number, socket: string): void {
    this.log(`arc server: already running (pid ${pid}) on ${socket}`)
  }

  private accept(argv: string[]): string | undefined {
    if (asksOclifText(argv)) return undefined
    const id = this.findCommandId(argv)
    if (id === undefined || NOT_HERE.has(id)) return undefined
    // A word after a command that takes none: oclif alone reads it as part of the command's name and says what it
    // says of an unknown command (command-suggestions.ts); the client's own arc says exactly that.
    const command = this.config.findCommand(id)
    const next = argv[id.split(':').length]
    const takesNone = Object.keys(command?.args ?? {}).length === 0 && command?.strict !== false
    return takesNone && next !== undefined && !next.startsWith('-') ? undefined : id
  }

  /** Command `id` of one client's command line, which `accept` took, in this process: its exit status. */
  private async runHere(id: string, argv: string[]): Promise<number> {
    // Each command is a resident host's span of its own: touches go through the on-device helper, started once for
    // all the commands this server runs, and the config is read afresh for each command, as a one-shot arc reads it.
    // The screen's size is read afresh too: between two commands here, other arc processes (or anything else) may
    // have turned or resized the screen, which no memory of this process would hear of.
    forgetScreenGeometry()
    residentCliHost(true)
    try {
      await this.runLine(id, argv.slice(id.split(':').length))
      return 0
    } catch (error) {
      const status = exitStatus(error)
      if (status !== undefined) return status
      // Failed outside the command's own error handling (its module did not load): said as the command would.
      const arcError = toArcError(error)
      if (optionWords(argv).includes('--json'))
        process.stdout.write(`${JSON.stringify(errorJson(arcError), null, 2)}\n`)
      else process.stderr.write(`${cliErrorText(arcError, process.stderr)}\n`)
      return exitCodeFor(arcError.code)
    } finally {
      residentCliHost(false)
    }
  }
}

/**
 * Another server of this installation serves (or is starting, or is stopped): what `answer`, its reply to `status`,
 * says of it, and the pid its lock gave.
 */
/** A start that cannot serve, nor say a server serves: one holds the lock or the socket but does not answer (yet). */
function serverRunning(socket: string, answer: 'silent' | undefined, heldBy: number | undefined) {
  const pid = heldBy
  const who = pid === undefined ? '' : ` (pid ${pid})`
  const details = {path: socket, ...(pid === undefined ? {} : {pid})}
  if (answer === 'silent')
    return new ServerRunningError(
      `another arc server of this installation holds ${socket}${who} and does not answer (stopped with Ctrl-Z or SIGSTOP?)`,
      {details, actions: ['Resume it (fg, or kill -CONT PID), or end it (kill PID).']}
    )
  return new ServerRunningError(
    `another arc server of this installation is starting${who} on ${socket}, or stopping: arc commands run there once it listens`,
    {details, actions: ['`arc server status` says whether it runs.']}
  )
}
