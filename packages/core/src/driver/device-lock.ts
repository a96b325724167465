/**
 * One user of a device at a time. A screen read and the tap it decides must see the device alone: a tap resolved on
 * one screen and sent after another caller pressed BACK lands on whatever the new screen shows there, and Android
 * runs one UiAutomation at a time (a second `uiautomator dump` dies with `UiAutomationService … already
 * registered!`). So every read of the screen and every input goes through the device's critical section, and an
 * element action holds it from the read that resolves its id to the last input it sends.
 *
 * The section has two levels, taken in this order and given back in the reverse one:
 * - **in this process**: a first-come-first-served queue per device key (adb server and serial). An MCP server's
 *   calls and a batch's lines queue here; a caller whose signal aborts (Ctrl-C, an MCP cancel, a closed driver)
 *   leaves the queue at once and never runs.
 * - **across processes on this machine**: a lock whose holder is a listening Unix socket named after the device.
 *   The kernel refuses a second listener (EADDRINUSE) and closes the socket when its process ends, however it ends,
 *   so a crashed holder never leaves a lock behind. On Linux the name is in the abstract namespace (no file at all),
 *   on Windows it is a named pipe (gone with its process too); elsewhere it is a socket file in arc's cache folder,
 *   which a waiter that finds nobody listening on it deletes as stale. A waiter connects to the holder and waits
 *   for that connection to close (the holder closes it when it lets go, the kernel when the holder dies), then tries
 *   again: no polling, and no lock ever blocks forever.
 *
 * A section is re-entrant within its own async context (AsyncLocalStorage): the driver's reads and inputs inside an
 * element action's section run directly instead of queueing behind it. A section that ended does not count for
 * work it left running (an abandoned read queues again like any other caller).
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import {createHash} from 'node:crypto'
import {mkdirSync, rmSync} from 'node:fs'
import net from 'node:net'
import path from 'node:path'

import {CancelledError} from '../errors/arc-error.js'
import {arcCacheDir} from '../state/cache-dir.js'

interface Held {
  key: string
  active: boolean
}

/**
 * The process's sections: kept on globalThis, so that two copies of this module in one process (arc's bundle and
 * a plugin's sources in development, a test importing the sources) still share one queue per device.
 */
interface Registry {
  holding: AsyncLocalStorage<Held[]>
  queues: Map<string, Queue>
  onWait?: (notice: WaitNotice) => void
}
const REGISTRY = Symbol.for('arc-cli.device-lock')
const registry: Registry =
  ((globalThis as Record<symbol, unknown>)[REGISTRY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY] = {
    holding: new AsyncLocalStorage<Held[]>(),
    queues: new Map(),
    onWait: debugNotice(),
  } satisfies Registry)
const {holding, queues} = registry

interface Waiter {
  grant(): void
}

interface Queue {
  busy: boolean
  waiters: Waiter[]
}

/** What a waiter hears while it waits (tests and DEBUG=arc*): the device and, when known, the process holding it. */
export type WaitNotice = {key: string; holder: 'this process'} | {key: string; holder: 'another process'; pid?: number}

/** DEBUG=arc*: a line on stderr for each wait, naming who holds the device. */
function debugNotice(): ((notice: WaitNotice) => void) | undefined {
  if (!/(^|,)\s*arc/.test(process.env.DEBUG ?? '')) return undefined
  return (n) => {
    const who =
      n.holder === 'this process' ? 'an earlier call of this process' : `arc process ${n.pid ?? '(pid unknown)'}`
    process.stderr.write(`arc: waiting for ${n.key}: ${who} is using it\n`)
  }
}

/** Replaces what a waiting caller reports (undefined: nothing); returns the one before. For tests. */
export function setWaitListener(
  listener: ((notice: WaitNotice) => void) | undefined
): ((notice: WaitNotice) => void) | undefined {
  const before = registry.onWait
  registry.onWait = listener
  return before
}

function aborted(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  return reason instanceof Error && !(reason instanceof DOMException)
    ? reason
    : new CancelledError('cancelled while waiting for the device to be free; nothing was sent')
}

/** Waits for this process's turn on `key`; returns the function that gives the turn to the next caller. */
function enterQueue(key: string, signal?: AbortSignal): Promise<() => void> {
  let queue = queues.get(key)
  if (!queue) queues.set(key, (queue = {busy: false, waiters: []}))
  const q = queue
  const release = () => {
    const next = q.waiters.shift()
    if (next) next.grant()
    else {
      q.busy = false
      if (queues.get(key) === q) queues.delete(key)
    }
  }
  if (!q.busy) {
    q.busy = true
    return Promise.resolve(release)
  }
  if (signal?.aborted) return Promise.reject(aborted(signal))
  registry.onWait?.({key, holder: 'this process'})
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      grant: () => {
        signal?.removeEventListener('abort', leave)
        resolve(release)
      },
    }
    const leave = () => {
      const at = q.waiters.indexOf(waiter)
      if (at !== -1) q.waiters.splice(at, 1)
      reject(aborted(signal as AbortSignal))
    }
    signal?.addEventListener('abort', leave, {once: true})
    q.waiters.push(waiter)
  })
}

/** Callers waiting in this process's queue for `key`, and whether one holds it (tests observe the queue with it). */
export function queueState(key: string): {busy: boolean; waiting: number} {
  const q = queues.get(key)
  return {busy: q?.busy ?? false, waiting: q?.waiters.length ?? 0}
}

/** Where socket files go on systems without abstract sockets or pipes; set by tests to try that form on Linux. */
let socketFileDir: string | undefined

/** Makes the machine-wide locks socket files in `dir` (undefined: the platform's own form). For tests. */
export function useSocketFiles(dir: string | undefined): void {
  socketFileDir = dir
}

/** The name of the machine-wide lock of a device key: abstract socket (Linux), named pipe (Windows), else a file. */
export function lockAddress(key: string, platform: NodeJS.Platform = process.platform): {path: string; file: boolean} {
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 32)
  if (socketFileDir !== undefined) return {path: path.join(socketFileDir, `${digest}.sock`), file: true}
  if (platform === 'linux') return {path: `\0arc-device-${digest}`, file: false}
  if (platform === 'win32') return {path: `\\\\?\\pipe\\arc-device-${digest}`, file: false}
  return {path: path.join(arcCacheDir(), 'locks', `${digest}.sock`), file: true}
}

/**
 * Listens on the lock's name: the function that lets the lock go when this process got it, undefined when another
 * process holds it.
 */
function tryListen(address: {path: string; file: boolean}): Promise<(() => Promise<void>) | undefined> {
  if (address.file) mkdirSync(path.dirname(address.path), {recursive: true})
  const waiters = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined)
    // Kept open until the lock is let go: a waiter's connection closing is its signal to try again.
    socket.write(`${process.pid}\n`)
    socket.resume()
    socket.unref()
    waiters.add(socket)
    socket.once('close', () => waiters.delete(socket))
  })
  const unlock = () =>
    new Promise<void>((resolve) => {
      for (const socket of waiters) socket.destroy()
      server.close(() => resolve())
    })
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)
    )
    server.listen({path: address.path}, () => {
      // Holding a device must not keep a finished process alive.
      server.unref()
      resolve(unlock)
    })
  })
}

/**
 * Waits until the process holding the lock lets go (its socket closes) or the signal aborts. Resolves at once when
 * nobody is listening any more (a socket file left by a crash is deleted first).
 */
function waitForHolder(key: string, address: {path: string; file: boolean}, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({path: address.path})
    let told = false
    let settled = false
    const done = (error?: Error) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', abort)
      socket.destroy()
      if (error) reject(error)
      else resolve()
    }
    const abort = () => done(aborted(signal as AbortSignal))
    if (signal?.aborted) return abort()
    signal?.addEventListener('abort', abort, {once: true})
    let text = ''
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      if (!told && text.includes('\n')) {
        told = true
        const pid = Number.parseInt(text, 10)
        registry.onWait?.({key, holder: 'another process', ...(Number.isSafeInteger(pid) ? {pid} : {})})
      }
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (address.file && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT'))
        rmSync(address.path, {force: true})
      done()
    })
    socket.on('close', () => done())
  })
}

/** Takes the machine-wide lock of `key`; returns the function that lets it go. */
async function lockMachine(key: string, signal?: AbortSignal): Promise<() => Promise<void>> {
  const address = lockAddress(key)
  for (;;) {
    if (signal?.aborted) throw aborted(signal)
    const unlock = await tryListen(address)
    if (unlock) return unlock
    await waitForHolder(key, address, signal)
  }
}

/** True when this async context is inside a live section of `key`. */
export function holdsDevice(key: string): boolean {
  return holding.getStore()?.some((h) => h.key === key && h.active) ?? false
}

/**
 * Runs `work` as the only user of the device `key` (`<adb server>/<serial>`) in this process and among arc
 * processes on this machine. Inside a section of the same key it runs at once (re-entrant). A `signal` that aborts
 * while waiting takes the caller out of the queue and rejects (the signal's reason, else CANCELLED).
 */
export async function withDeviceLock<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (holdsDevice(key)) return work()
  const leaveQueue = await enterQueue(key, signal)
  let unlock: () => Promise<void>
  try {
    unlock = await lockMachine(key, signal)
  } catch (error) {
    leaveQueue()
    throw error
  }
  const held: Held = {key, active: true}
  const outer = (holding.getStore() ?? []).filter((h) => h.active)
  try {
    return await holding.run([...outer, held], work)
  } finally {
    held.active = false
    try {
      await unlock()
    } finally {
      leaveQueue()
    }
  }
}
