/**
 * `arc files pull` and `arc files push`: any file (binary too) between the machine arc runs on and a storage
 * location, with the bytes moved shown as they move. CLI-only: over MCP an agent would pick paths on your disk.
 */
import {stat} from 'node:fs/promises'
import {readFile as readHostFile} from 'node:fs/promises'
import path from 'node:path'

import {
  checkHostPath,
  defineTool,
  FileTooLargeError,
  formatBytes,
  InvalidInputError,
  NotFoundError,
  transferAllowanceMs,
  z,
} from '@arc-cli/core'

import {checkOutputFile, writeOutputFile} from '../write-output.js'
import {lockPathOf, writeResolved} from './file-io.js'
import {
  filePathField,
  findLocation,
  locationIdField,
  requireFile,
  requireWrite,
  resolvePath,
  settingsOf,
} from './location.js'

/** The largest file moved in one piece: it is held in memory on the way. */
export const TRANSFER_MAX_BYTES = 1024 * 1024 * 1024

const ONLY = 'it reads or writes a file on the machine arc runs on, at a path the caller picks'

function tooLarge(what: string, bytes: number): FileTooLargeError {
  return new FileTooLargeError(`${what} is ${bytes} bytes, over the ${TRANSFER_MAX_BYTES}-byte limit of one transfer`, {
    details: {bytes, limit: TRANSFER_MAX_BYTES},
    actions: ['Move it with `adb pull` / `adb push`, which stream to disk.'],
  })
}

/** A spinner line, at most every 64 KiB moved (each sync chunk), with the total when it is known. */
function progressOf(
  progress: (message: string) => void,
  verb: string,
  name: string,
  total: number
): (bytes: number) => void {
  return (bytes) =>
    progress(
      `${verb} ${name}: ${formatBytes(bytes)} of ${formatBytes(total)} (${total > 0 ? Math.floor((bytes / total) * 100) : 100}%)`
    )
}

export const pullFile = defineTool({
  name: 'pull_file',
  title: 'Copy a file of a storage location to this machine',
  description:
    "Copies one file (any content, binary included) from a storage location to a file here, written whole (a temporary name, then a rename), or to stdout with -o -. Default: the file's own name in the current folder. Up to 1 GiB.",
  kind: 'read',
  needs: {files: 'read'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    output: z
      .string()
      .min(1)
      .optional()
      .describe("File to write here (- for stdout). Default: the device file's name in the current folder"),
  }),
  cli: {
    id: 'files pull',
    only: ONLY,
    positional: ['location_id', 'path'],
    char: {output: 'o'},
    examples: [
      '<%= config.bin %> <%= command.id %> downloads report.pdf',
      '<%= config.bin %> <%= command.id %> tmp trace.bin -o ./traces/run1.bin',
    ],
  },
  async handler(ctx, input) {
    if (input.output === '-' && ctx.json)
      throw new InvalidInputError('--json cannot be used with -o - (both write to stdout)', {
        details: {input: 'output'},
      })
    const location = findLocation(settingsOf(ctx.config), input.location_id)
    const resolved = await resolvePath(ctx.driver, location, input.path)
    if (resolved.relative === '')
      throw new InvalidInputError('path names the storage location itself: give a file name', {
        details: {input: 'path'},
      })
    const target =
      input.output === '-' ? undefined : path.resolve(ctx.cwd, input.output ?? path.posix.basename(resolved.relative))
    // Checked before the transfer, so a mistake costs no bytes moved.
    if (target) await checkOutputFile(target, '--output')
    const file = await requireFile(ctx.driver, resolved)
    if (file.stat.size > TRANSFER_MAX_BYTES) throw tooLarge(`file ${resolved.relative}`, file.stat.size)
    // The command's own deadline grows as the device call's limit does: the file at the slowest rate allowed.
    ctx.expectWork?.(transferAllowanceMs(file.stat.size))
    const onBytes = progressOf(ctx.progress, 'pulling', resolved.relative, file.stat.size)
    const data = await ctx.driver.readFile(file.path, TRANSFER_MAX_BYTES, {expectedBytes: file.stat.size, onBytes})
    if (data.length > TRANSFER_MAX_BYTES) throw tooLarge(`file ${resolved.relative}`, data.length)
    const facts = {path: resolved.relative, bytes: data.length}
    if (!target)
      return {
        text: `${resolved.relative}: ${data.length} bytes written to stdout`,
        data: {...facts, output: '-'},
        cli: {stdout: data},
      }
    return {
      text: `Pulled ${resolved.relative} (${formatBytes(data.length)})`,
      data: facts,
      cli: {
        save: async () => {
          await writeOutputFile(target, data, '--output')
          return {
            text: `Pulled ${resolved.relative} (${formatBytes(data.length)}) to ${target}`,
            data: {...facts, output: target},
          }
        },
      },
    }
  },
})

export const pushFile = defineTool({
  name: 'push_file',
  title: 'Copy a file of this machine into a storage location',
  description:
    'Copies one file here (any content, binary included) into a storage location that allows writing: creates its folders, and replaces an existing file atomically (a failed copy leaves the old one), under the same per-file lock as the file tools. Up to 1 GiB.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    source: z.string().min(1).describe('File here to copy'),
    location_id: locationIdField,
    path: filePathField,
  }),
  cli: {
    id: 'files push',
    only: ONLY,
    positional: ['source', 'location_id', 'path'],
    examples: ['<%= config.bin %> <%= command.id %> ./build/fixture.db tmp data/fixture.db'],
  },
  async handler(ctx, input) {
    const source = path.resolve(ctx.cwd, input.source)
    // Under arc test, a flow names files within its folders only: never a key of the user's sent to the device.
    await checkHostPath(source, 'source')
    const what = await stat(source).catch(() => undefined)
    if (!what) throw new NotFoundError(`source: no file at ${source}`, {details: {input: 'source', path: source}})
    if (!what.isFile())
      throw new InvalidInputError(`source: ${source} is not a regular file`, {details: {input: 'source', path: source}})
    if (what.size > TRANSFER_MAX_BYTES) throw tooLarge(`source ${source}`, what.size)
    const location = findLocation(settingsOf(ctx.config), input.location_id)
    requireWrite(location)
    const data = await readHostFile(source)
    const resolved = await resolvePath(ctx.driver, location, input.path, true)
    ctx.expectWork?.(transferAllowanceMs(data.length))
    const onBytes = progressOf(ctx.progress, 'pushing', resolved.relative, data.length)
    await ctx.driver.withFileLock(lockPathOf(resolved), () =>
      writeResolved(ctx.driver, resolved, data, {expectedBytes: data.length, onBytes})
    )
    return {
      text: `Pushed ${source} (${formatBytes(data.length)}) to ${resolved.relative}`,
      data: {source, path: resolved.relative, bytes: data.length},
    }
  },
})
