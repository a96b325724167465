import {defineTool, z} from '@arc-cli/core'

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

export const appendFile = defineTool({
  name: 'append_file',
  title: 'Append to a text file',
  description:
    'Appends text to an existing text file of a storage location that allows writing. Over ADB this reads the file and writes it back whole (atomically, holding a lock on the file so concurrent edits all land), so the combined size is subject to files.maxBytes.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    content: z.string().describe('Text content to append'),
  }),
  cli: {
    id: 'files append',
    positional: ['location_id', 'path'],
    examples: ['<%= config.bin %> <%= command.id %> downloads notes/todo.txt --content "Feed the cat"'],
  },
  async handler({driver, config}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    requireWrite(location)
    const added = Buffer.from(input.content, 'utf8')
    const resolved = await resolvePath(driver, location, input.path)
    checkSize(
      (await requireFile(driver, resolved)).stat.size + added.length,
      settings.maxBytes,
      'the file with the appended content'
    )
    // Read, append and write back under the device's lock on the file: two appends at once both land.
    return driver.withFileLock(lockPathOf(resolved), async () => {
      const current = await restat(driver, resolved)
      const file = await requireFile(driver, current)
      checkSize(file.stat.size + added.length, settings.maxBytes, 'the file with the appended content')
      const old = await readChecked(driver, file, settings.maxBytes, resolved.relative)
      decodeText(old, resolved.relative)
      checkSize(old.length + added.length, settings.maxBytes, 'the file with the appended content')
      await assertUnchanged(driver, file.path, file.stat, resolved.relative)
      await writeResolved(driver, current, Buffer.concat([old, added]))
      return {
        text: `Content appended successfully to: ${resolved.relative}`,
        data: {path: resolved.relative, bytes: old.length + added.length},
      }
    })
  },
})
