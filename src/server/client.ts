/**
 * The client half of `arc server` (docs/server.md). bin/main.js asks protocol.ts's `serverFor` first, on every
 * command, and loads this module only where a server's socket is there: then the command runs in the server, already
 * loaded and warm, and this process only relays its output and exit status. Anywhere the server does not take it
 * (busy, stale, a command it never runs, a server that does not answer within HANDSHAKE_MS) `handOff` answers false
 * having written nothing, and arc runs the command itself. Node.js built-ins only.
 */
import {connect, type Socket} from 'node:net'
import type {WriteStream} from 'node:tty'

import type {ArcError} from '@arc-cli/core'

import {frame, HANDSHAKE_MS, onFrames, PROTOCOL, type RunRequest, type StreamInfo} from './protocol.js'

/**
 * Runs the command in the server on `socket` when it takes it; true once it went there (its exit status is set on
 * process.exitCode). False: nothing was written and nothing ran there: run it here.
 */
export async function handOff(socket: string, root: string, argv: string[]): Promise<boolean> {
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
  private conn: Socket | undefined
  /** The server accepted and this client said go: from here on the command is the server's, and the answer true. */
  private taken = false
  private settled = false
  private interrupts = 0
  private outputFailed = false
  private handshake: NodeJS.Timeout | undefined

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
      // A server that does not answer (stopped, wedged) is given up on: the command runs here, and the server, which
      // never gets this client's go, never runs it.
      this.handshake = setTimeout(() => {
        if (this.taken || this.settled) return
        conn.destroy()
        this.finish(false)
      }, HANDSHAKE_MS)
    })
    onFrames(conn, (type, body) => this.onFrame(type, body))
    // A socket nobody listens on (a server killed without its clean-up), or a server gone before this client said go:
    // run it here. After go, the command may have acted there, and that is said (`lost`).
    conn.on('error', () => undefined)
    conn.on('close', () => {
      if (!this.taken) this.finish(false)
      else this.lost()
    })
  }

  private onFrame(type: string, body: Buffer): void {
    if (this.settled) return
    if (type === 'N') {
      // Not here; or, after this client's go, no go: the server gave up waiting for it (this process was stopped, or
      // slow, past GO_WAIT_MS). Either way the server never runs the command: it runs here, unless Ctrl-C came
      // meanwhile (the user wants none).
      if (this.interrupts > 0) process.exit(130)
      process.stdout.off('error', this.onOutputError)
      process.stderr.off('error', this.onOutputError)
      this.conn?.destroy()
      this.finish(false)
      return
    }
    if (!this.taken) {
      if (type !== 'A') return
      clearTimeout(this.handshake)
      // Ctrl-C came while the server was deciding: the command has not started, nor will it (no go), and the user
      // wants none.
      if (this.interrupts > 0) process.exit(130)
      this.taken = true
      this.conn?.write(frame('G'))
      process.stdout.on('error', this.onOutputError)
      process.stderr.on('error', this.onOutputError)
      return
    }
    if (type === 'O') this.relay(process.stdout, body)
    else if (type === 'E') this.relay(process.stderr, body)
    else if (type === 'X') {
      const status = (JSON.parse(body.toString()) as {status?: unknown}).status
      process.exitCode = typeof status === 'number' ? status : 1
      this.conn?.end()
      this.finish(true)
    }
  }

  /**
   * Writes a command's output on; while `stream` holds more than it wants (a slow reader), reads no more from the
   * server, whose command then waits on its writes as it would on a pipe of its own, its output not piling up in
   * either process.
   */
  private relay(stream: NodeJS.WriteStream, body: Buffer): void {
    if (stream.write(body)) return
    const conn = this.conn
    conn?.pause()
    stream.once('drain', () => conn?.resume())
  }

  /**
   * Ctrl-C: the first goes to the command in the server, which cancels as it would here (exit 130); one before the
   * server answered ends this process at its answer, the command unstarted. A second leaves at once, as a second
   * Ctrl-C ends a one-shot arc (the command in the server is cancelling already).
   */
  private readonly onSigint = (): void => {
    this.interrupts++
    if (this.interrupts >= 2) process.exit(130)
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
    // Said on stderr, never as JSON on stdout, which may be what failed.
    this.say((core) => core.toArcError(failure), false, 'could not write its output')
  }

  /**
   * The server took the command and went away before its exit status: said as arc says any error, with its own code
   * and exit status.
   */
  private lost(): void {
    if (this.settled) return
    this.settled = true
    process.off('SIGINT', this.onSigint)
    this.say(
      (core) =>
        new core.ServerLostError(
          'the arc server ended before the command did: the command may have acted in part. Run it again: with ' +
            'the server gone, arc runs it itself.',
          {actions: ['arc server status']}
        ),
      this.request.argv.includes('--json'),
      'the arc server ended before the command did'
    )
  }

  /**
   * Says an error of this process's own as arc says any (core's formatter, loaded only on these paths: `--json` on
   * stdout, else on stderr while it works), sets its exit status, and ends the relay. Where core would not load (an
   * installation half replaced), `plainly` and a failing status.
   */
  private say(errorOf: (core: typeof import('@arc-cli/core')) => ArcError, json: boolean, plainly: string): void {
    void import('@arc-cli/core')
      .then((core) => {
        const error = errorOf(core)
        process.exitCode = core.exitCodeFor(error.code)
        if (json) process.stdout.write(`${JSON.stringify(core.errorJson(error), null, 2)}\n`)
        else if (!process.stderr.destroyed) process.stderr.write(`${core.cliErrorText(error, process.stderr)}\n`)
      })
      .catch((error: unknown) => {
        if (!process.stderr.destroyed) process.stderr.write(`arc: ${plainly} (${String(error)})\n`)
        process.exitCode = 1
      })
      .finally(() => this.resolve(true))
  }

  private finish(ran: boolean): void {
    if (this.settled) return
    this.settled = true
    clearTimeout(this.handshake)
    process.off('SIGINT', this.onSigint)
    this.resolve(ran)
  }
}
