/**
 * One `arc server` per installation, however many start at once. Finding no server and then listening is two steps:
 * two starts in the same moment both found none, and the later one removed the earlier one's socket (taking it for
 * a dead server's) and listened in its place, so the earlier one ran on unreachable, holding its devices, until its
 * --idle. So a server first takes this lock, and only its holder looks at the socket, removes a dead server's and
 * listens. The lock is a listening Unix socket, which the kernel lets one process hold and frees when that process
 * ends, however it ends, as arc's device lock is (packages/core/src/driver/device-lock.ts): on Linux in the abstract
 * namespace (no file, so none is left behind); elsewhere a socket file beside the server's own, in the user's private
 * folder, which a start that finds nobody listening on removes as a crashed server's (two starts in the same moment
 * after such a crash can still both take it there: macOS has no abstract namespace, and Node no flock).
 */
import {createHash} from 'node:crypto'
import {mkdirSync, rmSync} from 'node:fs'
import net from 'node:net'
import path from 'node:path'

/** The lock of the server on `socket`. */
export function serverLockAddress(socket: string, platform: NodeJS.Platform = process.platform): string {
  // As long as the socket's path, which arc server checked fits a socket's address.
  if (platform !== 'linux') return socket.replace(/\.sock$/, '.lock')
  return `\0arc-server-${createHash('sha256').update(socket).digest('hex').slice(0, 32)}`
}

/** The lock taken (`release` lets it go: the server stops listening), or the holder's pid when it told it. */
export type ServerLock = {release(): void} | {heldBy: number | undefined}

/** Takes the lock of the server on `socket`, or says who holds it. */
export async function takeServerLock(
  socket: string,
  platform: NodeJS.Platform = process.platform
): Promise<ServerLock> {
  const address = serverLockAddress(socket, platform)
  // A file lock lives in the server's folder, which a first start makes (the user's alone, as Host.listen wants it).
  if (!address.startsWith('\0')) mkdirSync(path.dirname(address), {recursive: true, mode: 0o700})
  for (let attempt = 0; ; attempt++) {
    const held = await listenOn(address)
    if (held) return held
    const holder = await holderOf(address)
    if (holder !== 'nobody' || attempt > 0 || address.startsWith('\0'))
      return {heldBy: holder === 'nobody' ? undefined : holder}
    // A socket file nobody listens on: a crashed server's lock. Taken over once.
    rmSync(address, {force: true})
  }
}

function listenOn(address: string): Promise<{release(): void} | undefined> {
  const lock = net.createServer((conn) => {
    conn.on('error', () => undefined)
    // Whoever asks is told who holds it.
    conn.end(`${process.pid}\n`)
  })
  return new Promise((resolve, reject) => {
    lock.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(undefined) : reject(error)
    )
    lock.listen({path: address}, () => {
      // The server's own socket keeps the process alive; its lock must not once that is closed.
      lock.unref()
      resolve({
        release: () => {
          lock.close()
          if (!address.startsWith('\0')) rmSync(address, {force: true})
        },
      })
    })
  })
}

/** The pid the lock's holder tells, undefined when it tells none, 'nobody' when nothing listens there. */
function holderOf(address: string): Promise<number | undefined | 'nobody'> {
  return new Promise((resolve) => {
    let text = ''
    let connected = false
    const conn = net.connect({path: address})
    conn.on('connect', () => (connected = true))
    conn.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    conn.on('error', () => undefined)
    // A holder that is stopped (Ctrl-Z) accepts in the kernel but never writes: the pid is then unknown.
    const timer = setTimeout(() => conn.destroy(), 1000)
    conn.on('close', () => {
      clearTimeout(timer)
      if (!connected) return resolve('nobody')
      const pid = Number.parseInt(text, 10)
      resolve(Number.isSafeInteger(pid) && pid > 0 ? pid : undefined)
    })
  })
}
