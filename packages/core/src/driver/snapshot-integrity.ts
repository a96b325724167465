import {createHash} from 'node:crypto'
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'

import {ArcError, DeviceNotFoundError, InvalidDumpError, InvalidInputError} from '../errors/arc-error.js'
import type {SnapshotMeta} from './snapshot-format.js'

/**
 * Reading a snapshot's parts safely: bounded sizes, file-system errors as arc errors (never INTERNAL), and a
 * check that the dump and screenshot are the ones meta.json was written with, so a half-replaced snapshot (a
 * new dump beside an old screen.png and meta.json) is refused instead of read as one screen.
 */

/** Largest window_dump.xml read (a real screen's dump is well under 1 MB). */
export const MAX_SNAPSHOT_XML_BYTES = 64 * 1024 * 1024
/** Largest screen.png read (a 4K screenshot is a few MB). */
export const MAX_SNAPSHOT_PNG_BYTES = 64 * 1024 * 1024

export interface FileRecord {
  bytes: number
  sha256: string
}

export function fileRecord(data: Buffer | string): FileRecord {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  return {bytes: buffer.length, sha256: createHash('sha256').update(buffer).digest('hex')}
}

export function snapshotReadError(file: string, error: NodeJS.ErrnoException): ArcError {
  const why =
    error.code === 'EACCES' || error.code === 'EPERM'
      ? 'permission denied'
      : error.code === 'ENOENT'
        ? 'it does not exist (removed while arc was reading the snapshot?)'
        : error.code === 'EISDIR'
          ? 'it is a folder'
          : error.message
  const Kind = error.code === 'ENOENT' ? DeviceNotFoundError : InvalidInputError
  return new Kind(`cannot read snapshot file ${file}: ${why}`, {
    cause: error,
    details: {path: file, errno: error.code},
    actions: ['Check the file permissions (`ls -l`), or record the snapshot again with `arc snapshot save`.'],
  })
}

/** Reads one part of a snapshot, refusing files larger than `limit` before reading them. */
export async function readSnapshotFile(
  file: string,
  limit: number,
  kind: 'dump' | 'screenshot' | 'meta'
): Promise<Buffer> {
  try {
    const info = await stat(file)
    if (info.size > limit) {
      const Kind = kind === 'dump' ? InvalidDumpError : InvalidInputError
      throw new Kind(`${file} is ${info.size} bytes, over the ${limit}-byte limit for a snapshot ${kind}`, {
        details: {path: file, bytes: info.size, limit},
      })
    }
    return await readFile(file)
  } catch (error) {
    if (error instanceof ArcError) throw error
    throw snapshotReadError(file, error as NodeJS.ErrnoException)
  }
}

/**
 * Checks that `data`, read from `folder/name`, is the file meta.json recorded (when meta.json records files:
 * snapshots from before this check carry no `files` and are read as they are).
 */
export function checkSnapshotPart(
  meta: SnapshotMeta | undefined,
  metaPath: string | undefined,
  name: string,
  data: Buffer
): void {
  const expected = meta?.files?.[name]
  if (!meta?.files) return
  const folder = metaPath ? path.dirname(metaPath) : ''
  const refuse = (why: string) =>
    new InvalidInputError(`snapshot ${folder} is inconsistent: ${name} ${why}; its parts do not belong together`, {
      details: {path: path.join(folder, name)},
      actions: [
        'Record the snapshot again with `arc snapshot save` (an interrupted save or a hand-edited file leaves this).',
      ],
    })
  if (!expected) throw refuse(`is not listed in ${path.basename(metaPath ?? 'meta.json')}`)
  const actual = fileRecord(data)
  if (actual.bytes !== expected.bytes) throw refuse(`is ${actual.bytes} bytes, meta.json recorded ${expected.bytes}`)
  if (actual.sha256 !== expected.sha256) throw refuse('does not match the hash meta.json recorded')
}

/** A part meta.json lists that is not in the folder. */
export function checkListedParts(
  meta: SnapshotMeta | undefined,
  metaPath: string | undefined,
  present: string[]
): void {
  if (!meta?.files) return
  const missing = Object.keys(meta.files).filter((name) => !present.includes(name))
  if (missing.length === 0) return
  const folder = metaPath ? path.dirname(metaPath) : ''
  throw new InvalidInputError(
    `snapshot ${folder} is inconsistent: meta.json lists ${missing.join(', ')}, which the folder does not hold`,
    {
      details: {missing},
      actions: ['Record the snapshot again with `arc snapshot save`.'],
    }
  )
}
