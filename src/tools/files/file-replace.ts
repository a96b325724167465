import {defineTool, NotFoundError, z} from '@arc-cli/core'

import {assertUnchanged, checkSize, decodeText, lockPathOf, readChecked, restat, writeResolved} from './file-io.js'
import {
  filePathField,
  findLocation,
  locationIdField,
  requireFile,
  requireWrite,
  resolvePath,
  settingsOf,
} from './location.js'

export const fileReplace = defineTool({
  name: 'file_replace',
  title: 'Replace text in a file',
  description:
    'Replaces a literal string (no regex) in a text file of a storage location that allows writing: the first occurrence, or all with replace_all. The file is rewritten atomically, holding a lock on it so concurrent edits all land.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    old_string: z.string().min(1).describe('The literal string to search for (not empty)'),
    new_string: z.string().describe('The replacement string'),
    replace_all: z.boolean().default(false).describe('Replace all occurrences (default: only the first)'),
  }),
  cli: {
    id: 'files replace',
    positional: ['location_id', 'path'],
    examples: [
      '<%= config.bin %> <%= command.id %> downloads notes/todo.txt --old-string groceries --new-string "organic groceries"',
    ],
  },
  async handler({driver, config}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    requireWrite(location)
    const resolved = await resolvePath(driver, location, input.path)
    await requireFile(driver, resolved)
    // Read, replace and write back under the device's lock on the file: two edits at once both land.
    return driver.withFileLock(lockPathOf(resolved), async () => {
      const current = await restat(driver, resolved)
      const file = await requireFile(driver, current)
      const text = decodeText(await readChecked(driver, file, settings.maxBytes, resolved.relative), resolved.relative)
      const parts = text.split(input.old_string)
      const found = parts.length - 1
      if (found === 0) {
        throw new NotFoundError(`old_string not found in ${resolved.relative}`, {details: {path: resolved.relative}})
      }
      const replaced = input.replace_all ? found : 1
      const result = input.replace_all
        ? parts.join(input.new_string)
        : `${parts[0]}${input.new_string}${parts.slice(1).join(input.old_string)}`
      const data = Buffer.from(result, 'utf8')
      checkSize(data.length, settings.maxBytes, 'the file after replacing')
      await assertUnchanged(driver, file.path, file.stat, resolved.relative)
      await writeResolved(driver, current, data)
      return {
        text: `Replaced ${replaced} occurrence(s) in: ${resolved.relative}`,
        data: {path: resolved.relative, replaced},
      }
    })
  },
})
