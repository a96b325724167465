import {defineTool, InvalidInputError, NotFoundError, z} from '@arc-cli/core'

import {filePathField, findLocation, locationIdField, requireDelete, resolvePath, settingsOf} from './location.js'

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete a file',
  description:
    'Deletes one file of a storage location that allows deleting. Never a folder; a link is removed itself, not its target.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({location_id: locationIdField, path: filePathField}),
  cli: {
    id: 'files delete',
    positional: ['location_id', 'path'],
    examples: ['<%= config.bin %> <%= command.id %> tmp notes/old-todo.txt'],
  },
  async handler({driver, config}, input) {
    const location = findLocation(settingsOf(config), input.location_id)
    requireDelete(location)
    const resolved = await resolvePath(driver, location, input.path)
    if (resolved.relative === '')
      throw new InvalidInputError('path names the storage location itself: give a file name')
    if (!resolved.stat) {
      await driver.statFile(resolved.devicePath, {sure: true})
      throw new NotFoundError(`file not found: ${resolved.relative} in storage location ${location.id}`, {
        details: {location_id: location.id, path: resolved.relative},
      })
    }
    if (resolved.stat.kind === 'directory') {
      throw new InvalidInputError(`${resolved.relative} is a folder: delete_file deletes files only`, {
        details: {location_id: location.id, path: resolved.relative},
      })
    }
    await driver.deleteFile(resolved.devicePath)
    return {text: `File deleted successfully: ${resolved.relative}`, data: {path: resolved.relative}}
  },
})
