import {defineTool, z} from '@arc-cli/core'

import {checkSize, lockPathOf, writeResolved} from './file-io.js'
import {filePathField, findLocation, locationIdField, requireWrite, resolvePath, settingsOf} from './location.js'

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a text file',
  description:
    'Writes text to a file of a storage location that allows writing: creates it and its parent folders, or replaces its content (atomically: a failed write leaves the old file). Empty content makes an empty file. Subject to files.maxBytes.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    content: z.string().describe('Text content to write (UTF-8; empty string creates an empty file)'),
  }),
  cli: {
    id: 'files write',
    positional: ['location_id', 'path'],
    examples: ['<%= config.bin %> <%= command.id %> downloads notes/todo.txt --content "Buy groceries"'],
  },
  async handler({driver, config}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    requireWrite(location)
    const data = Buffer.from(input.content, 'utf8')
    checkSize(data.length, settings.maxBytes, 'content')
    const resolved = await resolvePath(driver, location, input.path, true)
    // Under the file's lock, so an edit running meanwhile cannot write its older read back over this.
    await driver.withFileLock(lockPathOf(resolved), () => writeResolved(driver, resolved, data))
    return {
      text: `File written successfully: ${resolved.relative}`,
      data: {path: resolved.relative, bytes: data.length},
    }
  },
})
