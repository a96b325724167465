import {chmod, lstat, mkdir, open, readdir, unlink, utimes, writeFile} from 'node:fs/promises'
import type {Stats} from 'node:fs'
import type {Socket} from 'node:net'
import path from 'node:path'

import {accessError, errnoText, shellMayRead} from './device-files.js'
import {EndOfStream, type SocketReader, writeAsync} from './framing.js'
import type {VirtualDevice} from './virtual-device.js'

/** Largest DATA chunk adbd accepts or sends (SYNC_DATA_MAX). */
const SYNC_DATA_MAX = 64 * 1024
const MAX_PATH = 1024

function header(id: string, value: number): Buffer {
  const b = Buffer.alloc(8)
  b.write(id, 0, 'latin1')
  b.writeUInt32LE(value >>> 0, 4)
  return b
}

function fail(message: string): Buffer {
  const body = Buffer.from(message, 'utf8')
  return Buffer.concat([header('FAIL', body.length), body])
}

/** Mode bits as adbd reports them (type + permissions), from a host lstat. */
function modeOf(stats: Stats): number {
  return stats.mode & 0o177777
}

function stat3(stats: Stats | undefined): Buffer {
  const b = Buffer.alloc(12)
  if (stats) {
    b.writeUInt32LE(modeOf(stats), 0)
    // adbd's STAT reply and DENT carry the size in 32 bits: a file of 4 GiB and 5 bytes says 5.
    b.writeUInt32LE(stats.size % 0x1_0000_0000, 4)
    b.writeUInt32LE(Math.floor(stats.mtimeMs / 1000), 8)
  }
  return b
}

export type SyncRecorder = (argv: string[]) => void

/**
 * The `sync:` service (adb SYNC.TXT, file_sync_service.cpp): STAT (lstat; mode 0 when it fails, for a missing
 * path and one closed to the shell user alike), LIST (DENTs
 * including `.` and `..`, then DONE with a zeroed dent), RECV (DATA ≤ 64 KiB… DONE, or FAIL), SEND
 * (`path,mode`; DATA ≤ 64 KiB…; DONE carries the mtime; OKAY or FAIL), QUIT. Requests repeat on one
 * connection until QUIT or close.
 */
export async function runSync(
  reader: SocketReader,
  socket: Socket,
  device: VirtualDevice,
  record: SyncRecorder
): Promise<void> {
  const files = device.files
  try {
    for (;;) {
      let head: Buffer
      try {
        head = await reader.read(8)
      } catch {
        return
      }
      const id = head.toString('latin1', 0, 4)
      const length = head.readUInt32LE(4)
      if (id === 'QUIT') {
        record(['QUIT'])
        socket.end()
        return
      }
      if (!['STAT', 'LIST', 'RECV', 'SEND'].includes(id)) {
        await writeAsync(socket, fail(`unknown sync command ${JSON.stringify(id)}`))
        socket.end()
        return
      }
      if (length > MAX_PATH) {
        await writeAsync(socket, fail('path too long'))
        socket.end()
        return
      }
      const arg = (await reader.read(length)).toString('utf8')
      // A path whose links loop, or that leads through a folder the shell user may not search, resolves to
      // nothing: STAT answers zeros (adbd's lstat failed), LIST is empty, RECV and SEND fail with the errno.
      let unresolved: unknown
      const host = (followLast: boolean) => {
        try {
          return files.hostPath(arg, '/', followLast)
        } catch (error) {
          unresolved = error
          return undefined
        }
      }
      if (id === 'STAT') {
        record(['STAT', arg])
        const at = host(false)
        const stats = at === undefined ? undefined : await lstat(at).catch(() => undefined)
        await writeAsync(socket, Buffer.concat([Buffer.from('STAT', 'latin1'), stat3(stats)]))
      } else if (id === 'LIST') {
        record(['LIST', arg])
        await list(socket, host(true))
      } else if (id === 'RECV') {
        record(['RECV', arg])
        const at = host(true)
        if (at === undefined) await writeAsync(socket, fail(`open failed: ${errnoText(unresolved)}`))
        else await recv(socket, at)
      } else {
        const comma = arg.lastIndexOf(',')
        const target = comma >= 0 ? arg.slice(0, comma) : arg
        const mode = comma >= 0 ? Number.parseInt(arg.slice(comma + 1), 10) : 0o100644
        record(['SEND', target, String(mode)])
        let at: string | {error: unknown}
        try {
          // The path itself: adbd unlinks a link there and writes a file in its place (send, below).
          at = files.hostPath(target, '/')
        } catch (error) {
          at = {error}
        }
        const ok = await send(reader, socket, at, mode)
        if (!ok) return
      }
    }
  } catch (error) {
    if (!(error instanceof EndOfStream)) socket.destroy()
  }
}

/**
 * LIST: a folder that cannot be opened (missing, a loop, unreadable to the shell) is answered as an empty one. Each
 * DENT carries the name's bytes as readdir(3) gave them, UTF-8 or not (AOSP adb daemon/file_sync_service.cpp
 * do_list copies `d_name` as it is): a Latin-1 name is listed, not skipped, and the client decodes it as it will.
 */
async function list(socket: Socket, dir: string | undefined): Promise<void> {
  const readable = dir !== undefined && (await lstat(dir).then(shellMayRead, () => false))
  const names = readable ? await readdir(dir, {encoding: 'buffer'}).catch(() => undefined) : undefined
  const chunks: Buffer[] = []
  if (names) {
    const folder = Buffer.from(`${(dir as string).replace(/\/$/, '')}/`)
    for (const name of [Buffer.from('.'), Buffer.from('..'), ...names.sort(Buffer.compare)]) {
      const stats = await lstat(Buffer.concat([folder, name])).catch(() => undefined)
      if (!stats) continue
      const dent = Buffer.alloc(16)
      stat3(stats).copy(dent, 0)
      dent.writeUInt32LE(name.length, 12)
      chunks.push(Buffer.from('DENT', 'latin1'), dent, name)
    }
  }
  chunks.push(Buffer.from('DONE', 'latin1'), Buffer.alloc(16))
  await writeAsync(socket, Buffer.concat(chunks))
}

async function recv(socket: Socket, file: string): Promise<void> {
  let handle
  try {
    const stats = await lstat(file)
    if (stats.isDirectory()) throw Object.assign(new Error('is a directory'), {code: 'EISDIR'})
    if (!shellMayRead(stats)) throw accessError()
    handle = await open(file, 'r')
  } catch (error) {
    await writeAsync(socket, fail(`open failed: ${errnoText(error)}`))
    return
  }
  try {
    const buffer = Buffer.alloc(SYNC_DATA_MAX)
    for (;;) {
      const {bytesRead} = await handle.read(buffer, 0, SYNC_DATA_MAX, null)
      if (bytesRead === 0) break
      await writeAsync(socket, Buffer.concat([header('DATA', bytesRead), buffer.subarray(0, bytesRead)]))
    }
    await writeAsync(socket, header('DONE', 0))
  } finally {
    await handle.close()
  }
}

/** Returns false when the connection was ended because of a protocol error. */
async function send(
  reader: SocketReader,
  socket: Socket,
  file: string | {error: unknown},
  mode: number
): Promise<boolean> {
  const chunks: Buffer[] = []
  let mtime: number
  for (;;) {
    const head = await reader.read(8)
    const id = head.toString('latin1', 0, 4)
    const value = head.readUInt32LE(4)
    if (id === 'DATA') {
      if (value > SYNC_DATA_MAX) {
        await writeAsync(socket, fail('oversize data message'))
        socket.end()
        return false
      }
      chunks.push(await reader.read(value))
    } else if (id === 'DONE') {
      mtime = value
      break
    } else {
      await writeAsync(socket, fail(`unexpected ${JSON.stringify(id)} during SEND`))
      socket.end()
      return false
    }
  }
  if (typeof file !== 'string') {
    await writeAsync(socket, fail(`couldn't create file: ${errnoText(file.error)}`))
    return true
  }
  try {
    await mkdir(path.dirname(file), {recursive: true})
  } catch (error) {
    await writeAsync(socket, fail(`secure_mkdirs failed: ${errnoText(error)}`))
    return true
  }
  try {
    // As adbd's send_impl and handle_send_file (daemon/file_sync_service.cpp): a regular file or a link at the path
    // is unlinked first, and the new file gets the mode sent with its permission bits alone, the owner's copied to
    // group and others (0644 is 0666, 0755 is 0777, 0600 is 0666), set by fchmod, which no umask narrows.
    const there = await lstat(file).catch(() => undefined)
    if (there?.isFile() || there?.isSymbolicLink()) await unlink(file)
    let bits = mode & 0o777 || 0o644
    bits |= (bits >> 3) & 0o070
    bits |= (bits >> 3) & 0o007
    await writeFile(file, Buffer.concat(chunks), {mode: bits})
    await chmod(file, bits)
    if (mtime > 0) await utimes(file, mtime, mtime)
  } catch (error) {
    await writeAsync(socket, fail(`couldn't create file: ${errnoText(error)}`))
    return true
  }
  await writeAsync(socket, header('OKAY', 0))
  return true
}
