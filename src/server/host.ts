/**
 * The serving half of `arc server` (docs/server.md): a Unix socket in a folder of the user's own, and per request
 * the client's world put in place for one command (its environment, working folder, umask, and stdout and stderr as
 * frames back to it, each as a terminal or not as the client's are), the command run, and this process's own world
 * put back. One command at a time: a command runs with the client's process.env, cwd and streams, which are the
 * process's; a second client meanwhile is told to run its command itself (`N` busy), never queued behind a long wait.
 */
import {mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, watch, type FSWatcher} from 'node:fs'
import {createRequire} from 'node:module'
import {createServer, type Server, type Socket} from 'node:net'
import path from 'node:path'

import {HostInterrupts, hostInterrupts, InternalError} from '@arc-cli/core'

import {
  folderIsPrivate,
  frame,
  HANDSHAKE_MS,
  isRunRequest,
  onFrames,
  OUTPUT_FRAME_BYTES,
  PROTOCOL,
  type Request,
  type RunRequest,
  type ServerStatus,
  type StreamInfo,
} from './protocol.js'

export interface HostOptions {
  root: string
  socket: string
  idleMs: number
  /** The command id of a command line this server runs, or undefined: the client runs it itself. */
  accept: (argv: string[]) => string | undefined
  /** Runs command `id` of one command line of the client's, its streams and world in place: its exit status. */
  run: (id: string, argv: string[]) => Promise<number>
  /** A line for the server's own log (its stderr), never the client's. */
  log: (line: string) => void
  /** Told once, as the server stops listening and removes its socket (it lets its lock go: lock.ts). */
  stopped?: () => void
}

/**
 * Whether this process runs code that is no longer the installation's (a rebuild, an upgrade): a change to any built
 * file of the root package or of an arc package it depends on, wherever npm put that (packages/ and plugins/ in a
 * clone, node_modules/@arc-cli/ in an installed arc), or to their manifests. Told by the kernel as it happens
 * (fs.watch: inotify on Linux, FSEvents on macOS), so a command pays nothing for the check; where a folder cannot be
 * watched (no watches left), its files are stat'ed before each command instead (some 10 ms for arc's 400 files). A
 * change stops the server, and the client runs the command itself, with the new code.
 */
export class BuildStamp {
  private readonly watchers: FSWatcher[] = []
  private dirty = false
  /** Folders no watcher covers: their files' stats, compared before each command. */
  private readonly unwatched: string[] = []
  private readonly seen: Map<string, string>

  constructor(root: string) {
    const manifest = path.join(root, 'package.json')
    const require = createRequire(manifest)
    let dependencies: string[] = []
    try {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {dependencies?: Record<string, string>}
      dependencies = Object.keys(json.dependencies ?? {}).filter((name) => name.startsWith('@arc-cli/'))
    } catch {
      // No manifest to read: the root's own files are still watched.
    }
    const folders = new Set([root])
    for (const name of dependencies) {
      try {
        folders.add(realpathSync(path.dirname(require.resolve(`${name}/package.json`))))
      } catch {
        // A dependency npm did not install cannot have been loaded either.
      }
    }
    for (const folder of folders) {
      // Its manifest (rewritten, or replaced with the folder: the watch then ends) and everything under dist; not the
      // folder itself, where a clone's README or a screenshot written at its top changes nothing that runs.
      const watched =
        this.watch(path.join(folder, 'package.json'), false) && this.watch(path.join(folder, 'dist'), true)
      if (!watched) this.unwatched.push(folder)
    }
    this.seen = this.read()
  }

  changed(): boolean {
    if (this.dirty) return true
    if (this.unwatched.length === 0) return false
    const now = this.read()
    if (now.size !== this.seen.size) return true
    for (const [file, stamp] of now) if (this.seen.get(file) !== stamp) return true
    return false
  }

  close(): void {
    for (const watcher of this.watchers) watcher.close()
  }

  private watch(folder: string, recursive: boolean): boolean {
    try {
      const watcher = watch(folder, {recursive, persistent: false}, () => (this.dirty = true))
      // A folder deleted or replaced (npm swaps a package's folder on upgrade) ends its watch with an error.
      watcher.on('error', () => (this.dirty = true))
      this.watchers.push(watcher)
      return true
    } catch {
      return false
    }
  }

  private read(): Map<string, string> {
    const out = new Map<string, string>()
    const note = (file: string) => {
      const stat = statSync(file, {throwIfNoEntry: false})
      if (stat) out.set(file, `${stat.size}:${stat.mtimeMs}:${stat.ino}`)
    }
    const walk = (folder: string) => {
      let entries
      try {
        entries = readdirSync(folder, {withFileTypes: true})
      } catch {
        return
      }
      for (const entry of entries) {
        const full = path.join(folder, entry.name)
        if (entry.isDirectory()) walk(full)
        else if (/\.(c?js|cache|json)$/.test(entry.name)) note(full)
      }
    }
    for (const folder of this.unwatched) {
      note(path.join(folder, 'package.json'))
      walk(path.join(folder, 'dist'))
    }
    return out
  }
}

export class Host {
  private server: Server | undefined
  /** The socket file this server made (its inode): removed at the end only while it is still that file. */
  private socketIno: number | undefined
  private readonly connections = new Set<Socket>()
  private busy = false
  private commands = 0
  private idleTimer: NodeJS.Timeout | undefined
  private readonly startedAt = new Date()
  private readonly stamp: BuildStamp
  private readonly stopped: Promise<string>
  private stop!: (why: string) => void
  private stopping: string | undefined

  constructor(private readonly options: HostOptions) {
    this.stamp = new BuildStamp(options.root)
    this.stopped = new Promise((resolve) => (this.stop = resolve))
  }

  status(): ServerStatus {
    return {
      pid: process.pid,
      root: this.options.root,
      socket: this.options.socket,
      startedAt: this.startedAt.toISOString(),
      commands: this.commands,
      busy: this.busy,
      idleMs: this.options.idleMs,
    }
  }

  /** Listens; resolves once listening. `closed()` then resolves with why it stopped. */
  async listen(): Promise<void> {
    const {socket} = this.options
    const folder = path.dirname(socket)
    mkdirSync(folder, {recursive: true, mode: 0o700})
    if (!folderIsPrivate(folder)) {
      throw new Error(
        `${folder} is not this user's alone (it must be a folder owned by you with mode 700): arc will not put a server's socket there`
      )
    }
    const server = createServer((conn) => this.accept(conn))
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(socket, () => {
        server.off('error', reject)
        resolve()
      })
    })
    this.socketIno = statSync(socket).ino
    this.armIdle()
  }

  /** Resolves with why the server stopped, once no command runs here. */
  closed(): Promise<string> {
    return this.stopped
  }

  /**
   * Once stopped: resolves when every client has read what was sent to it (or after `limitMs`): the output of the
   * last command is not cut off by the process's exit.
   */
  async drained(limitMs = 10_000): Promise<void> {
    const open = [...this.connections].map(
      (conn) =>
        new Promise<void>((resolve) => {
          conn.once('close', () => resolve())
          conn.end()
        })
    )
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.all(open), new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)))])
    clearTimeout(timer)
  }

  /**
   * Stops listening and removes the socket at once (a new command runs in its own process from now on); `closed()`
   * resolves once a command running here has ended too.
   */
  shutdown(why: string): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    if (this.stopping === undefined) {
      this.stopping = why
      this.stamp.close()
      this.server?.close()
      // Only our own socket: a server started after this one lost its socket (say, while this one was stopped with
      // Ctrl-Z) keeps its own.
      if (statSync(this.options.socket, {throwIfNoEntry: false})?.ino === this.socketIno) {
        rmSync(this.options.socket, {force: true})
      }
      this.options.stopped?.()
    }
    if (!this.busy) this.stop(this.stopping)
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    if (this.options.idleMs <= 0) return
    this.idleTimer = setTimeout(() => {
      if (!this.busy) this.shutdown(`no command for ${this.options.idleMs} ms`)
    }, this.options.idleMs)
    this.idleTimer.unref()
  }

  private accept(conn: Socket): void {
    this.connections.add(conn)
    conn.on('close', () => this.connections.delete(conn))
    let requested = false
    /** After the request: what the client's go and Ctrl-C frames do. */
    const link: Link = {}
    conn.on('error', () => undefined)
    onFrames(conn, (type, body) => {
      if (type === 'G') link.go?.()
      else if (type === 'I') link.interrupt?.()
      if (type !== 'R' || requested) return
      requested = true
      let request: Request
      try {
        request = JSON.parse(body.toString()) as Request
      } catch {
        conn.destroy()
        return
      }
      void this.answer(conn, request, link)
    })
  }

  private async answer(conn: Socket, request: Request, link: Link): Promise<void> {
    /**
     * Sends a frame (a large write as several, each far below what a reader accepts); `done` once the socket has
     * taken the last of it. False, as a stream's write says, while the socket holds more than it wants: a command
     * waiting on its writes (writeAll, pipe) then waits for its client to read, as it would on a pipe of its own,
     * instead of piling its output up in this process.
     */
    const send = (type: 'A' | 'O' | 'E' | 'X' | 'N', body: string | Uint8Array, done?: () => void): boolean => {
      if (conn.destroyed || conn.writableEnded) {
        // The client is gone (its command is being interrupted): nothing to wait for.
        if (done) process.nextTick(done)
        return true
      }
      const bytes = typeof body === 'string' ? Buffer.from(body) : body
      let room = true
      for (let at = 0; at < bytes.length || at === 0; at += OUTPUT_FRAME_BYTES) {
        const last = at + OUTPUT_FRAME_BYTES >= bytes.length
        const piece = frame(type, bytes.subarray(at, at + OUTPUT_FRAME_BYTES))
        room = last && done ? conn.write(piece, () => done()) : conn.write(piece)
      }
      return room
    }
    const refuse = (reason: string) => {
      send('N', JSON.stringify({reason}))
      conn.end()
    }
    if (request.protocol !== PROTOCOL || request.root !== this.options.root) return refuse('another arc')
    if (request.kind === 'status') {
      send('O', JSON.stringify(this.status()))
      send('X', JSON.stringify({status: 0}))
      conn.end()
      return
    }
    if (request.kind === 'stop') {
      send('X', JSON.stringify({status: 0}))
      conn.end()
      this.shutdown('asked to stop (arc server stop)')
      return
    }
    if (!isRunRequest(request)) return refuse('another arc')
    if (this.busy || this.stopping !== undefined) return refuse('busy')
    if (this.stamp.changed()) {
      refuse('stale')
      this.shutdown("arc's files changed since it started (a rebuild or an upgrade)")
      return
    }
    // Decided before the command is taken: after `A` and the client's go, the client never runs it itself.
    const id = this.options.accept(request.argv)
    if (id === undefined || !statSync(request.cwd, {throwIfNoEntry: false})?.isDirectory()) return refuse('not here')
    this.busy = true
    if (this.idleTimer) clearTimeout(this.idleTimer)
    // Listened for from here: a Ctrl-C the client sends right after its go (even in the same packet) is kept.
    const interrupts = new HostInterrupts()
    link.interrupt = () => interrupts.interrupt()
    // The client's go, or its end: a client that gave up waiting for `A` runs the command itself and says no go.
    const go = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), GO_WAIT_MS)
      const gone = () => resolve(false)
      conn.once('close', gone)
      link.go = () => {
        clearTimeout(timer)
        conn.off('close', gone)
        resolve(true)
      }
      send('A', '')
    })
    link.go = undefined
    if (!go) {
      link.interrupt = undefined
      // Said, so that a client that was only slow (stopped past GO_WAIT_MS, its go still unsent or on its way) runs
      // the command itself instead of taking this close for a server lost mid-command.
      send('N', JSON.stringify({reason: 'no go'}))
      conn.end()
      this.idle()
      return
    }
    const started = Date.now()
    let status = 1
    // A client that goes away mid-command is a Ctrl-C too: a one-shot arc killed would not run on.
    const gone = () => interrupts.interrupt()
    conn.once('close', gone)
    // The socket took what it held: the command's streams (the client's, while it runs) may write again.
    const drain = () => {
      process.stdout.emit('drain')
      process.stderr.emit('drain')
    }
    conn.on('drain', drain)
    try {
      status = await inClientWorld(request, send, interrupts, () => this.options.run(id, request.argv))
    } catch (error) {
      // The command's own errors are its exit status (`run`): this is the server's own failure around it.
      const message = `arc server could not run the command: ${(error as Error).message}`
      send('E', `Error [INTERNAL]: ${message}\n`)
      this.options.log(`arc server: could not run a command: ${(error as Error).message}`)
    } finally {
      link.interrupt = undefined
      conn.off('close', gone)
      conn.off('drain', drain)
      this.idle()
    }
    this.commands++
    // The command's id, not its words: they may hold what the client types (`arc type "$PASSWORD"`).
    this.options.log(`arc server: ${id}: exit ${status} in ${Date.now() - started} ms`)
    send('X', JSON.stringify({status}))
    conn.end()
  }

  /** No command runs any more: the server stops now if asked meanwhile, else waits --idle for the next. */
  private idle(): void {
    this.busy = false
    if (this.stopping !== undefined) this.stop(this.stopping)
    else this.armIdle()
  }
}

/** What a client's frames after its request do: go (`G`) and Ctrl-C (`I`). */
interface Link {
  go?: () => void
  interrupt?: () => void
}

/** How long the server waits for a client's go after `A`: a client gives up after HANDSHAKE_MS. */
const GO_WAIT_MS = 2 * HANDSHAKE_MS

type Send = (type: 'O' | 'E', body: Uint8Array, done?: () => void) => boolean

/**
 * Runs `work` with the client's environment, working folder and umask in place of this process's, stdout and stderr
 * written to the client, each a terminal (with the client's width and colour depth) or not as the client's are, and
 * the client's Ctrl-C as the tool commands' (hostInterrupts); puts this process's own back after, each piece on its
 * own, whatever happens.
 */
async function inClientWorld<T>(
  request: RunRequest,
  send: Send,
  interrupts: HostInterrupts,
  work: () => Promise<T>
): Promise<T> {
  const ownEnv = {...process.env}
  const ownCwd = process.cwd()
  const ownUmask = process.umask()
  // The client's stdin is not here, and the server's own must never be read: in the background of a terminal, a
  // read would stop the whole server (SIGTTIN). A command that reads stdin belongs in the server command's NOT_HERE.
  const ownStdin = Object.getOwnPropertyDescriptor(process, 'stdin')
  Object.defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: true,
    get() {
      throw new InternalError(`arc server: a command read stdin, which a server cannot give it`)
    },
  })
  const streams = [
    streamAs(process.stdout, request.stdout, (bytes, done) => send('O', bytes, done)),
    streamAs(process.stderr, request.stderr, (bytes, done) => send('E', bytes, done)),
  ]
  hostInterrupts(interrupts)
  try {
    replaceEnv(request.env)
    process.chdir(request.cwd)
    process.umask(request.umask)
    return await work()
  } finally {
    hostInterrupts(undefined)
    for (const restore of streams) restore()
    if (ownStdin) Object.defineProperty(process, 'stdin', ownStdin)
    replaceEnv(ownEnv)
    process.umask(ownUmask)
    // The server's own folder is `/` (`arc server` goes there once it listens), which cannot go away.
    process.chdir(ownCwd)
  }
}

function replaceEnv(env: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value
}

const STREAM_KEYS = ['write', 'isTTY', 'columns', 'rows', 'getColorDepth', 'hasColors'] as const

/**
 * `stream` as the client's: its writes go to `sink`, which says, as a pipe would, when it has taken them (the
 * write's callback) and whether it wants more now (the return; 'drain' follows, see `answer`), and isTTY, columns,
 * rows and the colour depth are the client's. Returns what puts it back.
 */
function streamAs(
  stream: NodeJS.WriteStream,
  info: StreamInfo,
  sink: (bytes: Uint8Array, done?: () => void) => boolean
): () => void {
  const own = STREAM_KEYS.map((key) => [key, Object.getOwnPropertyDescriptor(stream, key)] as const)
  const define = (key: string, value: unknown) =>
    Object.defineProperty(stream, key, {value, configurable: true, writable: true, enumerable: false})
  define('write', function write(chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : callback
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : chunk
    return sink(bytes, typeof done === 'function' ? () => (done as () => void)() : undefined)
  })
  define('isTTY', info.tty ? true : undefined)
  define('columns', info.tty ? info.columns : undefined)
  define('rows', info.tty ? info.rows : undefined)
  const depth = info.colorDepth ?? 1
  define('getColorDepth', info.tty ? () => depth : undefined)
  define('hasColors', info.tty ? (count = 16) => 2 ** depth >= count : undefined)
  return () => {
    for (const [key, descriptor] of own) {
      if (descriptor) Object.defineProperty(stream, key, descriptor)
      else delete (stream as unknown as Record<string, unknown>)[key]
    }
  }
}
