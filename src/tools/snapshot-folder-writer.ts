import {lstat, mkdir, readdir, realpath, rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  checkHostPath,
  isProcessAlive,
  makeFolders,
  OutputError,
  sideStem,
  SNAPSHOT_META,
  SNAPSHOT_PNG,
  SNAPSHOT_XML,
} from '@arc-cli/core'

/**
 * Writes a snapshot folder whole or not at all. The files go into `.NAME.PID.tmp` beside the target, and only
 * when all are written is that folder swapped in: the old folder is renamed to `.NAME.PID.old`, the new one
 * renamed to the target, the old one removed. So:
 * - a full disk or a kill leaves the old snapshot as it was (never a new dump beside an old screen.png);
 * - a symlink in the old folder (screen.png -> elsewhere) is never written through: the whole folder is replaced;
 * - a target folder holding files other than a snapshot's is refused, so no one else's file is ever removed;
 * - a target that is a symbolic link is refused (the swap would replace the link, not the folder it names);
 * - the current folder is refused (the swap would leave the shell standing in a deleted folder).
 * Side folders of killed runs are removed on the next save (an `.old` folder is put back when the target is gone).
 */
const SNAPSHOT_FILES = new Set([SNAPSHOT_XML, SNAPSHOT_PNG, SNAPSHOT_META])

export interface SnapshotFile {
  name: string
  data: Buffer | string
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied'
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full'
  // mkdir -p answers EEXIST, not ENOTDIR, where a part of the parent path is a file.
  if (code === 'ENOTDIR' || (code === 'EEXIST' && (error as NodeJS.ErrnoException).syscall === 'mkdir')) {
    return 'a part of the path is not a folder'
  }
  return error instanceof Error ? error.message : String(error)
}

function failure(target: string, why: string, cause?: unknown): OutputError {
  return new OutputError(`cannot write the snapshot to ${target}: ${why}`, {
    cause,
    details: {path: target},
    actions: ['Choose a new or empty folder, or an old snapshot folder, on a disk with room that you can write to.'],
  })
}

async function cleanStale(target: string): Promise<void> {
  const parent = path.dirname(target)
  const base = sideStem(path.basename(target))
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(`.${base}.`)) continue
    const match = /\.(\d+)\.(tmp|old)$/.exec(name.slice(base.length + 1))
    const pid = Number(match?.[1])
    if (!match || name !== `.${base}.${pid}.${match[2]}` || pid === process.pid || isProcessAlive(pid)) continue
    const full = path.join(parent, name)
    // Killed between the two renames: the old snapshot is the only one, so it goes back.
    if (match[2] === 'old' && !(await lstat(target).catch(() => undefined)))
      await rename(full, target).catch(() => undefined)
    else await rm(full, {recursive: true, force: true}).catch(() => undefined)
  }
}

export async function writeSnapshotFolder(target: string, files: SnapshotFile[]): Promise<void> {
  await checkHostPath(target, 'dir')
  const existing = await lstat(target).catch(() => undefined)
  if (existing?.isFile()) throw failure(target, 'it is a file, not a folder')
  if (existing?.isSymbolicLink()) {
    // Swapping the folder in would replace the link itself, leaving the folder it points to as it was.
    const to = await realpath(target).catch(() => undefined)
    throw failure(
      target,
      `it is a symbolic link ${to ? `to ${to}` : 'to nothing'}; a snapshot replaces its folder whole, so name the folder itself`
    )
  }
  if (existing?.isDirectory()) {
    // The swap would move the folder a shell stands in away, leaving that shell (and `ls`) in an empty, deleted one.
    const here = await realpath(process.cwd()).catch(() => undefined)
    if (here !== undefined && here === (await realpath(target).catch(() => undefined))) {
      throw failure(
        target,
        'it is the current folder, and a snapshot replaces its folder whole (the shell would be left in a deleted folder); save it from the folder above (cd ..) by its name'
      )
    }
    const others = (await readdir(target)).filter((name) => !SNAPSHOT_FILES.has(name))
    if (others.length > 0) {
      const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? `, … (${others.length} in all)` : '')
      throw failure(target, `the folder holds other files (${shown}); a snapshot replaces its whole folder`)
    }
  }
  const parent = path.dirname(target)
  const base = sideStem(path.basename(target))
  const temp = path.join(parent, `.${base}.${process.pid}.tmp`)
  const old = path.join(parent, `.${base}.${process.pid}.old`)
  try {
    // One level at a time: a recursive mkdir never settles where the OS refuses a folder (/proc/nope).
    await makeFolders(parent).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
      throw Object.assign(new Error(`the file system refuses to create the folder ${error.path ?? parent}`), {
        cause: error,
      })
    })
    await cleanStale(target)
    await rm(temp, {recursive: true, force: true})
    await mkdir(temp)
    for (const file of files) await writeFile(path.join(temp, file.name), file.data, {flag: 'wx'})
  } catch (error) {
    await rm(temp, {recursive: true, force: true}).catch(() => undefined)
    throw failure(target, reason(error), error)
  }
  try {
    if (await lstat(target).catch(() => undefined)) await rename(target, old)
    try {
      await rename(temp, target)
    } catch (error) {
      await rename(old, target).catch(() => undefined)
      throw error
    }
  } catch (error) {
    await rm(temp, {recursive: true, force: true}).catch(() => undefined)
    throw failure(target, reason(error), error)
  }
  await rm(old, {recursive: true, force: true}).catch(() => undefined)
}
