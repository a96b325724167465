import {randomBytes} from 'node:crypto'
import {mkdtempSync} from 'node:fs'
import net, {type Server, type Socket} from 'node:net'
import path from 'node:path'

/** Frame types between the emulator and its program helper, bin/device-command.pl or .cjs (see those files). */
const Frame = {stdin: 0, stdout: 1, stderr: 2, exit: 3, wantStdin: 4, stdinEnd: 5, request: 0x52} as const

function frame(type: number, data: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const head = Buffer.alloc(5)
  head[0] = type
  head.writeUInt32BE(body.length, 1)
  return Buffer.concat([head, body])
}

/**
 * A helper's request: the session token, the program's working folder, its environment (`CLASSPATH=…` or empty) and
 * its argv, each ended by a NUL (none of them can hold one). Bytes that are not UTF-8 read as U+FFFD, as Node.js
 * reads a process's argv.
 */
function parseRequest(
  data: Buffer
): {session: string; cwd: string; env: Record<string, string>; argv: string[]} | undefined {
  if (data.at(-1) !== 0) return undefined
  const [session, cwd, environment, ...argv] = data.subarray(0, -1).toString('utf8').split('\0')
  if (!session || cwd === undefined || environment === undefined || argv.length === 0) return undefined
  const env: Record<string, string> = {}
  const m = /^(CLASSPATH)=(.*)$/s.exec(environment)
  if (m) env[m[1] as string] = m[2] as string
  return {session, cwd, env, argv}
}

/** The longest Unix socket path every platform takes: sun_path holds 108 bytes on Linux, 104 on macOS, with a NUL. */
const MAX_SOCKET_PATH = 103

/**
 * A folder for Unix sockets named in up to 20 bytes: `dir` itself, unless its path is too long for them (a long
 * TMPDIR; a longer path is cut short, outside `dir`), else a new folder under /tmp that the caller removes.
 */
export function socketFolder(dir: string): string {
  if (Buffer.byteLength(path.join(dir, 'x'.repeat(20))) <= MAX_SOCKET_PATH) return dir
  return mkdtempSync('/tmp/arc-emu-')
}

/** The streams of one running device program, on the emulator's side. */
export interface ProgramIo {
  argv: string[]
  /** The helper's working folder (a host path). */
  cwd: string
  /** What the program's environment held of the variables the helper forwards (CLASSPATH). */
  env: Record<string, string>
  out(data: string | Buffer): void
  err(data: string | Buffer): void
  readStdin(): Promise<Buffer>
  /** Each chunk of stdin as it arrives, until end of file (a resident program reads requests this way). */
  stdinChunks(): AsyncIterable<Buffer>
  signal: AbortSignal
}

export type ProgramHandler = (sessionToken: string, io: ProgramIo) => Promise<number>

/**
 * A Unix socket the fake device programs call back on. Each program invocation is one connection: a request
 * (session token, argv, cwd), then output frames and an exit frame from here. Closing the connection (the
 * process was killed) aborts the program's signal.
 */
export class CommandChannel {
  private readonly connections = new Set<Socket>()

  private constructor(
    readonly socketPath: string,
    private readonly server: Server
  ) {}

  static async start(socketPath: string, handler: ProgramHandler): Promise<CommandChannel> {
    const server = net.createServer()
    const channel = new CommandChannel(socketPath, server)
    server.on('connection', (socket) => channel.accept(socket, handler))
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(socketPath, () => resolve())
    })
    return channel
  }

  static newToken(): string {
    return randomBytes(12).toString('hex')
  }

  private accept(socket: Socket, handler: ProgramHandler): void {
    this.connections.add(socket)
    const abort = new AbortController()
    let buffer = Buffer.alloc(0)
    let started = false
    const stdin: Buffer[] = []
    let stdinEnded = false
    let stdinWaiter: (() => void) | undefined
    let stdinRequested = false
    const wake = () => {
      const waiter = stdinWaiter
      stdinWaiter = undefined
      waiter?.()
    }
    const wantStdin = () => {
      if (!stdinRequested) {
        stdinRequested = true
        write(Frame.wantStdin)
      }
    }
    socket.on('close', () => {
      this.connections.delete(socket)
      abort.abort()
      stdinEnded = true
      wake()
    })
    socket.on('error', () => {})
    const write = (type: number, data?: Buffer | string) => {
      if (!socket.destroyed) socket.write(frame(type, data))
    }
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      while (buffer.length >= 5) {
        const length = buffer.readUInt32BE(1)
        if (buffer.length < 5 + length) break
        const type = buffer[0]
        const data = buffer.subarray(5, 5 + length)
        buffer = buffer.subarray(5 + length)
        if (type === Frame.request && !started) {
          started = true
          const request = parseRequest(data)
          if (!request) {
            socket.destroy()
            return
          }
          const io: ProgramIo = {
            argv: request.argv,
            cwd: request.cwd,
            env: request.env,
            out: (d) => write(Frame.stdout, d),
            err: (d) => write(Frame.stderr, d),
            signal: abort.signal,
            readStdin: async () => {
              wantStdin()
              while (!stdinEnded) await new Promise<void>((resolve) => (stdinWaiter = resolve))
              return Buffer.concat(stdin)
            },
            stdinChunks: async function* () {
              wantStdin()
              for (;;) {
                const chunk = stdin.shift()
                if (chunk) yield chunk
                else if (stdinEnded) return
                else await new Promise<void>((resolve) => (stdinWaiter = resolve))
              }
            },
          }
          handler(request.session, io).then(
            (code) => {
              write(Frame.exit, Buffer.from([code & 0xff]))
              socket.end()
            },
            (error: unknown) => {
              write(Frame.stderr, `${request.argv[0]}: ${(error as Error).message}\n`)
              write(Frame.exit, Buffer.from([1]))
              socket.end()
            }
          )
        } else if (type === Frame.stdin) {
          stdin.push(Buffer.from(data))
          wake()
        } else if (type === Frame.stdinEnd) {
          stdinEnded = true
          wake()
        }
      }
    })
  }

  async close(): Promise<void> {
    for (const socket of this.connections) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
