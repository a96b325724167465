import {z} from 'zod'

import {once} from '../once.js'

/**
 * The `files` config section: the storage locations the file tools may touch, and their limits. Every file tool
 * works inside one location; a location's path is a folder on the device.
 */
const locationSchema = once(() =>
  z
    .object({
      id: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/, 'expected letters, digits, `.`, `_`, `:` or `-` (at most 64)')
        .describe('Location id the file tools take as location_id (e.g. downloads).'),
      path: z
        .string()
        .regex(/^\/[^\0]*$/, 'expected an absolute device path such as /sdcard/Download')
        .refine((p) => !p.split('/').includes('..'), 'a location path cannot contain `..`')
        .describe('Absolute folder on the device, e.g. /sdcard/Download.'),
      name: z.string().min(1).optional().describe('Display name (default: the folder name).'),
      description: z.string().default('').describe('What the location is for, shown by list_storage_locations.'),
      allowWrite: z
        .boolean()
        .default(false)
        .describe('Allow write_file, append_file, file_replace and download_from_url.'),
      allowDelete: z.boolean().default(false).describe('Allow delete_file.'),
    })
    .strict()
)

export type StorageLocation = z.output<ReturnType<typeof locationSchema>>

export const DEFAULT_LOCATIONS: StorageLocation[] = [
  {
    id: 'downloads',
    path: '/sdcard/Download',
    description: 'Shared Download folder',
    allowWrite: true,
    allowDelete: false,
  },
  {
    id: 'documents',
    path: '/sdcard/Documents',
    description: 'Shared Documents folder',
    allowWrite: true,
    allowDelete: false,
  },
  {
    id: 'tmp',
    path: '/data/local/tmp',
    description: 'Shell scratch folder (not visible to apps)',
    allowWrite: true,
    allowDelete: true,
  },
]

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024
export const DEFAULT_DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 60_000

export const filesConfigSchema = once(() =>
  z
    .object({
      locations: z
        .array(locationSchema())
        .refine((list) => new Set(list.map((l) => l.id)).size === list.length, 'location ids must be unique')
        .optional()
        .describe('Storage locations (replace the defaults: downloads, documents, tmp).'),
      maxBytes: z
        .number()
        .int()
        .min(1)
        .max(1024 * 1024 * 1024)
        .optional()
        .describe(
          `Largest text file read_file, write_file, append_file and file_replace handle, in bytes (default ${DEFAULT_MAX_BYTES}).`
        ),
      download: z
        .object({
          allowHttp: z.boolean().optional().describe('Allow plain http:// downloads (default false).'),
          allowUnverifiedHttps: z
            .boolean()
            .optional()
            .describe('Accept https certificates that do not verify (default false).'),
          allowPrivateAddresses: z
            .boolean()
            .optional()
            .describe(
              'Allow downloads from loopback, private, link-local and other non-public addresses (default false).'
            ),
          timeoutMs: z
            .number()
            .int()
            .min(100)
            .max(3_600_000)
            .optional()
            .describe(`Time limit for one download (default ${DEFAULT_DOWNLOAD_TIMEOUT_MS}).`),
          maxBytes: z
            .number()
            .int()
            .min(1)
            .max(4 * 1024 * 1024 * 1024 - 1)
            .optional()
            .describe(`Largest download in bytes (default ${DEFAULT_DOWNLOAD_MAX_BYTES}).`),
        })
        .strict()
        .optional()
        .describe('What download_from_url may fetch.'),
    })
    .strict()
)

export type FilesConfig = z.output<ReturnType<typeof filesConfigSchema>>

export interface FilesSettings {
  locations: StorageLocation[]
  maxBytes: number
  download: {
    allowHttp: boolean
    allowUnverifiedHttps: boolean
    allowPrivateAddresses: boolean
    timeoutMs: number
    maxBytes: number
  }
}

/** The section with every default filled in. */
export function filesSettings(config: FilesConfig | undefined): FilesSettings {
  return {
    locations: config?.locations ?? DEFAULT_LOCATIONS,
    maxBytes: config?.maxBytes ?? DEFAULT_MAX_BYTES,
    download: {
      allowHttp: config?.download?.allowHttp ?? false,
      allowUnverifiedHttps: config?.download?.allowUnverifiedHttps ?? false,
      allowPrivateAddresses: config?.download?.allowPrivateAddresses ?? false,
      timeoutMs: config?.download?.timeoutMs ?? DEFAULT_DOWNLOAD_TIMEOUT_MS,
      maxBytes: config?.download?.maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES,
    },
  }
}
