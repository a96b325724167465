/**
 * The client half of `arc server` (docs/server.md): bin/run.js asks `handOff` first, on every command. Where this
 * installation's server runs, the command runs there, already loaded and warm, and this process only relays its
 * output and exit status; anywhere else (no server, `ARC_SERVER=off`, a server that is busy, stale or refuses the
 * command) it answers false, having written nothing, and arc runs the command itself. Node.js built-ins only: this
 * is what every command loads before it knows whether it will load anything else.
 */
import {connect, type Socket} from 'node:net'
import path from 'node:path'
import type {WriteStream} from 'node:tty'

import {
  folderIsPrivate,
  frame,
  FrameReader,
  PROTOCOL,
  serverSocketPath,
  socketExists,
  type RunRequest,
  type StreamInfo,
} from './protocol.js'

/** The first words that always run here: help and version (oclif's own output), and the server's own commands. */
const NEVER_HANDED = new Set(['help', 'server', 'version', 'autocomplete'])

/**
 * Runs the command in this installation's server when one runs and takes it; true once it ran there (its exit
 * status is set on process.exitCode). False: nothing was written, run it here.
 */
export async function handOff(root: string, argv: string[]): Promise<boolean> {
  if (process.env.ARC_SERVER === 'off') return false
  const first = argv[0]
  if (first === undefined || first.startsWith('-') || NEVER_HANDED.has(first)) return false
  const socket = serverSocketPath(root)
  if (socket === undefined || !socketExists(socket) || !folderIsPrivate(path.dirname(socket))) return false
  const request: RunRequest = {
    protocol: PROTOCOL,
    kind: 'run',
    root,
    argv,
    cwd: process.cwd(),
    env: process.env as Record<string, string>,
    umask: process.umask(),
    stdout: streamInfo(process.stdout),
    stderr: streamInfo(process.stderr),
  }
  return new Promise<boolean>((resolve) => new Relay(socket, request, resolve).start())
}

function streamInfo(stream: NodeJS.WriteStream): StreamInfo {
  if (!stream.isTTY) return {tty: false}
  const tty = stream as unknown as WriteStream
  return {tty: true, columns: tty.columns, rows: tty.rows, colorDepth: tty.getColorDepth()}
}

/** One command's trip to the server and back. */
class Relay {
  private readonly reader = new FrameReader()
  private conn: Socket | undefined
  /** The server took the command (its first output or exit came): from here on, the answer is true. */
  private taken = false
  private settled = false
  private interrupts = 0

  constructor(
    private readonly socket: string,
    private readonly request: RunRequest,
    private readonly resolve: (ran: boolean) => void
  ) {}

  start(): void {
    const conn = connect(this.socket)
    this.conn = conn
    conn.on('connect', () => {
      conn.write(frame('R', JSON.stringify(this.request)))
      // From the request on, Ctrl-C is the command's, wherever it runs (see onSigint).
      process.on('SIGINT', this.onSigint)
    })
    conn.on('data', (chunk: Buffer) => {
      let frames
      try {
        frames = this.reader.push(chunk)
      } catch {
        conn.destroy()
        return
      }
      for (const {type, body} of frames) this.onFrame(type, body)
    })
    // A socket nobody listens on (a server killed without its clean-up), or a server gone before it took the
    // command: run it here. After it took it (`A`), the command may have acted there, and that is said (`lost`).
    conn.on('error', () => undefined)
    conn.on('close', () => {
      if (!this.taken) this.finish(false)
      else this.lost()
    })
  }

  private onFrame(type: string, body: Buffer): void {
    if (this.settled) return
    if (!this.taken) {
      if (type === 'N') {
        this.conn?.destroy()
        // Ctrl-C came while the server was deciding: the command never started, and the user wants none.
        if (this.interrupts > 0) process.exit(130)
        this.finish(false)
        return
      }
      if (type !== 'A') return
      this.taken = true
      process.stdout.on('error', this.onOutputError)
      process.stderr.on('error', this.onOutputError)
      if (this.interrupts > 0) this.conn?.write(frame('I'))
      return
    }
    if (type === 'O') process.stdout.write(body)
    else if (type === 'E') process.stderr.write(body)
    else if (type === 'X') {
      const status = (JSON.parse(body.toString()) as {status?: unknown}).status
      process.exitCode = typeof status === 'number' ? status : 1
      this.conn?.end()
      this.finish(true)
    }
  }

  /**
   * Ctrl-C: the server passes the first to the command (which cancels its device calls, exit 130) and answers a
   * second at once; a third, with the server silent, leaves. One before the server took the command waits for its
   * answer: sent on once it takes it, or the end, with no command run, if it does not.
   */
  private readonly onSigint = (): void => {
    this.interrupts++
    if (this.interrupts >= 3) process.exit(130)
    if (this.taken) this.conn?.write(frame('I'))
  }

  /**
   * This process's stdout or stderr failed (its reader went away, a full disk), during the command or after its exit
   * frame, as a pipe reports a failed write later: a command still running is cancelled in the server, as a one-shot
   * arc's command fails on its next write, and the failure is said as arc says it (EPIPE: OUTPUT_FAILED, exit 13) on
   * stderr where that still works. The listeners stay until this process ends.
   */
  private readonly onOutputError = (failure: Error): void => {
    if (this.outputFailed) return
    this.outputFailed = true
    if (!this.settled) {
      this.settled = true
      this.conn?.write(frame('I'))
      this.conn?.end()
      process.off('SIGINT', this.onSigint)
    }
    void import('@arc-cli/core')
      .then(({toArcError, cliErrorText, exitCodeFor}) => {
        const error = toArcError(failure)
        process.exitCode = exitCodeFor(error.code)
        if (!process.stderr.destroyed) process.stderr.write(`${cliErrorText(error, process.stderr)}\n`)
      })
      .catch(() => (process.exitCode = 1))
      .finally(() => this.resolve(true))
  }

  private outputFailed = false

  private unlisten(): void {
    process.off('SIGINT', this.onSigint)
  }

  /**
   * The server took the command and went away before its exit status: said as arc says any error (core's formatter,
   * loaded only on this path), with its own code and exit status.
   */
  private lost(): void {
    if (this.settled) return
    this.settled = true
    this.unlisten()
    const json = this.request.argv.includes('--json')
    void import('@arc-cli/core')
      .then(({ServerLostError, errorJson, cliErrorText, exitCodeFor}) => {
        const error = new ServerLostError(
          'the arc server ended before the command did: the command may have acted in part. Run it again: with ' +
            'the server gone, arc runs it itself.',
          {actions: ['arc server status']}
        )
        process.exitCode = exitCodeFor(error.code)
        if (json) process.stdout.write(`${JSON.stringify(errorJson(error), null, 2)}\n`)
        else process.stderr.write(`${cliErrorText(error, process.stderr)}\n`)
      })
      .catch((error: unknown) => {
        // Core would not load (an installation half replaced): the fact, plainly, and a failing status.
        process.stderr.write(`arc: the arc server ended before the command did (${String(error)})\n`)
        process.exitCode = 1
      })
      .finally(() => this.resolve(true))
  }

  private finish(ran: boolean): void {
    if (this.settled) return
    this.settled = true
    this.unlisten()
    this.resolve(ran)
  }
}
