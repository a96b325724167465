/**
 * The host side of arc's on-device helper (packages/core/helper): puts the dex on the device when it lacks that
 * exact build (named by its sha256, packages/core/src/driver/device-helper.ts), starts it with `app_process` over
 * adb's `exec:` service, and speaks its framed protocol on the stream's stdin and stdout (the helper's Frames.java:
 * a request is u32 length, u32 id, u8 word count, words as u32 length + UTF-8; a response u32 length, u32 id, u8
 * status 0 done / 1 failed / 2 hello, payload). `exec:` carries both ways through a remote adb server, a device
 * farm and `arc emulate` alike.
 *
 * One session per device per adb server for the life of the process (an MCP server's calls, a batch's lines), kept
 * in `sessions`; its socket does not keep a one-shot CLI alive (unref'd while no request waits). What could not
 * start is remembered as well (`unavailable`), for a minute: a device without app_process is asked once a minute,
 * not per call, and a device that was busy or booting when a long-lived host (an MCP server, `arc server`) first
 * asked gets its helper back instead of a slow read for the rest of the host's life.
 */
import {randomBytes} from 'node:crypto'
import type {Socket} from 'node:net'

import {CancelledError, InvalidInputError} from '../../errors/arc-error.js'
import {DEFAULT_HELPER_HOLD_MS, helperBuild, helperDevicePath, HELPER_DEX} from '../device-helper.js'
import type {DeviceShell} from './device-shell.js'
import {statFile} from './files.js'
import {shq} from './shell-quote.js'

export type {HelperMode} from '../device-helper.js'

// Any other status (1) is a failure: its payload is CODE<TAB>message.
const STATUS_OK = 0
const STATUS_HELLO = 2
const HELLO_MARK = Buffer.from('\x02arc-helper ', 'latin1')
/** What a device printed before the helper's hello (a shell error, an ART exception) is kept up to this size. */
const PREAMBLE_LIMIT = 4096
/** Responses larger than this are a broken stream, not a screen. */
const MAX_RESPONSE = 64 << 20
/** The largest request frame the helper reads (Frames.MAX_REQUEST): a longer one ends its session as broken. */
export const MAX_HELPER_REQUEST = 4 << 20

/**
 * Why the helper did not serve: `start` (no app_process, the class did not load, the stream ended before the
 * hello), `push` (the device refused the file), `gone` (it ended mid-session), `timeout`, or the helper's own
 * refusal codes: UNSUPPORTED, UIAUTOMATION_BUSY, FAILED, BAD_REQUEST, and DISPLAY_OFF for a touch refused before
 * anything was injected because the device is not interactive.
 */
export class HelperFailure extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
    this.name = 'HelperFailure'
  }
}

/**
 * The helper's start was cut off by the starting driver's close (a cancelled call): nothing was learned of the device.
 * Not remembered as unavailable; a caller that shared the start and was not cancelled starts it again (helperSession).
 */
class StartCutOff extends Error {
  constructor(cause: unknown) {
    super(`the helper's start was cut off: ${(cause as Error).message}`, {cause})
    this.name = 'StartCutOff'
  }
}

export interface HelperHello {
  protocol: number
  sdk: number | undefined
  /** What the helper found missing on this release (`uiautomation`, `input`, `clipboard`, `paste` before API 24). */
  missing: string[]
}

/** What starting took: whether the dex was pushed, and how long push, launch and hello took in all. */
export interface HelperStart {
  pushed: boolean
  ms: number
}

/** Encodes one request frame. */
export function encodeRequest(id: number, words: string[]): Buffer {
  const parts = words.map((w) => Buffer.from(w, 'utf8'))
  const body = Buffer.alloc(5 + parts.reduce((n, p) => n + 4 + p.length, 0))
  body.writeUInt32BE(id, 0)
  body[4] = words.length
  let at = 5
  for (const part of parts) {
    body.writeUInt32BE(part.length, at)
    part.copy(body, at + 4)
    at += 4 + part.length
  }
  const head = Buffer.alloc(4)
  head.writeUInt32BE(body.length, 0)
  return Buffer.concat([head, body])
}

interface Pending {
  resolve(payload: Buffer): void
  reject(error: HelperFailure): void
  timer: NodeJS.Timeout
}

export class HelperSession {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private buffer: Buffer = Buffer.alloc(0)
  private ended?: HelperFailure

  private constructor(
    private readonly socket: Socket,
    readonly serial: string,
    readonly hello: HelperHello,
    readonly start: HelperStart,
    private readonly onEnd: () => void
  ) {}

  get alive(): boolean {
    return this.ended === undefined
  }

  /**
   * Puts the dex on the device if needed and starts it. Fails with HelperFailure `push` or `start`, naming what the
   * device said.
   */
  static async open(dev: DeviceShell, onEnd: () => void, idleMs = DEFAULT_HELPER_HOLD_MS): Promise<HelperSession> {
    const began = performance.now()
    let pushed = await ensureDex(dev, false)
    const launched = await launch(dev, idleMs).catch(async (error: unknown) => {
      // A file under the build's name that does not load (cut short, or damaged): put it there again, once.
      if (
        pushed ||
        !(error instanceof HelperFailure) ||
        error.code !== 'start' ||
        !/ClassNotFound|dex|ClassLoader/i.test(error.message)
      )
        throw error
      pushed = await ensureDex(dev, true)
      return launch(dev, idleMs)
    })
    const session = new HelperSession(
      launched.socket,
      dev.serial,
      launched.hello,
      {pushed, ms: performance.now() - began},
      onEnd
    )
    session.listen(launched.rest)
    return session
  }

  /** Takes over the stream `launch` paused after the hello: what came with the hello first, then the rest. */
  private listen(rest: Buffer): void {
    const socket = this.socket
    if (rest.length > 0) this.receive(rest)
    socket.on('data', (chunk: Buffer) => this.receive(chunk))
    socket.on('error', () => {})
    socket.once('close', () =>
      this.end(new HelperFailure('gone', `the helper on ${this.serial} ended (its stream closed)`))
    )
    socket.unref()
    socket.resume()
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0)
      if (length < 5 || length > MAX_RESPONSE) {
        this.end(new HelperFailure('gone', `the helper on ${this.serial} sent a broken frame (${length} bytes)`))
        this.socket.destroy()
        return
      }
      if (this.buffer.length < 4 + length) return
      const id = this.buffer.readUInt32BE(4)
      const status = this.buffer[8] as number
      const payload = this.buffer.subarray(9, 4 + length)
      this.buffer = this.buffer.subarray(4 + length)
      const waiting = this.pending.get(id)
      if (!waiting || status === STATUS_HELLO) continue
      this.settle(id)
      if (status === STATUS_OK) waiting.resolve(Buffer.from(payload))
      else {
        const text = payload.toString('utf8')
        const tab = text.indexOf('\t')
        waiting.reject(new HelperFailure(tab < 0 ? 'FAILED' : text.slice(0, tab), tab < 0 ? text : text.slice(tab + 1)))
      }
    }
  }

  private settle(id: number): void {
    const waiting = this.pending.get(id)
    if (waiting) clearTimeout(waiting.timer)
    this.pending.delete(id)
    if (this.pending.size === 0) this.socket.unref()
  }

  private end(failure: HelperFailure): void {
    if (this.ended) return
    this.ended = failure
    for (const [id, waiting] of [...this.pending]) {
      this.settle(id)
      waiting.reject(failure)
    }
    this.onEnd()
  }

  /**
   * Sends one request and resolves to its payload; rejects with the helper's refusal (its code and message), or
   * `timeout` after `timeoutMs`, which ends the session: a helper that stopped answering cannot be trusted with the
   * next request.
   */
  request(words: string[], timeoutMs: number): Promise<Buffer> {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.nextId++
    // Refused before a byte is sent: UTF-8 would write U+FFFD for a lone surrogate (other text than asked), and a
    // frame over the helper's limit would end the session as a broken stream.
    const lone = words.findIndex((w) => /\p{Cs}/u.test(w))
    if (lone !== -1) {
      return Promise.reject(
        new InvalidInputError(
          `the helper's \`${words[0]}\` cannot carry a lone surrogate (half of a UTF-16 pair: it has no UTF-8)`,
          {details: {operation: words[0]}}
        )
      )
    }
    const frame = encodeRequest(id, words)
    if (frame.length - 4 > MAX_HELPER_REQUEST) {
      return Promise.reject(
        new InvalidInputError(
          `the helper's \`${words[0]}\` would be ${frame.length - 4} bytes, over the ${MAX_HELPER_REQUEST} bytes (4 MiB) one helper request may hold; nothing was sent`,
          {details: {operation: words[0], bytes: frame.length - 4, limit: MAX_HELPER_REQUEST}}
        )
      )
    }
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)
        reject(
          new HelperFailure(
            'timeout',
            `the helper on ${this.serial} did not answer \`${words[0]}\` within ${timeoutMs} ms`
          )
        )
        this.close()
      }, timeoutMs)
      this.pending.set(id, {resolve, reject, timer})
      this.socket.ref()
      this.socket.write(frame)
    })
  }

  /** Ends the helper: closing its stdin ends its loop, it lets go of UiAutomation and exits. */
  close(): void {
    this.end(new HelperFailure('gone', `the helper on ${this.serial} was closed`))
    this.socket.destroy()
  }
}

/**
 * Makes sure the device holds this build of the dex at its hashed name: a sync STAT of the size, a push (to a
 * temporary name, then renamed, so a cut-off push never leaves a short file under the name) when it is missing, of another size, or `force`. Returns whether it
 * pushed. HelperFailure `push` where the device refused.
 */
async function ensureDex(dev: DeviceShell, force: boolean): Promise<boolean> {
  const build = helperBuild()
  const target = helperDevicePath(build.sha256)
  if (!force) {
    const stat = await statFile(dev, target).catch(() => undefined)
    if (stat?.kind === 'file' && stat.size === build.bytes) return false
  }
  const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`
  // The temporary file goes with a failure, here or (the start cut off) by the driver's close.
  const cleanup = dev.server.cleanupIfCut(() => dev.run(['rm', '-f', temp]))
  try {
    await dev.server.push(dev.serial, HELPER_DEX, temp, build.bytes)
    await dev.action(['mv', '-f', temp, target], 'moving the helper into place')
    cleanup.drop()
  } catch (error) {
    await cleanup.run()
    // Cut off by its driver's close (a cancelled call): that says nothing of the device, so it is not remembered.
    if (dev.server.shuttingDown) throw new StartCutOff(error)
    throw new HelperFailure('push', `could not put the helper at ${target}: ${(error as Error).message}`)
  }
  return true
}

/**
 * The device command that starts the helper. `trap '' HUP` first: from Android 7.0 adbd runs `exec:` on a PTY in raw
 * mode (AOSP adb daemon/shell_service.cpp, StartSubprocess: "Can't create raw subprocess without shell protocol,
 * using PTY in raw mode instead"), so when arc's stream closes the kernel hangs the PTY up and sends SIGHUP. Ignored by
 * the shell, SIGHUP stays ignored in app_process (an ignored signal stays ignored across fork and execve; app_process
 * and ART install no SIGHUP handler), and the hangup reaches the helper as the end of its input: it lifts the fingers
 * it has down (ACTION_CANCEL), finishes a key press or a paste's clipboard put-back, and ends (Server.java).
 * Android 5-6 run `exec:` on a socket pair: no SIGHUP there, the same end of input.
 */
export function helperStartCommand(idleMs: number): string {
  return `trap '' HUP; CLASSPATH=${shq(helperDevicePath())} app_process / ${helperBuild().mainClass} --idle-ms ${idleMs}`
}

/** Starts the helper and waits for its hello; what came before it (linker warnings) is skipped. */
async function launch(dev: DeviceShell, idleMs: number): Promise<{socket: Socket; hello: HelperHello; rest: Buffer}> {
  const command = helperStartCommand(idleMs)
  let socket: Socket
  try {
    socket = await dev.server.openExec(dev.serial, command)
  } catch (error) {
    if (dev.server.shuttingDown) throw new StartCutOff(error)
    throw new HelperFailure('start', `could not start app_process on ${dev.serial}: ${(error as Error).message}`)
  }
  return new Promise((resolve, reject) => {
    let seen = Buffer.alloc(0)
    const timer = setTimeout(
      () => fail(`app_process gave no hello within ${dev.server.timeoutMs} ms`),
      dev.server.timeoutMs
    )
    const fail = (why: string) => {
      cleanup()
      socket.destroy()
      const said = seen.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 300)
      reject(
        new HelperFailure(
          'start',
          `the helper did not start on ${dev.serial}: ${why}${said ? `; the device said: ${said}` : ''}`
        )
      )
    }
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk])
      const mark = seen.indexOf(HELLO_MARK)
      if (mark < 0) {
        if (seen.length > PREAMBLE_LIMIT + 64) seen = seen.subarray(seen.length - PREAMBLE_LIMIT)
        return
      }
      if (mark < 8) return fail('a broken hello')
      const start = mark - 8
      if (seen.length < start + 4) return
      const length = seen.readUInt32BE(start)
      if (length > 4096) return fail('a broken hello')
      if (seen.length < start + 4 + length) return
      const text = seen.subarray(start + 9, start + 4 + length).toString('utf8')
      const [head = '', sdk, missing = ''] = text.split('\t')
      cleanup()
      socket.pause() // until the session listens: data with no listener would be lost
      resolve({
        socket,
        hello: {
          protocol: Number(head.split(' ')[1]),
          sdk: sdk && /^\d+$/.test(sdk) ? Number(sdk) : undefined,
          missing: missing ? missing.split(',') : [],
        },
        rest: seen.subarray(start + 4 + length),
      })
    }
    const onClose = () => fail('app_process ended before the helper said hello')
    const cleanup = () => {
      clearTimeout(timer)
      socket.off('data', onData)
      socket.off('close', onClose)
    }
    socket.on('error', () => {})
    socket.on('data', onData)
    socket.once('close', onClose)
  })
}

/** Helper sessions by device (adb server and serial), and devices where the helper could not start, and when. */
const sessions = new Map<string, Promise<HelperSession>>()
const unavailable = new Map<string, {failure: HelperFailure; at: number}>()

/**
 * How long a start that failed (`start`, `push`) stands for the device: within it every call uses ADB at once, after
 * it the next call tries the helper again. Failures that say nothing lasting (a start slower than the time limit on a
 * loaded phone, a device rebooting, a full /data/local/tmp) would otherwise cost a long-lived host its helper for good.
 */
let retryAfterMs = 60_000

/** Sets how long a failed start stands (tests); returns the previous value. */
export function setHelperRetryAfter(ms: number): number {
  const previous = retryAfterMs
  retryAfterMs = ms
  return previous
}

/** The failed start that still stands for this device, if any (one older than retryAfterMs is forgotten here). */
function standingFailure(key: string): HelperFailure | undefined {
  const known = unavailable.get(key)
  if (known && performance.now() - known.at < retryAfterMs) return known.failure
  unavailable.delete(key)
  return undefined
}

/**
 * The device's helper session: the running one, else a new one, which keeps UiAutomation `holdMs` after a read (a
 * running one keeps the hold it was started with); rejects with the reason it cannot run (remembered for
 * retryAfterMs: a device without app_process is not asked at every call). A session that ended is started again.
 */
export function helperSession(dev: DeviceShell, holdMs = DEFAULT_HELPER_HOLD_MS): Promise<HelperSession> {
  const known = standingFailure(dev.key)
  if (known) return Promise.reject(known)
  let session = sessions.get(dev.key)
  if (!session) {
    session = HelperSession.open(dev, () => sessions.delete(dev.key), holdMs)
    session.catch((error: unknown) => {
      sessions.delete(dev.key)
      if (error instanceof HelperFailure && (error.code === 'start' || error.code === 'push'))
        unavailable.set(dev.key, {failure: error, at: performance.now()})
    })
    sessions.set(dev.key, session)
  }
  const started = session
  return session.catch((error: unknown) => {
    if (!(error instanceof StartCutOff)) throw error
    // This caller's own driver closed: its call was cancelled. Another's: start the helper again for this one, with
    // the cut-off start forgotten here too (not left to the order in which handlers were attached to it).
    if (dev.server.shuttingDown) throw new CancelledError('the call was cancelled while the helper was starting')
    if (sessions.get(dev.key) === started) sessions.delete(dev.key)
    return helperSession(dev, holdMs)
  })
}

/** The device's helper session where one runs or is starting; undefined otherwise (nothing is started). */
export function runningHelperSession(dev: DeviceShell): Promise<HelperSession> | undefined {
  return sessions.get(dev.key)
}

/** Why the helper cannot run on this device, when an attempt showed it less than retryAfterMs ago. */
export function helperUnavailable(dev: DeviceShell): HelperFailure | undefined {
  return standingFailure(dev.key)
}

/** Ends every helper session of this process (tests; a server shutting down). */
export async function closeHelperSessions(): Promise<void> {
  const all = [...sessions.values()]
  sessions.clear()
  unavailable.clear()
  await Promise.all(all.map((s) => s.then((session) => session.close()).catch(() => undefined)))
}
