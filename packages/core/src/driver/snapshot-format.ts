import {z} from 'zod'

import {InvalidInputError} from '../errors/arc-error.js'
import {describeZodIssues} from '../errors/describe-zod-issues.js'
import {once} from '../once.js'

/**
 * A recorded snapshot is a folder holding:
 * - `window_dump.xml`: the uiautomator dump (required);
 * - `screen.png`: a screenshot of the same moment (optional; annotate needs it);
 * - `meta.json`: what the dump cannot say (optional), in this schema.
 * A bare `.xml` file is a snapshot too, with neither. `arc snapshot save DIR` writes all three.
 */
export const SNAPSHOT_XML = 'window_dump.xml'
export const SNAPSHOT_PNG = 'screen.png'
export const SNAPSHOT_META = 'meta.json'

const deviceWindowSchema = once(() =>
  z
    .object({
      title: z.string().describe('The window title inside Window{…}.'),
      package: z.string().optional().describe('The owning package.'),
      type: z.string().describe('The window manager type name (BASE_APPLICATION, STATUS_BAR…).'),
      z: z.number().int().nonnegative().describe('Position in the window list, 0 = topmost.'),
      layer: z.number().int().describe('mBaseLayer.'),
      displayId: z.number().int().nonnegative().describe('The display the window is on.'),
      visible: z.boolean().describe('Shown on screen.'),
      frame: z
        .tuple([z.number(), z.number(), z.number(), z.number()])
        .optional()
        .describe('Frame [left, top, right, bottom].'),
      touchable: z.boolean().optional().describe('False where the window takes no touch (NOT_TOUCHABLE).'),
      touchableRegion: z
        .array(z.tuple([z.number(), z.number(), z.number(), z.number()]))
        .optional()
        .describe('Where it takes touches, when it narrowed that itself.'),
    })
    .strict()
)

export const snapshotMetaSchema = once(() =>
  z
    .object({
      format: z.literal('arc-snapshot/1').describe('Format tag; bumped on incompatible changes.'),
      serial: z.string().optional().describe('The device it was recorded from.'),
      width: z.number().int().positive().describe('Screen width in pixels, current orientation.'),
      height: z.number().int().positive().describe('Screen height in pixels, current orientation.'),
      density: z.number().int().positive().optional().describe('Density in dpi.'),
      rotation: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).describe('Display rotation 0-3.'),
      package: z.string().optional().describe('Foreground package.'),
      activity: z.string().optional().describe('Foreground activity.'),
      allWindows: z.boolean().optional().describe('True when the dump holds every window (uiautomator --windows).'),
      capturedAt: z.string().optional().describe('ISO 8601 time of capture.'),
      windowManager: z
        .object({
          windows: z.array(deviceWindowSchema()).describe('The visible windows, topmost first.'),
          focus: z.string().optional().describe('The focused window title (mCurrentFocus).'),
        })
        .strict()
        .optional()
        .describe(
          'What the window manager reported at capture time (dumpsys window windows); absent when it was not read.'
        ),
      files: z
        .record(
          z.string(),
          z
            .object({
              bytes: z.number().int().nonnegative().describe('Size in bytes.'),
              sha256: z
                .string()
                .regex(/^[0-9a-f]{64}$/)
                .describe('SHA-256 of the content, hex.'),
            })
            .strict()
        )
        .optional()
        .describe(
          'The dump and screenshot this meta.json was written with (name -> size and hash); a reader refuses parts that do not match.'
        ),
    })
    .strict()
)

export type SnapshotMeta = z.output<ReturnType<typeof snapshotMetaSchema>>

export function parseSnapshotMeta(text: string, file: string): SnapshotMeta {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new InvalidInputError(`snapshot meta ${file} is not valid JSON: ${(error as Error).message}`)
  }
  const parsed = snapshotMetaSchema().safeParse(json)
  if (!parsed.success) {
    throw new InvalidInputError(`snapshot meta ${file} is invalid: ${describeZodIssues(parsed.error)}`)
  }
  return parsed.data
}
