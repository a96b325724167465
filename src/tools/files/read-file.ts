import {defineTool, InvalidInputError, z} from '@arc-cli/core'

import {decodeText, readChecked} from './file-io.js'
import {filePathField, findLocation, locationIdField, requireFile, resolvePath, settingsOf} from './location.js'

/** Lines of a text: `\n` ends a line (a `\r` before it is dropped); a final newline does not start another. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  if (text.endsWith('\n')) lines.pop()
  return lines
}

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read a text file',
  description:
    'Reads a text file of a storage location, a page of lines at a time, each as `N| line` (1-based). When more lines follow, the text ends with `--- More lines available. Use offset=N to continue reading. Total lines: T ---`. Files over files.maxBytes and binary files are refused.',
  kind: 'read',
  needs: {files: 'read'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: filePathField,
    offset: z.number().int().min(1).default(1).describe('Starting line number (1-based)'),
    limit: z.number().int().min(1).max(200).default(200).describe('Maximum number of lines to return (1-200)'),
  }),
  cli: {
    id: 'files read',
    positional: ['location_id', 'path'],
    examples: [
      '<%= config.bin %> <%= command.id %> downloads notes/todo.txt',
      '<%= config.bin %> <%= command.id %> tmp log.txt --offset 201',
    ],
  },
  async handler({driver, config}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    const resolved = await resolvePath(driver, location, input.path)
    const file = await requireFile(driver, resolved)
    const lines = splitLines(
      decodeText(await readChecked(driver, file, settings.maxBytes, resolved.relative), resolved.relative)
    )
    const total = lines.length
    if (input.offset > Math.max(total, 1)) {
      throw new InvalidInputError(
        `offset ${input.offset} is past the end of ${resolved.relative}: it has ${total} line(s)`,
        {
          details: {offset: input.offset, total_lines: total},
        }
      )
    }
    const start = input.offset - 1
    const page = lines.slice(start, start + input.limit)
    const end = start + page.length
    const body = page.map((line, i) => `${start + i + 1}| ${line}`)
    if (end < total)
      body.push(`--- More lines available. Use offset=${end + 1} to continue reading. Total lines: ${total} ---`)
    const data = {
      path: resolved.relative,
      offset: input.offset,
      lines: page,
      total_lines: total,
      has_more: end < total,
      next_offset: end < total ? end + 1 : null,
    }
    return {text: body.join('\n'), data}
  },
})
