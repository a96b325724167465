/**
 * What `arc server` and the `arc` processes it serves say to each other over a Unix socket (docs/server.md). This
 * module is loaded by bin/main.js before anything else, on every command: Node.js built-ins only, nothing at load
 * time but declarations.
 *
 * A frame is one byte of type, four of length (big-endian) and the payload. The client sends one request frame
 * (`R`, JSON). The server answers either not-here (`N`, JSON `{reason}`: the client then runs the command itself, as
 * if no server were there) or accepted (`A`). Only when the client answers `A` with go (`G`) does the command start:
 * a client that gave up waiting (HANDSHAKE_MS) runs the command itself and never says go, so a command never runs
 * twice, and one that said go never runs it again, whatever happens to the server, unless the server answers its go
 * with `N` (it gave up waiting for the go and will not run the command). Then come output (`O` for stdout,
 * `E` for stderr, raw bytes in the order written, in frames of at most OUTPUT_FRAME_BYTES) and one exit frame (`X`,
 * JSON `{status}`); the client sends interrupt frames (`I`) for Ctrl-C meanwhile.
 */
import {lstatSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'

/** Raised when the request's shape changes: a client and a server of different builds never talk (the root differs). */
export const PROTOCOL = 1

export type FrameType = 'R' | 'G' | 'I' | 'A' | 'O' | 'E' | 'X' | 'N'

/**
 * How long a client waits for the server's `A` or `N` before it runs the command itself: a server that is stopped
 * (Ctrl-Z, SIGSTOP) or wedged must not hang every arc command. A server answers in about a millisecond.
 */
export const HANDSHAKE_MS = 2000

/** The largest output frame: a command's larger write goes as several. */
export const OUTPUT_FRAME_BYTES = 1024 * 1024

/** The longest socket path a Unix socket address holds (sun_path, 108 bytes on Linux, with its final zero byte). */
export const MAX_SOCKET_PATH_BYTES = 107

/** A stream of the client's, as a command would see it in the client's own process. */
export interface StreamInfo {
  tty: boolean
  columns?: number
  rows?: number
  /** tty.WriteStream#getColorDepth() under the client's environment: 1, 4, 8 or 24. */
  colorDepth?: number
}

export interface RunRequest {
  protocol: number
  kind: 'run'
  /** The installation the client belongs to (its folder): a server runs only its own installation's commands. */
  root: string
  argv: string[]
  cwd: string
  env: Record<string, string>
  umask: number
  stdout: StreamInfo
  stderr: StreamInfo
}

export type Request =
  RunRequest | {protocol: number; kind: 'status'; root: string} | {protocol: number; kind: 'stop'; root: string}

/** A request as JSON gave it has the fields a run needs, of their types (a peer of another build may not). */
export function isRunRequest(request: Request): request is RunRequest {
  const r = request as Partial<RunRequest>
  return (
    r.kind === 'run' &&
    Array.isArray(r.argv) &&
    r.argv.every((word) => typeof word === 'string') &&
    typeof r.cwd === 'string' &&
    typeof r.env === 'object' &&
    r.env !== null &&
    typeof r.umask === 'number' &&
    typeof r.stdout === 'object' &&
    typeof r.stderr === 'object'
  )
}

/** What `status` answers; `arc server status --json` prints it with snake_case keys (started_at, idle_ms). */
export interface ServerStatus {
  pid: number
  root: string
  socket: string
  startedAt: string
  /** Commands run here so far. */
  commands: number
  /** A command is running now: another client is sent away (it runs the command itself). */
  busy: boolean
  /** The server stops after this long without a command (0: never). */
  idleMs: number
}

export function frame(type: FrameType, payload: Uint8Array | string = ''): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload
  const out = Buffer.allocUnsafe(5 + body.length)
  out[0] = type.charCodeAt(0)
  out.writeUInt32BE(body.length, 1)
  out.set(body, 5)
  return out
}

/** The largest frame either side accepts: a request (an environment is a few KB) or one write of a command's. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024

/** Splits a byte stream into frames, whatever the chunks' boundaries. */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0)

  /** The frames completed by `chunk`; throws on a frame over MAX_FRAME_BYTES (the peer is not an arc). */
  push(chunk: Buffer): Array<{type: string; body: Buffer}> {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk])
    const frames: Array<{type: string; body: Buffer}> = []
    while (this.pending.length >= 5) {
      const length = this.pending.readUInt32BE(1)
      if (length > MAX_FRAME_BYTES) throw new Error(`a frame of ${length} bytes (at most ${MAX_FRAME_BYTES})`)
      if (this.pending.length < 5 + length) break
      frames.push({
        type: String.fromCharCode(this.pending[0] as number),
        body: this.pending.subarray(5, 5 + length),
      })
      this.pending = this.pending.subarray(5 + length)
    }
    return frames
  }
}

/**
 * Calls `handle` with each frame `conn` brings, whatever the chunks' boundaries; a frame no arc sends (over
 * MAX_FRAME_BYTES) ends the connection.
 */
export function onFrames(
  conn: {on(event: 'data', listener: (chunk: Buffer) => void): unknown; destroy(): unknown},
  handle: (type: string, body: Buffer) => void
): void {
  const reader = new FrameReader()
  conn.on('data', (chunk: Buffer) => {
    let frames
    try {
      frames = reader.push(chunk)
    } catch {
      conn.destroy()
      return
    }
    for (const {type, body} of frames) handle(type, body)
  })
}

/**
 * The socket of the server of the installation at `root`: in a folder of the user's own under the temporary folder
 * (TMPDIR, so a test run's servers stay in its own), named by a hash of the root, so that two installations (a
 * project's and a global one) each have theirs. Undefined where there are no Unix sockets owned by a user (Windows).
 */
export function serverSocketPath(root: string): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined
  return path.join(socketFolder(), `server-${fnv1a(root)}.sock`)
}

/** Words that make oclif print help or the version instead of running the command. */
const OCLIF_OWN = new Set(['--help', '-h', '--version', '-v'])

/** The words of a command line before a `--` (after it, every word is an argument, whatever it looks like). */
export function optionWords(argv: string[]): string[] {
  const end = argv.indexOf('--')
  return end === -1 ? argv : argv.slice(0, end)
}

/**
 * Whether a command line asks for oclif's own text, help or the version, rather than a command's work: the server
 * leaves it to the client's oclif, and bin/main.js ends it quietly when its reader stops early (`arc --help | head`).
 */
export function asksOclifText(argv: string[]): boolean {
  return argv[0] === 'help' || optionWords(argv).some((word) => OCLIF_OWN.has(word))
}

/** The first words a client always runs itself: help and the version (oclif's own output), the server's commands. */
const NEVER_HANDED = new Set(['help', 'server', 'version', 'autocomplete'])

/**
 * The socket of the server to hand this command line to, or undefined: `ARC_SERVER=off`, help or a flag first, no
 * socket there (one stat: what every command pays when no server runs), or a socket in a folder that is not the
 * user's alone. bin/main.js asks this before it loads anything else.
 */
export function serverFor(root: string, argv: string[]): string | undefined {
  if (process.env.ARC_SERVER === 'off') return undefined
  const first = argv[0]
  if (first === undefined || first.startsWith('-') || NEVER_HANDED.has(first)) return undefined
  // An argument holding U+FFFD may stand for bytes that were not UTF-8, which only this process's own command line
  // tells (core's cli/argv-text.ts): the command runs here, where that check can be made.
  if (argv.some((arg) => arg.includes('\uFFFD'))) return undefined
  const socket = serverSocketPath(root)
  if (socket === undefined || !socketExists(socket) || !folderIsPrivate(path.dirname(socket))) return undefined
  return socket
}

/** Whether a socket path fits a Unix socket address (a longer one would be cut short silently). */
export function socketPathFits(socket: string): boolean {
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES
}

export function socketFolder(): string {
  return path.join(tmpdir(), `arc-${(process.getuid as () => number)()}`)
}

/**
 * Whether `folder` is this user's alone (owned by them, no access for group or others, not a symbolic link): only
 * then is a socket in it one of their own servers', which may be handed their environment and their commands.
 */
export function folderIsPrivate(folder: string): boolean {
  const stat = lstatSync(folder, {throwIfNoEntry: false})
  return (
    stat !== undefined &&
    stat.isDirectory() &&
    stat.uid === (process.getuid as () => number)() &&
    (stat.mode & 0o077) === 0
  )
}

/** Whether a socket file is there (one stat: what every command pays when no server runs). */
export function socketExists(socket: string): boolean {
  return statSync(socket, {throwIfNoEntry: false})?.isSocket() === true
}

/** 32-bit FNV-1a of a string's UTF-16 units, as 8 hex digits: a short, stable name, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}
