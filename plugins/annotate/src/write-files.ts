import {rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {OutputError} from '@arc-cli/core'

export interface OutputFile {
  path: string
  data: Buffer | string
  /** The input that named it (`--output`, `--map`), for the error message. */
  input: string
}

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
 * Writes all files or none: each goes to a temp file in its own folder first (so the rename is atomic on the
 * same file system), and only when every temp is written are they renamed into place. On any failure every
 * temp, and any file already renamed in this call, is removed, so no partial output is left behind.
 */
export async function writeFilesAtomically(files: OutputFile[]): Promise<void> {
  const temps: string[] = []
  const done: string[] = []
  let current: OutputFile | undefined
  try {
    for (const file of files) {
      current = file
      const temp = path.join(path.dirname(file.path), `.${path.basename(file.path)}.${process.pid}.tmp`)
      temps.push(temp)
      await writeFile(temp, file.data)
    }
    for (const [i, file] of files.entries()) {
      current = file
      await rename(temps[i] as string, file.path)
      done.push(file.path)
    }
  } catch (error) {
    await Promise.all([...temps, ...done].map((p) => rm(p, {force: true}).catch(() => undefined)))
    const file = current as OutputFile
    throw new OutputError(`${file.input}: cannot write ${file.path}: ${reason(error)}`, {
      cause: error,
      details: {input: file.input, path: file.path},
      actions: ['Choose a path in an existing folder you can write to.'],
    })
  }
}
