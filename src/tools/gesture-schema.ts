/** The custom_gesture input: finger paths of points, validated as the spec says. */
import {z} from '@arc-cli/core'

export const gesturePoint = z
  .object({
    x: z.number().min(0).describe('X coordinate in screen pixels (>= 0)'),
    y: z.number().min(0).describe('Y coordinate in screen pixels (>= 0)'),
    time: z.number().min(0).describe('Time offset in ms from gesture start (>= 0, strictly increasing within a path)'),
  })
  .strict()

export const gesturePath = z
  .array(gesturePoint)
  .min(2, 'each path needs at least 2 points')
  .superRefine((points, ctx) => {
    for (let i = 1; i < points.length; i++) {
      const before = points[i - 1]?.time as number
      const now = points[i]?.time as number
      if (!(now > before)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'time'],
          message: `time must increase strictly within a path (${now} after ${before})`,
        })
      }
    }
  })
  .describe('One finger: its points in order, at least 2')

export const gesturePaths = z.array(gesturePath).min(1)
