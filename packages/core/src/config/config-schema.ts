import {z} from 'zod'

import {durationField} from '../duration.js'
import {once} from '../once.js'
import {filesConfigSchema} from './files-config.js'

/**
 * arc's config, as read from `.arcrc*`, `arc.config.*` or `package.json#arc`. Sections owned by a plugin
 * (`annotate`) are validated by that plugin with `readConfigSection`, so each plugin keeps its keys in one place.
 */
export const configSchema = once(() =>
  z
    .object({
      device: z
        .string()
        .min(1)
        .optional()
        .describe(
          'Default device: an adb serial, `demo`, or a path to a recorded snapshot. --device and ANDROID_SERIAL win over it.'
        ),
      adb: z
        .object({
          host: z
            .string()
            .min(1)
            .optional()
            .describe('adb server host (default 127.0.0.1, or from ADB_SERVER_SOCKET).'),
          port: z.number().int().min(1).max(65535).optional().describe('adb server port (default 5037).'),
          timeoutMs: z
            .number()
            .int()
            .min(100)
            .max(600000)
            .optional()
            .describe('Time limit for one device command in milliseconds (default 20000).'),
          helper: z
            .enum(['auto', 'off', 'required'])
            .optional()
            .describe(
              "arc's on-device helper: auto (where it works, else ADB; the default), off (ADB only), required (the helper or an error). ARC_HELPER and --helper win over it."
            ),
          helperHoldMs: z
            .number()
            .int()
            .min(0)
            .max(600000)
            .optional()
            .describe(
              'How long the on-device helper keeps UiAutomation after a read, in milliseconds (default 0: it lets go at once, so uiautomator, Appium and uiautomator2 can connect between reads; a hold saves reconnecting on the next read). ARC_HELPER_HOLD_MS wins over it.'
            ),
        })
        .strict()
        .optional()
        .describe('How arc reaches the adb server.'),
      elements: z
        .object({
          wait: durationField(
            'Default --wait of the element actions (click, long-click, type, scroll-to, details, screenshot --element): how long they wait for their element to appear (30s, 2m, or milliseconds; default 0: fail at once). --wait wins over it.'
          ).optional(),
        })
        .strict()
        .optional()
        .describe('Element actions on the command line.'),
      annotate: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('Annotated screenshots: default style, presets and image settings (see docs/annotate.md).'),
      mcp: z
        .object({
          token: z
            .string()
            .min(1)
            .optional()
            .describe(
              'Bearer token `arc mcp serve` requires (--token and ARC_MCP_TOKEN win over it). Default: a new random one per start.'
            ),
          host: z.string().min(1).optional().describe('Address to listen on (default 127.0.0.1).'),
          port: z
            .number()
            .int()
            .min(0)
            .max(65535)
            .optional()
            .describe('Port to listen on (default 7777; 0 picks a free one).'),
          allowedOrigins: z
            .array(z.string().min(1))
            .optional()
            .describe(
              'Browser origins allowed to call the server (e.g. http://localhost:6274); any other Origin is refused.'
            ),
          maxBodyBytes: z
            .number()
            .int()
            .min(1024)
            .max(1024 * 1024 * 1024)
            .optional()
            .describe('Largest message accepted, in bytes: an HTTP request body or a stdio line (default 16 MiB).'),
          detail: z
            .enum(['full', 'compact'])
            .optional()
            .describe(
              "get_screen_state's detail when a call gives none (default full, the spec's TSV; compact: fewest tokens). --detail wins over it."
            ),
        })
        .strict()
        .optional()
        .describe('`arc mcp serve`: token, address, allowed origins, body limit, default detail (see docs/mcp.md).'),
      apps: z
        .object({
          apkFolder: z
            .string()
            .min(1)
            .optional()
            .describe(
              'The host folder install_app takes APKs from (relative to the config file): set, an APK must be inside it (a path relative to it, or absolute within it); `arc mcp serve` serves install_app only with a folder (this or --apk-folder).'
            ),
        })
        .strict()
        .optional()
        .describe('App tools: the folder install_app takes APKs from (see docs/mcp.md).'),
      files: filesConfigSchema()
        .optional()
        .describe('Storage locations and limits of the file tools (see docs/files.md).'),
    })
    .strict()
)

export type ArcConfig = z.output<ReturnType<typeof configSchema>>
