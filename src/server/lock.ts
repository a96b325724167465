/**
 * One `arc server` per installation, however many start at once. Finding no server and then listening is two steps:
 * two starts in the same moment both found none, and the later one removed the earlier one's socket (taking it for
 * a dead server's) and listened in its place, so the earlier one ran on unreachable, holding its devices, until its
 * --idle. So a server first takes this lock, and only its holder looks at the socket, removes a dead server's and
 * listens. The lock is a listening Unix socket, which the kernel lets one process hold and frees when that process
 * ends, however it ends (core's claimSocket, as arc's device lock is, packages/core/src/driver/device-lock.ts): on Linux in the abstract
 * namespace (no file, so none is left behind); elsewhere a socket file beside the server's own, in the user's private
 * folder, which a start that finds nobody listening on removes as a crashed server's (two starts in the same moment
 * after such a crash can still both take it there: macOS has no abstract namespace, and Node no flock).
 */
import {createHash} from 'node:crypto'
import {mkdirSync} from 'node:fs'
import path from 'node:path'

import {claimSocket, type SocketClaim} from '@arc-cli/core'

/** The lock of the server on `socket`. */
export function serverLockAddress(socket: string, platform: NodeJS.Platform = process.platform): string {
  // As long as the socket's path, which arc server checked fits a socket's address.
  if (platform !== 'linux') return socket.replace(/\.sock$/, '.lock')
  return `\0arc-server-${createHash('sha256').update(socket).digest('hex').slice(0, 32)}`
}

/** The lock taken (`release` lets it go: the server stops listening), or the holder's pid when it told it. */
export type ServerLock = SocketClaim

/** Takes the lock of the server on `socket`, or says who holds it. */
export async function takeServerLock(
  socket: string,
  platform: NodeJS.Platform = process.platform
): Promise<ServerLock> {
  const address = serverLockAddress(socket, platform)
  // A file lock lives in the server's folder, which a first start makes (the user's alone, as Host.listen wants it).
  if (!address.startsWith('\0')) mkdirSync(path.dirname(address), {recursive: true, mode: 0o700})
  return claimSocket(address, !address.startsWith('\0'))
}
