import {randomBytes} from 'node:crypto'
import {rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {outputError, outputKind, outputReason, writeIntoStream} from '@arc-cli/core'

/**
 * Writes `data` to `file` all or nothing: a temp file beside it, then a rename (atomic on one file system). A
 * character device, a FIFO or anything under /dev or /proc at the path (or at the end of a link there) is written
 * into instead, never replaced; a socket or a block device is refused. On failure the temp is removed and an
 * OUTPUT_FAILED names the input and the path.
 */
export async function writeOutputFile(file: string, data: Buffer, input: string): Promise<void> {
  const target = {path: file, input}
  const kind = await outputKind(path.resolve(file))
  if (typeof kind === 'object') throw outputError(target, kind.refuse)
  if (kind === 'stream') return writeIntoStream(target, data)
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`
  )
  try {
    await writeFile(temp, data)
    await rename(temp, file)
  } catch (error) {
    await rm(temp, {force: true}).catch(() => undefined)
    throw outputError(target, outputReason(error), error)
  }
}
