import {defineTool, formatBytes, formatTable, z} from '@arc-cli/core'

import {settingsOf} from './location.js'

export const listStorageLocations = defineTool({
  name: 'list_storage_locations',
  title: 'List storage locations',
  description:
    'Lists the storage locations the file tools may use (files.locations in the config) as JSON [{id, name, path, description, available_bytes, allow_read, allow_write, allow_delete}]. Pass an id as location_id to the other file tools. The CLI prints a table (ACCESS: r read, w write, d delete; --json: {locations: [...]}).',
  kind: 'read',
  needs: {files: 'read'},
  group: 'files',
  input: z.object({}),
  cli: {id: 'files locations', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver, config}) {
    const settings = settingsOf(config)
    const locations = await Promise.all(
      settings.locations.map(async (l) => ({
        id: l.id,
        name: l.name ?? (l.path.split('/').filter(Boolean).at(-1) || '/'),
        path: l.path,
        description: l.description,
        // Unknown (null) when the folder is missing or the device does not say.
        available_bytes: (await driver.freeBytes(l.path).catch(() => undefined)) ?? null,
        allow_read: true,
        allow_write: l.allowWrite,
        allow_delete: l.allowDelete,
      }))
    )
    const rows = locations.map((l) => [
      l.id,
      l.path,
      l.available_bytes === null ? '' : formatBytes(l.available_bytes),
      `r${l.allow_write ? 'w' : '-'}${l.allow_delete ? 'd' : '-'}`,
      l.description ?? '',
    ])
    const human = formatTable(['ID', 'PATH', 'FREE', 'ACCESS', 'DESCRIPTION'], rows)
    return {text: JSON.stringify(locations), data: {locations}, cli: {human}}
  },
})
