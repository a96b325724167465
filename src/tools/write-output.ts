import {randomBytes} from 'node:crypto'
import {rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {OutputError} from '@arc-cli/core'

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'the folder does not exist'
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EISDIR') return 'it is a folder'
  if (code === 'ENOTDIR') return 'a part of the path is not a folder'
  if (code === 'ENOSPC') return 'the disk is full'
  return error instanceof Error ? error.message : String(error)
}

/**
 * Writes `data` to `file` all or nothing: a temp file beside it, then a rename (atomic on one file system). On
 * failure the temp is removed and an OUTPUT_FAILED names the input and the path.
 */
export async function writeOutputFile(file: string, data: Buffer, input: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`)
  try {
    await writeFile(temp, data)
    await rename(temp, file)
  } catch (error) {
    await rm(temp, {force: true}).catch(() => undefined)
    throw new OutputError(`${input}: cannot write ${file}: ${reason(error)}`, {
      cause: error,
      details: {input, path: file},
      actions: ['Choose a path in an existing folder you can write to.'],
    })
  }
}
