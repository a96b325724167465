/**
 * arc's handle on one adb server, built on adbkit. Every device call goes through `call`, which
 * - opens adbkit connections that never run `adb start-server` (adbkit does on ECONNREFUSED; arc must not),
 * - puts a time limit on the whole call and, when it runs out, destroys every socket the call opened, so no
 *   half-read shell stream or pending connect is left behind,
 * - maps whatever adbkit throws to arc's error model (map-adb-error.ts).
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import {EventEmitter} from 'node:events'
import {createReadStream} from 'node:fs'
import type {Socket} from 'node:net'
import type {Duplex, Readable} from 'node:stream'

import './quiet-bluebird.js'

// adbkit's internals, not its public API: packages/core/package.json pins it to the exact version tested
// (packages/core/test/adb/adbkit-pin.test.ts), so an upgrade is a deliberate change with these files checked.
import devicesModule from '@devicefarmer/adbkit/dist/src/adb/command/host/devices.js'
import transportModule from '@devicefarmer/adbkit/dist/src/adb/command/host/transport.js'
import shellModule from '@devicefarmer/adbkit/dist/src/adb/command/host-transport/shell.js'
import syncModule from '@devicefarmer/adbkit/dist/src/adb/command/host-transport/sync.js'
import connectionModule from '@devicefarmer/adbkit/dist/src/adb/connection.js'
import protocolModule from '@devicefarmer/adbkit/dist/src/adb/protocol.js'

import {
  CancelledError,
  DeviceCommandError,
  DeviceNotFoundError,
  DeviceUnavailableError,
  TimeoutError,
} from '../../errors/arc-error.js'
import {TRANSFER_FLOOR_BYTES_PER_MS, transferAllowanceMs} from '../capabilities/files.js'
import {mapAdbError, unavailableState} from './map-adb-error.js'
import {DEFAULT_ADB_TIMEOUT_MS, type ServerAddress} from './server-address.js'
import {checkCommandLength} from './shell-quote.js'

// adbkit's modules are CommonJS with `__esModule`. Node's ESM loader (and the core's bundle) hand over
// `module.exports`, so the class sits on `.default` (toolchain.md §10), while tsx's CommonJS path (mocha) unwraps
// it; accept both shapes.
function cjsDefault<T>(module: {default: T}): T {
  return (module as {default?: T}).default ?? (module as unknown as T)
}
const Connection = cjsDefault(connectionModule)
const Protocol = cjsDefault(protocolModule)
const HostDevicesCommand = cjsDefault(devicesModule)
const HostTransportCommand = cjsDefault(transportModule)
const ShellCommand = cjsDefault(shellModule)
const SyncCommand = cjsDefault(syncModule)
type Connection = InstanceType<typeof Connection>
type Sync = Awaited<ReturnType<InstanceType<typeof SyncCommand>['execute']>>

/**
 * What arc asks of an adb server, on adbkit's own connection and commands: the part of adbkit's `Client` and
 * `DeviceClient` arc uses. Neither is loaded: `Client`'s module brings adbkit's whole TCP/USB bridge and, with it,
 * node-forge, and `DeviceClient`'s every device command adbkit has (some 50 modules, with its monkey and logcat
 * clients), about 30 ms of CPU together on every command that opens a device, for nothing arc calls. Connections
 * never run `adb start-server` (adbkit does on ECONNREFUSED; arc reports "no adb server" instead) and are tracked
 * by the call's `scope`, which destroys them when the call ends or times out.
 */
export class ServerClient extends EventEmitter {
  readonly options: {host: string; port: number}

  constructor(
    host: string,
    port: number,
    private readonly scope: SocketScope
  ) {
    super()
    this.options = {host, port}
    // Connection errors also reject the call's own promise; this listener only keeps Node from throwing them.
    this.on('error', () => {})
  }

  connection(): Promise<Connection> {
    const conn = new Connection(this.options)
    ;(conn as unknown as {triedStarting: boolean}).triedStarting = true
    conn.on('error', (error) => this.emit('error', error))
    const connected = conn.connect()
    this.scope.add(conn.socket)
    return connected
  }

  /** One device on this server: the device calls arc makes, as adbkit's DeviceClient makes them. */
  getDevice(serial: string): AdbDevice {
    return new AdbDevice(this, serial)
  }

  async listDevices(): Promise<Array<{id: string; type: string}>> {
    return new HostDevicesCommand(await this.connection()).execute()
  }

  /**
   * `host:devices-l` as the server wrote it. Not adbkit's listDevicesWithPaths: it splits lines on whitespace,
   * which breaks states with spaces (`no permissions (…); see [URL]`) and the `(no serial number)` serial.
   */
  async listDevicesLong(): Promise<string> {
    return (await request(await this.connection(), 'host:devices-l')).toString('utf8')
  }
}

/**
 * The device calls arc makes, each on a fresh connection switched to the device (`host:transport:<serial>`), the
 * way adbkit's DeviceClient makes them; the sync calls (`sync:`) end their sync session when done.
 */
export class AdbDevice {
  constructor(
    private readonly client: ServerClient,
    readonly serial: string
  ) {}

  /** A connection switched to this device, for a device service. */
  async transport(): Promise<Connection> {
    const conn = await this.client.connection()
    await new HostTransportCommand(conn).execute(this.serial)
    return conn
  }

  /** `shell:<command>` (shell protocol v1): the stream of what it prints. */
  async shell(command: string): Promise<Duplex> {
    return new ShellCommand(await this.transport()).execute(command)
  }

  async stat(path: string): Promise<Awaited<ReturnType<Sync['stat']>>> {
    return this.withSync((sync) => sync.stat(path))
  }

  async readdir(path: string): Promise<Awaited<ReturnType<Sync['readdir']>>> {
    return this.withSync((sync) => sync.readdir(path))
  }

  /** Reads a device file (RECV); the sync session ends with the transfer, or when it is cancelled part way. */
  async pull(path: string): Promise<ReturnType<Sync['pull']>> {
    const sync = await this.sync()
    return sync
      .pull(path)
      .on('end', () => sync.end())
      .on('cancel', () => sync.end())
  }

  /** Writes a device file (SEND); the sync session ends with the transfer. */
  async push(contents: Readable, path: string, mode: number): Promise<ReturnType<Sync['push']>> {
    const sync = await this.sync()
    return sync.push(contents, path, mode).on('end', () => sync.end())
  }

  private async sync(): Promise<Sync> {
    return new SyncCommand(await this.transport()).execute()
  }

  private async withSync<T>(fn: (sync: Sync) => PromiseLike<T>): Promise<T> {
    const sync = await this.sync()
    try {
      return await fn(sync)
    } finally {
      sync.end()
    }
  }
}

/** A command's output over shell protocol v2: the streams apart, and the real exit status. */
export interface ShellV2Result {
  stdout: Buffer
  stderr: Buffer
  exitCode: number
}

export interface AttachedDevice {
  serial: string
  state: string
}

/** What one device shell command printed (stdout and stderr merged: adbkit uses shell protocol v1). */
export interface ShellResult {
  command: string
  output: Buffer
  /** The command's exit status, read from the trailer arc appends (shell v1 carries none). */
  exitCode: number
}

/**
 * Shell protocol v1 ends a command by closing the stream, which is also what a vanishing device looks like. So arc
 * appends `; echo <marker>$?` to every command: the marker proves the command ran to its end and carries its exit
 * status; a stream that ends without it was cut short.
 */
const EXIT_MARKER = '__ARC_EXIT_7f3e__'

/** How often a transfer's pace is checked against the slowest rate allowed. */
const PACE_CHECK_MS = 250

/** Splits the exit trailer off a command's output; undefined when the trailer never arrived. */
function splitExitTrailer(data: Buffer): {output: Buffer; exitCode: number} | undefined {
  const at = data.lastIndexOf(EXIT_MARKER)
  if (at === -1) return undefined
  const m = /^(\d+)\r?\n?$/.exec(data.subarray(at + EXIT_MARKER.length).toString('latin1'))
  if (!m) return undefined
  return {output: data.subarray(0, at), exitCode: Number(m[1])}
}

/** Sockets opened by one call, destroyed when it ends or times out. */
class SocketScope {
  readonly sockets = new Set<Socket>()
  /** Bytes that sockets of this scope already closed moved, both ways. */
  private closedBytes = 0

  add(socket: Socket): void {
    this.sockets.add(socket)
    socket.once('close', () => {
      if (this.sockets.delete(socket)) this.closedBytes += socket.bytesRead + socket.bytesWritten
    })
  }

  /**
   * Bytes moved both ways over every socket of the scope so far. What waits in a socket's own buffer has not moved
   * (Node counts it in bytesWritten), so a sender that queued a whole file at once is not taken for a fast one.
   */
  bytesMoved(): number {
    let bytes = this.closedBytes
    for (const socket of this.sockets)
      bytes += socket.bytesRead + Math.max(0, socket.bytesWritten - socket.writableLength)
    return bytes
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
  }
}

/**
 * The server whose put-back runs in this async context (untilClosed, asPutBack): the only device calls a shut-down
 * server still makes.
 */
const puttingBack = new AsyncLocalStorage<AdbServer>()
/** The time limit of one device call made by a put-back (an `ime set`, an `rm -f`: well under a second on a phone). */
const PUT_BACK_LIMIT_MS = 5000

/** A temporary file's removal, kept as a put-back while the work that made it runs (AdbServer.cleanupIfCut). */
export interface CutCleanup {
  /** Runs the removal (once, whoever asks first: the work or shutdown), failures ignored, and unregisters it. */
  run(): Promise<void>
  /** Unregisters it without running it: the work no longer leaves the file (it was renamed into place). */
  drop(): void
}

export class AdbServer {
  readonly host: string
  readonly port: number
  readonly timeoutMs: number
  /** Sockets of calls still running, so close() can end them. */
  private readonly scopes = new Set<SocketScope>()
  /** What must still be put back on the device if the work is cut off (see untilClosed). */
  private readonly undo = new Set<() => Promise<unknown>>()
  private shutDown = false

  constructor(address: ServerAddress, timeoutMs = DEFAULT_ADB_TIMEOUT_MS) {
    this.host = address.host
    this.port = address.port
    this.timeoutMs = timeoutMs
  }

  get address(): string {
    return `${this.host}:${this.port}`
  }

  /**
   * Refuses a call that begins after shutdown(): work that was cut off (a cancelled tool call, a closed driver) may
   * still be running on the host, and its next step must not reach the device, even a read; an input that the
   * caller was told was cancelled must never be sent. What `untilClosed` registered to put things back still runs.
   */
  private refuseAfterShutdown(what: string, serial: string | undefined): void {
    if (this.open) return
    throw new CancelledError(
      `${what} on ${serial ?? `the adb server at ${this.address}`} was not sent: the connection to the device was closed (the call was cancelled or its driver closed)`,
      {details: {serial}}
    )
  }

  /** Whether work in this async context may still reach the device: before shutdown(), or inside a put-back. */
  private get open(): boolean {
    return !this.shutDown || puttingBack.getStore() === this
  }

  /**
   * The same refusal for a path that reaches the device without a new connection (a request to the on-device
   * helper over its open stream): after shutdown(), only a put-back may still send.
   */
  checkOpen(what: string, serial: string): void {
    this.refuseAfterShutdown(what, serial)
  }

  /**
   * `putBack` made to run as a put-back whoever calls it: the work putting things back itself, or shutdown() when it
   * was cut off. A put-back begun by the work before a shutdown must be able to finish its steps after it.
   */
  asPutBack<T>(putBack: () => Promise<T>): () => Promise<T> {
    return () => puttingBack.run(this, putBack)
  }

  /**
   * Keeps `remove` (deleting a temporary file the work put on the device) as a put-back while the work runs: the work
   * runs it, or, cut off first (a cancelled call), shutdown() does, so nothing temporary is left either way.
   */
  cleanupIfCut(remove: () => Promise<unknown>): CutCleanup {
    let running: Promise<void> | undefined
    const run = this.asPutBack(
      () =>
        (running ??= remove().then(
          () => undefined,
          () => undefined
        ))
    )
    const unregister = this.untilClosed(run)
    return {
      run: async () => {
        await run()
        unregister()
      },
      drop: unregister,
    }
  }

  /** A client whose connections are tracked by `scope` and never start an adb server. */
  private client(scope: SocketScope): ServerClient {
    return new ServerClient(this.host, this.port, scope)
  }

  /**
   * Runs `fn` with a fresh adbkit client under the time limit. On timeout every socket the call opened is
   * destroyed and a TimeoutError names the call; any adbkit error becomes an ArcError.
   *
   * A file transfer (`transfer`) has a limit grown by the size the device claims, so it is also held to the slowest
   * rate a transfer may have (TRANSFER_FLOOR_BYTES_PER_MS, 1 MiB/s): once the server's own limit has passed, the
   * bytes its sockets moved both ways must keep up with that rate from then on, else it is a TimeoutError at once.
   * A server or link that trickles bytes cannot keep a transfer going for the time its claimed size would allow.
   */
  async call<T>(
    what: string,
    serial: string | undefined,
    fn: (client: ServerClient) => PromiseLike<T>,
    timeoutMs = this.timeoutMs,
    transfer = false
  ): Promise<T> {
    this.refuseAfterShutdown(what, serial)
    const scope = new SocketScope()
    // A put-back's calls are not the close's to end: close() cutting a restore's step short would leave the device
    // as the cut-off work left it. They get a short limit of their own instead, so a device that stopped answering
    // holds a cancelled call's end for seconds, not the whole per-command limit per step.
    if (puttingBack.getStore() === this) timeoutMs = Math.min(timeoutMs, PUT_BACK_LIMIT_MS)
    else this.scopes.add(scope)
    let timer: NodeJS.Timeout | undefined
    let pace: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      if (transfer) {
        const started = Date.now()
        pace = setInterval(
          () => {
            const elapsed = Date.now() - started
            const due = (elapsed - this.timeoutMs) * TRANSFER_FLOOR_BYTES_PER_MS
            const moved = scope.bytesMoved()
            if (due <= 0 || moved >= due) return
            scope.destroyAll()
            reject(
              new TimeoutError(
                `${what} on ${serial ?? `the adb server at ${this.address}`} moved ${moved} bytes in ${elapsed} ms: slower than 1 MiB/s, the slowest transfer arc waits for`,
                {
                  details: {serial, elapsed_ms: elapsed, bytes: moved},
                  actions: [
                    'Check the link to the device (cable, USB port, Wi-Fi) and what serves the adb port, then run it again.',
                  ],
                }
              )
            )
          },
          Math.min(PACE_CHECK_MS, this.timeoutMs)
        )
      }
      timer = setTimeout(() => {
        scope.destroyAll()
        reject(
          new TimeoutError(
            `${what} on ${serial ?? `the adb server at ${this.address}`} timed out after ${timeoutMs} ms`,
            {
              details: {serial, timeout_ms: timeoutMs},
              actions: [
                'Check that the device responds (`adb shell echo ok`); raise `adb.timeoutMs` in the config for slow devices.',
              ],
            }
          )
        )
      }, timeoutMs)
    })
    const work = Promise.resolve().then(() => fn(this.client(scope)))
    work.catch(() => {}) // a late failure after a timeout has nobody to tell
    try {
      return await Promise.race([work, timeout])
    } catch (error) {
      throw mapAdbError(error, {what, host: this.host, port: this.port, serial})
    } finally {
      clearTimeout(timer)
      clearInterval(pace)
      scope.destroyAll()
      this.scopes.delete(scope)
    }
  }

  /** `host:devices`: every device the server knows, in any state. */
  listDevices(): Promise<AttachedDevice[]> {
    return this.call('list devices', undefined, async (client) =>
      (await client.listDevices()).map((d: {id: string; type: string}) => ({serial: d.id, state: d.type}))
    )
  }

  /**
   * Runs one shell command (`shell:<command>; echo <marker>$?`) and returns what it printed and its exit status.
   * When the output ends without the trailer, the device is checked: gone or no longer ready gives a
   * DeviceUnavailableError, otherwise a DeviceCommandError says the output was cut short.
   */
  shell(serial: string, command: string, timeoutMs?: number, limit?: OutputLimit): Promise<ShellResult> {
    return this.runMarked(serial, command, timeoutMs, async (client, line) =>
      readStream(await client.getDevice(serial).shell(line), limit)
    )
  }

  /**
   * Runs one command over `exec:` with the same exit trailer as shell(): adbd before Android 7 runs `shell:` in a
   * terminal, which writes every LF its command prints as CR LF, while `exec:` is raw there too (services.cpp:
   * SUBPROC_RAW). For output that must arrive as the device wrote it where shell protocol v2 is missing.
   */
  execRun(serial: string, command: string, timeoutMs?: number): Promise<ShellResult> {
    return this.runMarked(serial, command, timeoutMs, async (client, line) => {
      const conn = await client.getDevice(serial).transport()
      conn.write(Protocol.encodeData(`exec:${line}`))
      const reply = await conn.parser.readAscii(4)
      if (reply !== Protocol.OKAY) await conn.parser.readError()
      return readStream(conn.parser.raw())
    })
  }

  /**
   * Runs `command` with the exit trailer (`; echo <marker>$?`) through `read` (a `shell:` or an `exec:` stream) and
   * returns its output and exit status. When the output ends without the trailer, the device is checked (gone or no
   * longer ready: DeviceUnavailableError), else the output was cut short (DeviceCommandError).
   */
  private async runMarked(
    serial: string,
    command: string,
    timeoutMs: number | undefined,
    read: (client: ServerClient, line: string) => Promise<Buffer>
  ): Promise<ShellResult> {
    const line = `${command}; echo ${EXIT_MARKER}$?`
    checkCommandLength(line)
    const what = shownCommand(command)
    const data = await this.call(what, serial, (client) => read(client, line), timeoutMs)
    const split = splitExitTrailer(data)
    if (split) return {command, ...split}
    if (!this.open) throw cutOff(what, serial)
    await this.assertAttached(serial, what)
    throw new DeviceCommandError(`${what} on ${serial} ended before finishing: the connection closed mid-output`, {
      details: {serial, bytes: data.length},
      actions: ['Run the command again; if it keeps happening, check the cable or the network path to the device.'],
    })
  }

  /**
   * Sends a host file to the device over `sync:` (SEND), mode 0644. The time limit grows with the file (1 s per
   * MiB on top of the usual limit), since an APK can be large.
   */
  async push(serial: string, localPath: string, remotePath: string, bytes: number): Promise<void> {
    const timeoutMs = this.timeoutMs + transferAllowanceMs(bytes)
    await this.call(
      `push to ${remotePath}`,
      serial,
      async (client) => {
        // The host file's read errors (gone, unreadable) are this call's failure: adbkit listens for none on the
        // stream it is given, and an 'error' event nobody listens for ends the process.
        const source = createReadStream(localPath)
        const unreadable = new Promise<never>((_, reject) =>
          source.once('error', (error) => reject(new Error(`cannot read ${localPath}: ${error.message}`)))
        )
        unreadable.catch(() => {})
        try {
          const transfer = await Promise.race([client.getDevice(serial).push(source, remotePath, 0o644), unreadable])
          await Promise.race([
            new Promise<void>((resolve, reject) => {
              transfer.once('end', () => resolve())
              transfer.once('error', reject)
            }),
            unreadable,
          ])
        } finally {
          source.destroy()
        }
      },
      timeoutMs,
      true
    )
  }

  /** Reads a device file over `sync:` (RECV) into memory. */
  async pull(serial: string, remotePath: string, timeoutMs?: number): Promise<Buffer> {
    return this.call(
      `pull ${remotePath}`,
      serial,
      async (client) => {
        const transfer = await client.getDevice(serial).pull(remotePath)
        return new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = []
          transfer.on('data', (chunk: Buffer) => chunks.push(chunk))
          transfer.once('end', () => resolve(Buffer.concat(chunks)))
          transfer.once('error', reject)
        })
      },
      timeoutMs
    )
  }

  /**
   * Runs a command over shell protocol v2 (`shell,v2,raw:`), which keeps stdout and stderr apart and carries the
   * exit status. Resolves to undefined when the device lacks the `shell_v2` feature (adbd before Android 7).
   */
  async shellV2(serial: string, command: string, timeoutMs?: number): Promise<ShellV2Result | undefined> {
    checkCommandLength(command)
    const what = shownCommand(command)
    const result = await this.call(
      what,
      serial,
      async (client) => {
        const features = await request(await client.connection(), `host-serial:${serial}:features`)
        if (!features.toString('utf8').split(',').includes('shell_v2')) return undefined
        const conn = await client.getDevice(serial).transport()
        conn.write(Protocol.encodeData(`shell,v2,raw:${command}`))
        const reply = await conn.parser.readAscii(4)
        if (reply !== Protocol.OKAY) await conn.parser.readError()
        return readShellV2(conn.parser.raw())
      },
      timeoutMs
    )
    if (result === null) {
      if (!this.open) throw cutOff(what, serial)
      await this.assertAttached(serial, what)
      throw new DeviceCommandError(
        `${what} on ${serial} ended before finishing: the connection closed before the exit status`,
        {
          details: {serial},
        }
      )
    }
    return result
  }

  /**
   * Runs a command that keeps printing (`logcat` without `-d`) and hands each chunk to `onData` as it arrives,
   * until the command ends or `signal` aborts; aborting closes the stream, which ends the device process. Only
   * opening the stream is under the time limit.
   */
  async stream(serial: string, command: string, onData: (chunk: Buffer) => void, signal: AbortSignal): Promise<void> {
    checkCommandLength(command)
    if (signal.aborted) return
    const what = shownCommand(command)
    this.refuseAfterShutdown(what, serial)
    // Its own scope, not `call`'s: `call` closes its sockets when it returns, and this stream must outlive that.
    const scope = new SocketScope()
    this.scopes.add(scope)
    let timer: NodeJS.Timeout | undefined
    try {
      const opening = Promise.resolve().then(() => this.client(scope).getDevice(serial).shell(command))
      opening.catch(() => {})
      const stream = await Promise.race([
        opening,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            scope.destroyAll()
            reject(
              new TimeoutError(`${what} on ${serial} did not start within ${this.timeoutMs} ms`, {details: {serial}})
            )
          }, this.timeoutMs)
        }),
      ]).catch((error: unknown) => {
        throw mapAdbError(error, {what, host: this.host, port: this.port, serial})
      })
      clearTimeout(timer)
      await new Promise<void>((resolve, reject) => {
        signal.addEventListener('abort', () => resolve(), {once: true})
        stream.on('data', (chunk: Buffer) => onData(chunk))
        stream.once('error', (error: Error) =>
          signal.aborted ? resolve() : reject(mapAdbError(error, {what, host: this.host, port: this.port, serial}))
        )
        stream.once('end', () => resolve())
        stream.once('close', () => resolve())
      })
    } finally {
      clearTimeout(timer)
      scope.destroyAll()
      this.scopes.delete(scope)
    }
  }

  /**
   * Opens `exec:<command>` (raw: the device process's stdin is what is written here, its stdout and stderr what is
   * read) and hands over the socket, which the caller owns from then on: it is not ended by close() or shutdown(),
   * so a resident device program (the on-device helper) can outlive the driver that started it. Only opening it is
   * under the time limit.
   */
  async openExec(serial: string, command: string): Promise<Socket> {
    checkCommandLength(command)
    const what = shownCommand(command)
    this.refuseAfterShutdown(what, serial)
    const scope = new SocketScope()
    let timer: NodeJS.Timeout | undefined
    const opening = (async () => {
      const conn = await this.client(scope).getDevice(serial).transport()
      conn.write(Protocol.encodeData(`exec:${command}`))
      const reply = await conn.parser.readAscii(4)
      if (reply !== Protocol.OKAY) await conn.parser.readError()
      return conn.socket as Socket
    })()
    opening.catch(() => {})
    try {
      return await Promise.race([
        opening,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            scope.destroyAll()
            reject(
              new TimeoutError(`${what} on ${serial} did not start within ${this.timeoutMs} ms`, {details: {serial}})
            )
          }, this.timeoutMs)
        }),
      ])
    } catch (error) {
      scope.destroyAll()
      throw mapAdbError(error, {what, host: this.host, port: this.port, serial})
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Starts a shell command that holds something on the device for as long as its connection stays open (a flock(2)
   * lock taken by a shell that then waits on its stdin), and resolves once its output holds `ready`: `release()`
   * closes the connection, which ends the shell (adbd closes its stdin, or hangs up its terminal) and so the hold.
   * A command that ends without printing `ready` resolves with its output and exit status instead. Waiting for
   * `ready` is bounded by `timeoutMs`; past it the connection is closed and `timedOut()` is thrown.
   */
  async hold(
    serial: string,
    command: string,
    ready: string,
    timedOut: () => Error,
    timeoutMs = this.timeoutMs
  ): Promise<{held: true; release(): void} | {held: false; output: string; exitCode?: number}> {
    const line = `${command}; echo ${EXIT_MARKER}$?`
    checkCommandLength(line)
    const what = shownCommand(command)
    this.refuseAfterShutdown(what, serial)
    const scope = new SocketScope()
    this.scopes.add(scope)
    const release = () => {
      scope.destroyAll()
      this.scopes.delete(scope)
    }
    let timer: NodeJS.Timeout | undefined
    try {
      const outcome = await new Promise<{held: true} | {held: false; output: string; exitCode?: number}>(
        (resolve, reject) => {
          timer = setTimeout(() => reject(timedOut()), timeoutMs)
          let seen = Buffer.alloc(0)
          const ended = () => {
            const split = splitExitTrailer(seen)
            resolve({held: false, output: (split?.output ?? seen).toString('utf8'), exitCode: split?.exitCode})
          }
          this.client(scope)
            .getDevice(serial)
            .shell(line)
            .then(
              (stream) => {
                stream.on('data', (chunk: Buffer) => {
                  // Only the start matters: a holder prints its marker and then nothing (bounded, whatever it sends).
                  if (seen.length < 4096) seen = Buffer.concat([seen, chunk])
                  if (seen.includes(ready) && !seen.includes(EXIT_MARKER)) resolve({held: true})
                })
                stream.once('error', (error: Error) =>
                  reject(mapAdbError(error, {what, host: this.host, port: this.port, serial}))
                )
                stream.once('end', ended)
                stream.once('close', ended)
              },
              (error: unknown) => reject(mapAdbError(error, {what, host: this.host, port: this.port, serial}))
            )
        }
      )
      clearTimeout(timer)
      if (!outcome.held) {
        release()
        return outcome
      }
      return {held: true, release}
    } catch (error) {
      clearTimeout(timer)
      release()
      throw error
    }
  }

  /**
   * `host-serial:TARGET:get-state`: the state of the one device the server matches to TARGET the way `adb -s`
   * does (the serial; for a network device its host without the port; the devpath `usb:1-4`; `model:M`…).
   * DeviceNotFoundError when none matches, DeviceAmbiguousError when several do.
   */
  targetState(target: string): Promise<string> {
    return this.call('find the device', target, async (client) =>
      (await request(await client.connection(), `host-serial:${target}:get-state`)).toString('utf8').trim()
    )
  }

  /**
   * The serial of the device the server matches to `target` (`host-serial:TARGET:get-serialno`, the value reply
   * /work/shared/docs/adb.md lists with get-state): what `adb devices` lists for a device named by another form.
   */
  targetSerial(target: string): Promise<string> {
    return this.call('find the device', target, async (client) =>
      (await request(await client.connection(), `host-serial:${target}:get-serialno`)).toString('utf8').trim()
    )
  }

  /** Throws DeviceUnavailableError when `serial` is no longer attached, or attached but not ready. */
  async assertAttached(serial: string, what: string): Promise<void> {
    const state = await this.targetState(serial).catch((error: unknown) => {
      if (!(error instanceof DeviceNotFoundError)) throw error
      throw new DeviceUnavailableError(`device ${serial} disconnected during ${what}`, {
        details: {serial},
        actions: ['Reconnect the device, check `arc devices`, then run the command again.'],
      })
    })
    if (state !== 'device') throw unavailableState(serial, state)
  }

  /** Ends every call still running. */
  close(): void {
    for (const scope of this.scopes) scope.destroyAll()
    this.scopes.clear()
  }

  /**
   * Registers `putBack`, which undoes a change made on the device (a keyboard switched for typing), to run if the
   * work is cut off before it puts things back itself: `shutdown` ends the calls still running, then runs it. The
   * returned function unregisters it, once the work has put things back.
   */
  untilClosed(putBack: () => Promise<unknown>): () => void {
    this.undo.add(putBack)
    return () => this.undo.delete(putBack)
  }

  /** True once shutdown() began: work still running was cut off and must not go on to its next step. */
  get shuttingDown(): boolean {
    return this.shutDown
  }

  /** close(), then whatever `untilClosed` registered and nothing unregistered, each tried once, failures ignored. */
  async shutdown(): Promise<void> {
    this.shutDown = true
    this.close()
    const pending = [...this.undo]
    this.undo.clear()
    await Promise.all(pending.map((putBack) => puttingBack.run(this, putBack).catch(() => undefined)))
  }
}

/** A command whose output ended because shutdown() closed its connection: cut off, not a device that went away. */
function cutOff(what: string, serial: string): CancelledError {
  return new CancelledError(
    `${what} on ${serial} was cut off: the connection to the device was closed (the call was cancelled or its driver closed)`,
    {details: {serial}}
  )
}

/** One host request answered with OKAY and a length-prefixed value (`host-serial:S:features`). */
async function request(conn: Connection, service: string): Promise<Buffer> {
  conn.write(Protocol.encodeData(service))
  const reply = await conn.parser.readAscii(4)
  if (reply !== Protocol.OKAY) await conn.parser.readError()
  // The value's length is 4 hex digits (adb's SERVICES.TXT): anything else is not an adb server answering, and must
  // not read as an empty answer (a program on the port that says OKAY then garbage listed "no devices", exit 0).
  const length = (await conn.parser.readBytes(4)) as Buffer
  if (!/^[0-9a-fA-F]{4}$/.test(length.toString('latin1'))) {
    conn.end()
    throw new DeviceUnavailableError(
      `the adb server answered ${service} with OKAY and then ${JSON.stringify(length.toString('latin1'))} where the answer's length (4 hex digits) belongs: that is not an adb server`,
      {
        details: {service, received: length.toString('latin1')},
        actions: [
          'Check what listens on the adb port (ADB_SERVER_SOCKET, --adb-host/--adb-port; default 5037), then `adb kill-server && adb start-server`.',
        ],
      }
    )
  }
  const value = (await conn.parser.readBytes(Number.parseInt(length.toString('latin1'), 16))) as Buffer
  conn.end()
  return value
}

/**
 * Reads shell v2 packets (id byte, little-endian length, payload: 1 stdout, 2 stderr, 3 exit status) to the end.
 * Resolves to null when the stream ends without an exit packet (the device went away).
 */
function readShellV2(stream: Duplex): Promise<ShellV2Result | null> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = []
    const err: Buffer[] = []
    let pending = Buffer.alloc(0)
    let exitCode: number | undefined
    stream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 5) {
        const length = pending.readUInt32LE(1)
        if (pending.length < 5 + length) break
        const id = pending[0]
        const payload = pending.subarray(5, 5 + length)
        pending = pending.subarray(5 + length)
        if (id === 1) out.push(payload)
        else if (id === 2) err.push(payload)
        else if (id === 3) exitCode = payload[0] ?? 0
      }
    })
    const finish = () =>
      resolve(exitCode === undefined ? null : {stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode})
    stream.once('error', reject)
    stream.once('end', finish)
    stream.once('close', finish)
  })
}

/**
 * Reads a shell stream to its end. A stream that closes with an error (the connection was reset because the
 * device vanished) rejects instead of returning the partial output.
 */
/**
 * A bound on what a shell command's output may hold: past `maxBytes` (the exit trailer's few bytes allowed on top)
 * the stream is closed, ending the device command, and the call fails with `error()`, so nothing larger is ever in
 * memory.
 */
export interface OutputLimit {
  maxBytes: number
  error(): Error
}

/** A command as errors name it: in backquotes, its first 60 characters. */
function shownCommand(command: string): string {
  return `\`${command.length > 60 ? `${command.slice(0, 60)}…` : command}\``
}

function readStream(stream: Duplex, limit?: OutputLimit): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let bytes = 0
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length
      if (limit && bytes > limit.maxBytes + 64) {
        stream.destroy()
        reject(limit.error())
        return
      }
      chunks.push(chunk)
    })
    stream.once('error', reject)
    stream.once('end', () => resolve(Buffer.concat(chunks)))
    stream.once('close', () => resolve(Buffer.concat(chunks)))
  })
}
