/**
 * What the text file tools share: size limits checked before any transfer, text detection (UTF-8 without NUL
 * bytes), writes that create folders then replace the file atomically, and what an edit does under the device's
 * file lock (withFileLock): the path stat'ed again, and a check that the file did not change between the read and
 * the write (a program on the device that takes no lock can still write it).
 */
import {
  DeviceCommandError,
  FileTooLargeError,
  InvalidInputError,
  UnsupportedError,
  type DeviceDriver,
  type FileStat,
  type TransferWatch,
} from '@arc-cli/core'

import type {ResolvedPath} from './location.js'

export function checkSize(bytes: number, limit: number, what: string): void {
  if (bytes > limit) {
    throw new FileTooLargeError(`${what} is ${bytes} bytes, over the ${limit}-byte limit (files.maxBytes)`, {
      details: {bytes, limit},
      actions: ['Raise files.maxBytes in the config, or work on a smaller file.'],
    })
  }
}

const decoder = new TextDecoder('utf-8', {fatal: true})

/** The file's text; UNSUPPORTED when it holds NUL bytes or is not valid UTF-8 (binary files are not garbled). */
export function decodeText(data: Buffer, relative: string): string {
  let text: string | undefined
  if (!data.includes(0)) {
    try {
      text = decoder.decode(data)
    } catch {
      text = undefined
    }
  }
  if (text === undefined) {
    throw new UnsupportedError(`${relative} is not a text file (it holds NUL bytes or is not valid UTF-8)`, {
      details: {path: relative},
      actions: [
        'The text tools read and edit UTF-8 text only; copy a binary file with arc files pull / arc files push.',
      ],
    })
  }
  return text
}

/** Reads a regular file's bytes after checking its size against the limit. */
export async function readChecked(
  driver: DeviceDriver,
  file: {path: string; stat: FileStat},
  limit: number,
  relative: string
): Promise<Buffer> {
  checkSize(file.stat.size, limit, `file ${relative}`)
  // The stat's size can be wrong (32 bits on older adbd), so the read itself stops past the limit.
  const data = await driver.readFile(file.path, limit)
  checkSize(data.length, limit, `file ${relative}`)
  return data
}

/** The device path an edit of `resolved` locks (withFileLock): the link's target when the path is a link. */
export function lockPathOf(resolved: ResolvedPath): string {
  return resolved.target?.path ?? resolved.devicePath
}

/** `resolved` with what is at its path stat'ed again: under the lock, a stat taken before it may be out of date. */
export async function restat(driver: DeviceDriver, resolved: ResolvedPath): Promise<ResolvedPath> {
  if (resolved.target)
    return {...resolved, target: {...resolved.target, stat: await driver.statFile(resolved.target.path)}}
  if (resolved.missingFolders.length > 0) return resolved
  return {...resolved, stat: await driver.statFile(resolved.devicePath)}
}

/** Creates the missing folders, then writes the file atomically (to the link's target when the path is a link). */
export async function writeResolved(
  driver: DeviceDriver,
  resolved: ResolvedPath,
  data: Buffer,
  transfer?: TransferWatch
): Promise<void> {
  if (resolved.relative === '') throw new InvalidInputError('path names the storage location itself: give a file name')
  const existing = resolved.target?.stat ?? resolved.stat
  if (existing?.kind === 'directory') {
    throw new InvalidInputError(`${resolved.relative} is a folder, not a file`, {
      details: {location_id: resolved.location.id, path: resolved.relative},
    })
  }
  if (resolved.missingFolders.length > 0) {
    const base = resolved.existingFolder === '/' ? '' : resolved.existingFolder
    await driver.makeDirs([base, ...resolved.missingFolders].join('/'))
  }
  // An existing file keeps its permission bits (a script its execute bit, a private file its privacy).
  const mode = existing?.kind === 'file' ? existing.mode : undefined
  await driver.writeFile(resolved.target?.path ?? resolved.devicePath, data, transfer, mode)
}

/** Fails when the file changed since `before` was taken: an edit must not overwrite someone else's write. */
export async function assertUnchanged(
  driver: DeviceDriver,
  path: string,
  before: FileStat,
  relative: string
): Promise<void> {
  const now = await driver.statFile(path)
  if (!now || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
    throw new DeviceCommandError(`${relative} changed on the device while arc was editing it; nothing was written`, {
      details: {path: relative},
      actions: ['Run the command again.'],
    })
  }
}
