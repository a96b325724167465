import {defineTool, z} from '@arc-cli/core'

import {download, parseUrl} from './download.js'
import {lockPathOf, writeResolved} from './file-io.js'
import {findLocation, locationIdField, requireWrite, resolvePath, settingsOf} from './location.js'

export const downloadFromUrl = defineTool({
  name: 'download_from_url',
  title: 'Download a URL into a storage location',
  description:
    'Downloads a URL on the host (https; http only when files.download.allowHttp) and saves it to a path of a storage location that allows writing, creating parent folders. Subject to files.download.maxBytes and files.download.timeoutMs.',
  kind: 'destructive',
  needs: {files: 'act'},
  group: 'files',
  input: z.object({
    location_id: locationIdField,
    path: z.string().min(1).describe('Destination path within the storage location'),
    url: z.string().min(1).describe('URL to download from (HTTP or HTTPS)'),
  }),
  cli: {
    id: 'files download',
    positional: ['location_id', 'path', 'url'],
    examples: ['<%= config.bin %> <%= command.id %> downloads images/photo.jpg https://example.com/photo.jpg'],
  },
  async handler({driver, config, signal}, input) {
    const settings = settingsOf(config)
    const location = findLocation(settings, input.location_id)
    requireWrite(location)
    const url = parseUrl(input.url)
    const resolved = await resolvePath(driver, location, input.path, true)
    const fetched = await download(url, settings.download, signal)
    await driver.withFileLock(lockPathOf(resolved), () => writeResolved(driver, resolved, fetched.data))
    return {
      text: `File downloaded successfully: ${resolved.relative}`,
      data: {path: resolved.relative, bytes: fetched.data.length, url: fetched.url},
    }
  },
})
