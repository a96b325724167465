import {chmod, link, lstat, realpath, rename, rm, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  checkHostPath,
  InvalidInputError,
  keptMode,
  outputError,
  outputKind,
  outputReason as reason,
  removeStaleSideFiles,
  sideFile,
  writeIntoStream,
} from '@arc-cli/core'

export interface OutputFile {
  path: string
  data: Buffer | string
  /** The input that named it (`--output`, `--map`), for the error message. */
  input: string
}

/**
 * Checks every target before anything is written: no two inputs name the same file, no target is a folder,
 * and every target's folder exists and is a folder. What fails is named by its input.
 */
export async function validateTargets(files: Array<Pick<OutputFile, 'path' | 'input'>>): Promise<void> {
  const seen = new Map<string, Pick<OutputFile, 'path' | 'input'>>()
  for (const file of files) {
    await checkHostPath(file.path, file.input)
    const resolved = path.resolve(file.path)
    const folder = await stat(path.dirname(resolved)).catch((error: unknown) => error as NodeJS.ErrnoException)
    if (folder instanceof Error) throw outputError(file, reason(folder), folder)
    if (!folder.isDirectory()) throw outputError(file, 'a part of the path is not a folder')
    // The same file however it is spelt: `-o out.jpg --map sub/out.jpg` with sub a link to `.` is one file twice.
    const real = path.join(
      await realpath(path.dirname(resolved)).catch(() => path.dirname(resolved)),
      path.basename(resolved)
    )
    const other = seen.get(real)
    if (other) {
      throw new InvalidInputError(
        `${file.input} and ${other.input} both name ${file.path}: each output needs its own file`,
        {
          details: {inputs: [other.input, file.input], path: file.path},
        }
      )
    }
    seen.set(real, file)
    const existing = await stat(resolved).catch(() => undefined)
    if (existing?.isDirectory()) throw outputError(file, 'it is a folder')
  }
}

/**
 * Writes all files or none, and never loses an existing one:
 * 1. every target is checked first (see validateTargets), stale side files of killed runs are removed;
 * 2. each file goes to `.NAME.PID.tmp` in its own folder (so the rename is atomic on the same file system);
 * 3. an existing target is hard-linked to `.NAME.PID.bak`, then each temp is renamed over its target;
 * 4. on any failure the temps are removed, targets that did not exist are removed, and targets that did are
 *    put back from their `.bak` link, so every file is as it was; on success the `.bak` links are removed.
 * A symlink at a target is replaced by the file, never followed, unless it leads to a stream (see targetKind):
 * a character device, a FIFO, anything under /dev or /proc is written into, never replaced; a socket or a block
 * device is refused before anything is written.
 */
export async function writeFilesAtomically(all: OutputFile[]): Promise<void> {
  await validateTargets(all)
  const files: OutputFile[] = []
  const streams: OutputFile[] = []
  for (const file of all) {
    const kind = await outputKind(path.resolve(file.path))
    if (typeof kind === 'object') throw outputError(file, kind.refuse)
    ;(kind === 'stream' ? streams : files).push(file)
  }
  // Streams first: what went into a device or a pipe cannot be taken back, so a failure there writes no file.
  for (const stream of streams) await writeIntoStream(stream, stream.data)
  for (const file of files) await removeStaleSideFiles(file.path)
  const temps: string[] = []
  const backups = new Map<string, string>()
  const existed = new Set<string>()
  const renamed: OutputFile[] = []
  let current: OutputFile | undefined
  try {
    for (const file of files) {
      current = file
      const temp = sideFile(file.path, 'tmp')
      temps.push(temp)
      // A leftover with this pid is a killed run's whose pid was reused: it is ours to replace.
      await rm(temp, {force: true})
      await writeFile(temp, file.data, {flag: 'wx'})
      // A file replaced keeps its permission bits (a private 0600 file stays private).
      const mode = await keptMode(file.path)
      if (mode !== undefined) await chmod(temp, mode)
    }
    for (const file of files) {
      current = file
      const exists = await lstat(file.path).catch(() => undefined)
      if (!exists) continue
      existed.add(file.path)
      const backup = sideFile(file.path, 'bak')
      await rm(backup, {force: true})
      // A file system without hard links: the rename still replaces the target atomically, only the
      // put-back after a later failure is not possible.
      if (
        await link(file.path, backup).then(
          () => true,
          () => false
        )
      )
        backups.set(file.path, backup)
    }
    for (const [i, file] of files.entries()) {
      current = file
      await rename(temps[i] as string, file.path)
      renamed.push(file)
    }
  } catch (error) {
    await Promise.all(temps.map((p) => rm(p, {force: true}).catch(() => undefined)))
    for (const file of renamed) {
      const backup = backups.get(file.path)
      if (backup) await rename(backup, file.path).catch(() => undefined)
      else if (!existed.has(file.path)) await rm(file.path, {force: true}).catch(() => undefined)
    }
    await Promise.all([...backups.values()].map((p) => rm(p, {force: true}).catch(() => undefined)))
    throw outputError(current as OutputFile, reason(error), error)
  }
  await Promise.all([...backups.values()].map((p) => rm(p, {force: true}).catch(() => undefined)))
}
