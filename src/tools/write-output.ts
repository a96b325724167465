import {chmod, rename, rm, stat, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  checkHostPath,
  keptMode,
  outputError,
  outputKind,
  outputReason,
  removeStaleSideFiles,
  sideFile,
  writeIntoStream,
} from '@arc-cli/core'

/**
 * What can be known about an output file before the work that makes its bytes: its folder exists, it is not itself
 * a folder, and it is nothing arc refuses to write (a socket, a block device). OUTPUT_FAILED naming the input
 * otherwise, so a mistake costs no recording or transfer.
 */
export async function checkOutputFile(file: string, input: string): Promise<void> {
  await checkHostPath(file, input)
  const target = {path: file, input}
  const folder = await stat(path.dirname(file)).catch((error: unknown) => error as NodeJS.ErrnoException)
  if (folder instanceof Error) throw outputError(target, outputReason(folder), folder)
  if (!folder.isDirectory()) throw outputError(target, 'a part of the path is not a folder')
  if ((await stat(file).catch(() => undefined))?.isDirectory()) throw outputError(target, 'it is a folder')
  const kind = await outputKind(path.resolve(file))
  if (typeof kind === 'object') throw outputError(target, kind.refuse)
}

/**
 * Writes `data` to `file` all or nothing: a temp file beside it, then a rename (atomic on one file system). A
 * character device, a FIFO or anything under /dev or /proc at the path (or at the end of a link there) is written
 * into instead, never replaced; a socket or a block device is refused. On failure the temp is removed and an
 * OUTPUT_FAILED names the input and the path.
 */
export async function writeOutputFile(file: string, data: Buffer, input: string): Promise<void> {
  await checkHostPath(file, input)
  const target = {path: file, input}
  const kind = await outputKind(path.resolve(file))
  if (typeof kind === 'object') throw outputError(target, kind.refuse)
  if (kind === 'stream') return writeIntoStream(target, data)
  // `.NAME.PID.tmp`, as annotate's: a killed run's is removed by the next write of the file.
  await removeStaleSideFiles(file)
  const temp = sideFile(file, 'tmp')
  const mode = await keptMode(file)
  try {
    await writeFile(temp, data)
    if (mode !== undefined) await chmod(temp, mode)
    await rename(temp, file)
  } catch (error) {
    await rm(temp, {force: true}).catch(() => undefined)
    throw outputError(target, outputReason(error), error)
  }
}
