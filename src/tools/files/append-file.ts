import {defineTool, z} from '@arc-cli/core'

import {assertUnchanged, checkSize, decodeText, readChecked, writeResolved} from './file-io.js'
import {filePathField, findLocation, locationIdField, requireFile, requireWrite, resolvePath, settingsOf} from './location.js'

export const appendFile = defineTool({
  name: 'append_file',
  cliId: 'files append',
  title: 'Append to a text file',
  description:
    'Appends text to an existing text file of a storage location that allows writing. Over ADB this reads the file and writes it back whole (atomically), so the combined size is subject to files.maxBytes; a file changed meanwhile is not overwritten.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    content: z.string().describe('Text content to append'),
  }),
  cli: {positional: ['location_id', 'path'], examples: ['<%= config.bin %> <%= command.id %> downloads notes/todo.txt --content "Feed the cat"']},
  async handler({driver, config}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    requireWrite(location)
    const added = Buffer.from(input.content, 'utf8')
    const resolved = await resolvePath(driver, location, input.path)
    const file = await requireFile(driver, resolved)
    checkSize(file.stat.size + added.length, settings.maxBytes, 'the file with the appended content')
    const old = await readChecked(driver, file, settings.maxBytes, resolved.relative)
    decodeText(old, resolved.relative)
    checkSize(old.length + added.length, settings.maxBytes, 'the file with the appended content')
    await assertUnchanged(driver, file.path, file.stat, resolved.relative)
    await writeResolved(driver, resolved, Buffer.concat([old, added]))
    return {text: `Content appended successfully to: ${resolved.relative}`, data: {path: resolved.relative, bytes: old.length + added.length}}
  },
})
