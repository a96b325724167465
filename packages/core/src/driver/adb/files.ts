/**
 * Files on the device (adb.md §3.13): content over the sync service (binary-safe, no quoting), the rest through
 * toybox in the shell (`realpath`, `mkdir -p`, `mv`, `rm`, `df`), every path quoted.
 */
import {randomBytes} from 'node:crypto'
import path from 'node:path'
import {Readable} from 'node:stream'

import {DeviceCommandError} from '../../errors/arc-error.js'
import type {FileEntry, FileKind, FileStat} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'

interface SyncStats {
  mode: number
  size: number
  mtimeMs: number
}

function kindOf(mode: number): FileKind {
  switch (mode & 0o170000) {
    case 0o100000:
      return 'file'
    case 0o040000:
      return 'directory'
    case 0o120000:
      return 'symlink'
    default:
      return 'other'
  }
}

function toStat(stats: SyncStats): FileStat {
  return {kind: kindOf(stats.mode), size: stats.size, mtimeMs: stats.mtimeMs > 0 ? stats.mtimeMs : null}
}

export async function statFile(dev: DeviceShell, target: string): Promise<FileStat | undefined> {
  return dev.server.call(`stat ${target}`, dev.serial, async (client) => {
    try {
      return toStat((await client.getDevice(dev.serial).stat(target)) as SyncStats)
    } catch (error) {
      // adbd answers mode 0 for a missing path; adbkit turns it into ENOENT.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
  })
}

/**
 * The folder's entries over sync LIST. adbd answers a folder it cannot open (`Permission denied` for the shell
 * user: another app's data, a system folder) exactly as an empty one, so an empty answer is checked with `ls -a`,
 * which says why it could not read the folder.
 */
export async function listDir(dev: DeviceShell, target: string): Promise<FileEntry[]> {
  const entries = await dev.server.call(`list ${target}`, dev.serial, async (client) => {
    const listed = (await client.getDevice(dev.serial).readdir(target)) as Array<SyncStats & {name: string}>
    return listed.map((e) => ({name: e.name, ...toStat(e)}))
  })
  if (entries.length > 0) return entries
  const {output, exitCode} = await dev.run(['ls', '-a', '--', target])
  if (exitCode !== 0) {
    const text = output.toString('utf8')
    const error = dev.failed(`listing ${target}`, text, exitCode)
    throw new DeviceCommandError(error.message, {
      details: {...error.details, path: target},
      actions: /Permission denied/i.test(text)
        ? ["The device's shell user may not read this folder (another app's private data, a system folder): point the location at a folder it can read, such as /sdcard/Download or /data/local/tmp."]
        : [],
    })
  }
  return entries
}

interface Transfer {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  on(event: 'end', listener: () => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
}

/** A pull that can be stopped part way (adbkit's PullTransfer: its `cancel` ends the sync session). */
interface PullStream extends Transfer {
  cancel(): unknown
}

/**
 * A pull's bytes. adbkit ends a failed pull (`open failed: …`) with `end` first and `error` after (adb.md §1.6):
 * an empty result waits a moment for that error before it counts as an empty file. Past `maxBytes` the pull is
 * stopped and what came so far (more than `maxBytes`) is the answer.
 */
function collect(transfer: PullStream, maxBytes = Infinity): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let failed = false
    let size = 0
    let stopped = false
    transfer.on('data', (chunk) => {
      if (stopped) return
      chunks.push(chunk)
      size += chunk.length
      if (size > maxBytes) {
        stopped = true
        resolve(Buffer.concat(chunks))
        transfer.cancel()
      }
    })
    transfer.on('error', (error) => {
      failed = true
      if (!stopped) reject(error)
    })
    transfer.on('end', () => {
      const data = Buffer.concat(chunks)
      if (data.length > 0) resolve(data)
      else setTimeout(() => failed || resolve(data), 150)
    })
  })
}

export async function readFile(dev: DeviceShell, target: string, maxBytes?: number): Promise<Buffer> {
  return dev.server.call(`pull ${target}`, dev.serial, async (client) => collect(await client.getDevice(dev.serial).pull(target), maxBytes))
}

function pushDone(transfer: Transfer): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false
    transfer.on('error', (error) => {
      failed = true
      reject(error)
    })
    transfer.on('end', () => failed || resolve())
  })
}

async function push(dev: DeviceShell, data: Buffer, target: string): Promise<void> {
  await dev.server.call(`push ${target}`, dev.serial, async (client) =>
    // A byte stream, not objectMode: adbkit must cut it into ≤ 64 KiB DATA chunks (adb.md §1.6).
    pushDone(await client.getDevice(dev.serial).push(Readable.from(data, {objectMode: false}), target, 0o644)),
  )
}

/** `realpath` (toybox, Android 6+), else `readlink -f`; undefined when the path cannot be resolved. */
export async function realPath(dev: DeviceShell, target: string): Promise<string | undefined> {
  let result = await dev.run(['realpath', '--', target])
  if (result.exitCode === 127) {
    result = await dev.run(['readlink', '-f', '--', target])
  }
  if (result.exitCode !== 0) return undefined
  const line = result.output.toString('utf8').replace(/\r?\n$/, '')
  return line.startsWith('/') && !line.includes('\n') ? line : undefined
}

/** Available bytes from `df -k PATH` (POSIX columns: filesystem, 1K-blocks, used, available…). */
export async function freeBytes(dev: DeviceShell, target: string): Promise<number | undefined> {
  const {output, exitCode} = await dev.run(['df', '-k', '--', target])
  if (exitCode !== 0) return undefined
  const last = output.toString('utf8').trim().split(/\r?\n/).at(-1)?.trim().split(/\s+/)
  const available = Number(last?.[3])
  return last && last.length >= 4 && Number.isFinite(available) ? available * 1024 : undefined
}

export async function makeDirs(dev: DeviceShell, target: string): Promise<void> {
  await dev.action(['mkdir', '-p', '--', target], `mkdir -p ${target}`)
}

/** The temporary sibling a write goes to before it is renamed over the target. */
export function tempNameFor(target: string): string {
  return path.posix.join(path.posix.dirname(target), `.${path.posix.basename(target)}.arc-${randomBytes(4).toString('hex')}.tmp`)
}

/** Push to a temporary sibling, then `mv -f` it over the target: the old file stays whole until the rename. */
export async function writeFile(dev: DeviceShell, target: string, data: Buffer): Promise<void> {
  const temp = tempNameFor(target)
  try {
    await push(dev, data, temp)
    await dev.action(['mv', '-f', '--', temp, target], `mv over ${target}`)
  } catch (error) {
    await dev.run(['rm', '-f', '--', temp]).catch(() => {})
    throw error
  }
}

export async function deleteFile(dev: DeviceShell, target: string): Promise<void> {
  await dev.action(['rm', '--', target], `rm ${target}`)
}
