/**
 * Output files on the machine arc runs on, as every command that writes one treats them: what is at the path
 * decides how it is written (a regular file is replaced whole; a device or a pipe is written into, never replaced),
 * and a failure is one OUTPUT_FAILED naming the flag and the path.
 */
import {constants, open as openFd} from 'node:fs'
import {lstat, mkdir, readdir, rm, stat, writeFile} from 'node:fs/promises'
import {Socket} from 'node:net'
import path from 'node:path'
import {promisify} from 'node:util'

import {OutputError} from './errors/arc-error.js'
import {checkHostPath} from './host-paths.js'
import {isProcessAlive} from './process-alive.js'
import {sideStem} from './side-name.js'

/** `.NAME.PID.tmp` (the new content) and `.NAME.PID.bak` (a hard link to the old file while renaming). */
export function sideFile(target: string, kind: 'tmp' | 'bak', pid = process.pid): string {
  return path.join(path.dirname(target), `.${sideStem(path.basename(target))}.${pid}.${kind}`)
}

/**
 * Removes the side files a killed run left beside `target` (`.NAME.PID.tmp` / `.bak` whose process is gone), so
 * hidden files (a killed pull's, up to 1 GiB) do not pile up. A live process's files are left alone: it may still be
 * writing them.
 */
export async function removeStaleSideFiles(target: string): Promise<string[]> {
  const dir = path.dirname(target)
  // Matched by its parts, never by a pattern built from the name: a name may be as long as the user typed it, and a
  // regular expression of a megabyte-long name is one V8 refuses to compile.
  const prefix = `.${sideStem(path.basename(target))}.`
  const names = await readdir(dir).catch(() => [] as string[])
  const removed: string[] = []
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(/^(\d+)\.(?:tmp|bak)$/.exec(name.slice(prefix.length))?.[1]) : 0
    if (!pid || pid === process.pid || isProcessAlive(pid)) continue
    await rm(path.join(dir, name), {force: true}).catch(() => undefined)
    removed.push(name)
  }
  return removed
}

/**
 * The permission bits of the regular file at `target`, for the new content that replaces it: a temporary file made
 * with the default mode (0666 less the umask) and renamed over it would turn a private 0600 file into one anyone may
 * read, and an executable into one no one may run. Undefined where nothing (or no regular file) is there.
 */
export async function keptMode(target: string): Promise<number | undefined> {
  const found = await lstat(target).catch(() => undefined)
  return found?.isFile() ? found.mode & 0o777 : undefined
}

/** What an output flag names and the bytes for it. */
export interface OutputTarget {
  path: string
  /** The flag or field that named it (`--output`, `--map`): errors name it. */
  input: string
}

/** Why a write failed, in a person's words. */
export function outputReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'the folder does not exist'
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied'
  if (code === 'EISDIR') return 'it is a folder'
  if (code === 'ENOTDIR') return 'a part of the path is not a folder'
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full'
  return error instanceof Error ? error.message : String(error)
}

export function outputError(target: OutputTarget, why: string, cause?: unknown): OutputError {
  return new OutputError(`${target.input}: cannot write ${target.path}: ${why}`, {
    cause,
    details: {input: target.input, path: target.path},
    actions: ['Choose a path in an existing folder you can write to.'],
  })
}

/**
 * `mkdir -p` one step at a time, so it ends on any file system: Node's recursive mkdir never settles under /proc
 * (on Node 20 `mkdir('/proc/nope/x', {recursive: true})` spins the CPU for ever: `ARC_CACHE_DIR=/proc/x`, `arc batch
 * --record /proc/nope/x.flow` and `arc assert screenshot /proc/nope/b.png` hung). Rejects with the errno error of the
 * first folder that cannot be made (ENOTDIR when a part of the path is a file).
 */
export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = []
  for (let at = path.resolve(dir); ;) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => error)
    if (!(found instanceof Error)) {
      if (!found.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), {code: 'ENOTDIR'})
      break
    }
    if (found.code !== 'ENOENT') throw found
    missing.unshift(at)
    const parent = path.dirname(at)
    if (parent === at || missing.length > 256) break
    at = parent
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    })
  }
}

/** Makes the folder of each output target that is missing; the first that cannot be made is OUTPUT_FAILED naming it. */
export async function makeOutputFolders(targets: OutputTarget[]): Promise<void> {
  for (const target of targets) {
    await checkHostPath(target.path, target.input)
    const folder = path.dirname(path.resolve(target.path))
    await makeFolders(folder).catch((error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? 'the file system refuses to create it' : outputReason(error)
      throw outputError(target, `cannot make the folder ${error.path ?? folder}: ${why}`, error)
    })
  }
}

/** What is at a target, following links: a regular file (or nothing) is replaced atomically; a stream is written into. */
export type OutputKind = 'replace' | 'stream' | {refuse: string}

/**
 * How a target is written. A character device (`/dev/null`, a terminal) or a FIFO at the path, or at the end of a
 * link there (`/dev/stdout` → `/proc/self/fd/1` → a pipe), is a stream the user means arc to write into: replacing
 * it with a regular file would break the device node or the pipe (as root, in a CI container, arc can). So is
 * anything under /dev or /proc, whatever it leads to (`-o /dev/stdout` with stdout sent to a file writes that
 * file). A socket or a block device cannot or must not be written: refused.
 */
export async function outputKind(target: string): Promise<OutputKind> {
  const followed = await stat(target).catch(() => undefined)
  const under = (root: string) => target === root || target.startsWith(`${root}/`)
  if (followed?.isSocket())
    return {refuse: 'it is a socket: arc writes into files, character devices (/dev/null) and FIFOs'}
  if (followed?.isBlockDevice()) return {refuse: 'it is a block device (a disk): arc does not write onto disks'}
  if (followed?.isCharacterDevice() || followed?.isFIFO()) return 'stream'
  if (followed && (under('/dev') || under('/proc'))) return 'stream'
  return 'replace'
}

const openRaw = promisify(openFd)

/**
 * Writes into a character device or FIFO as it is, never replacing it. A FIFO is opened without waiting (ENXIO when
 * no process reads it: a clear error instead of blocking for ever) and written through a pipe socket, which waits
 * for the reader as it drains the pipe; closing that one descriptor is the reader's end of file. The descriptor is
 * a plain number the socket alone owns (a FileHandle would close the same number again when collected, by then
 * perhaps another file's).
 */
export async function writeIntoStream(target: OutputTarget, data: Buffer | string): Promise<void> {
  const followed = await stat(target.path)
  if (!followed.isFIFO()) {
    // O_WRONLY|O_CREAT|O_TRUNC as a shell's `>` opens it: a device ignores the truncation.
    await writeFile(target.path, data).catch((error: unknown) => {
      throw outputError(target, outputReason(error), error)
    })
    return
  }
  const fd = await openRaw(target.path, constants.O_WRONLY | constants.O_NONBLOCK).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENXIO')
        throw outputError(target, 'it is a FIFO no process is reading (start the reader first)', error)
      throw outputError(target, outputReason(error), error)
    }
  )
  const pipe = new Socket({fd, readable: false, writable: true})
  await new Promise<void>((resolve, reject) => {
    pipe.once('error', (error) => reject(outputError(target, outputReason(error), error)))
    pipe.end(data, () => resolve())
  }).finally(() => pipe.destroy())
}
