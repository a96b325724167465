import {defineTool, formatBytes, formatTable, InvalidInputError, NotFoundError, type FileEntry, z} from '@arc-cli/core'

import {effective, findLocation, locationIdField, resolvePath, settingsOf} from './location.js'

const MIME: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'text/xml',
  html: 'text/html',
  htm: 'text/html',
  log: 'text/plain',
  js: 'text/javascript',
  css: 'text/css',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  apk: 'application/vnd.android.package-archive',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
}

/** A MIME type from the file name's extension; null for folders and unknown extensions. */
function mimeType(entry: FileEntry): string | null {
  if (entry.kind !== 'file') return null
  const dot = entry.name.lastIndexOf('.')
  return dot > 0 ? (MIME[entry.name.slice(dot + 1).toLowerCase()] ?? null) : null
}

/** Folders first, then files; each group by name, case-insensitively, ties by code point. */
function compare(a: FileEntry, b: FileEntry): number {
  const folder = Number(b.kind === 'directory') - Number(a.kind === 'directory')
  if (folder !== 0) return folder
  const la = a.name.toLowerCase()
  const lb = b.name.toLowerCase()
  if (la !== lb) return la < lb ? -1 : 1
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

interface Listed {
  name: string
  is_directory: boolean
  size: number
  last_modified: number | null
}

/** The CLI's table: folders with a trailing `/`, sizes for people, times in UTC; a line when more entries follow. */
export function fileTable(files: Listed[], total: number, offset: number): string {
  if (files.length === 0)
    return total === 0 ? 'The folder is empty.' : `No entries from offset ${offset} (the folder has ${total}).`
  const rows = files.map((f) => [
    f.is_directory ? `${f.name}/` : f.name,
    f.is_directory ? '' : formatBytes(f.size),
    f.last_modified === null ? '' : `${new Date(f.last_modified).toISOString().slice(0, 19)}Z`,
  ])
  const table = formatTable(['NAME', 'SIZE', 'MODIFIED'], rows)
  const next = offset + files.length
  return next < total ? `${table}\n(${files.length} of ${total} entries; the next page: --offset ${next})` : table
}

export const listFiles = defineTool({
  name: 'list_files',
  title: 'List files in a storage location',
  description:
    'Lists a folder of a storage location, folders first, then files, alphabetically; page with offset and limit. Returns JSON {files: [{name, path, is_directory, size, last_modified, mime_type}], total_count, has_more}; `path` of an entry is relative to the location, ready for the other file tools. The CLI prints a table (--json: the object).',
  kind: 'read',
  needs: {files: 'read'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: z.string().default('').describe('Relative path within the storage location ("" = its root)'),
    offset: z.number().int().min(0).default(0).describe('Pagination offset (0-based)'),
    limit: z.number().int().min(1).max(200).default(200).describe('Maximum number of entries to return (1-200)'),
  }),
  cli: {
    id: 'files list',
    positional: ['location_id', 'path'],
    examples: [
      '<%= config.bin %> <%= command.id %> downloads',
      '<%= config.bin %> <%= command.id %> tmp notes --limit 20',
    ],
  },
  async handler({driver, config}, input) {
    const location = findLocation(settingsOf(config), input.location_id)
    const resolved = await resolvePath(driver, location, input.path, false, 'folder')
    const {path, stat} = effective(resolved)
    if (!stat || resolved.missingFolders.length > 0) {
      await driver.statFile(path, {sure: true})
      throw new NotFoundError(`path not found: ${resolved.relative || '(root)'} in storage location ${location.id}`, {
        details: {location_id: location.id, path: resolved.relative},
      })
    }
    if (stat.kind !== 'directory')
      throw new InvalidInputError(`${resolved.relative} is not a folder`, {
        details: {location_id: location.id, path: resolved.relative},
      })
    const entries = (await driver.listDir(path)).sort(compare)
    const page = entries.slice(input.offset, input.offset + input.limit)
    const prefix = resolved.relative === '' ? '' : `${resolved.relative}/`
    const files = page.map((e) => ({
      name: e.name,
      path: `${prefix}${e.name}`,
      is_directory: e.kind === 'directory',
      size: e.kind === 'directory' ? 0 : e.size,
      last_modified: e.kind === 'directory' ? null : e.mtimeMs,
      mime_type: mimeType(e),
    }))
    const result = {files, total_count: entries.length, has_more: input.offset + page.length < entries.length}
    return {text: JSON.stringify(result), data: result, cli: {human: fileTable(files, entries.length, input.offset)}}
  },
})
