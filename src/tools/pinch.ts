import {defineTool, type GesturePoint, z} from '@arc-cli/core'

import {at, checkOnScreen, coordinate, duration} from './touch-schema.js'

/** `2.0`, `0.5`: the spec prints the scale as a decimal. */
const formatScale = (scale: number) => (Number.isInteger(scale) ? scale.toFixed(1) : String(scale))

/**
 * Two fingers on a horizontal line through the centre, moving apart (scale > 1) or together. The wider spread is
 * 40% of the screen's shorter side, the narrower that divided by the scale, each finger kept on the screen.
 */
export function pinchPaths(
  center: {x: number; y: number},
  scale: number,
  durationMs: number,
  screen: {width: number; height: number}
): GesturePoint[][] {
  const wide = 0.4 * Math.min(screen.width, screen.height)
  const narrow = wide / Math.max(scale, 1 / scale)
  const [from, to] = scale >= 1 ? [narrow, wide] : [wide, narrow]
  const clampX = (x: number) => Math.min(screen.width - 1, Math.max(0, Math.round(x)))
  const y = Math.round(center.y)
  const finger = (sign: number): GesturePoint[] => [
    {x: clampX(center.x + (sign * from) / 2), y, time: 0},
    {x: clampX(center.x + (sign * to) / 2), y, time: durationMs},
  ]
  return [finger(-1), finger(1)]
}

export const pinch = defineTool({
  name: 'pinch',
  title: 'Pinch to zoom',
  description:
    'Two-finger pinch centred at (center_x, center_y): scale > 1 zooms in (fingers apart), < 1 zooms out. Two fingers go through the on-device helper, else /dev/input, which many Android 10+ devices refuse (UNSUPPORTED; run `arc doctor`).',
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({
    center_x: coordinate('Center X coordinate'),
    center_y: coordinate('Center Y coordinate'),
    scale: z.number().gt(0).describe('Scale factor (> 0; > 1 = zoom in, < 1 = zoom out)'),
    duration: duration('Gesture duration', 300),
  }),
  cli: {
    id: 'pinch',
    positional: ['center_x', 'center_y', 'scale'],
    examples: [
      '<%= config.bin %> <%= command.id %> 540 1200 2',
      '<%= config.bin %> <%= command.id %> 540 1200 0.5 --duration 500',
    ],
  },
  async handler({driver}, input) {
    // The fingers go down beside the centre, on its row: a centre off the screen would put them where no window
    // takes a touch (a phone drops it), so it is refused as a tap there is. The size is then the one checked against.
    await checkOnScreen(driver, {centre: {x: input.center_x, y: input.center_y}})
    const screen = await driver.screenSize()
    const paths = pinchPaths({x: input.center_x, y: input.center_y}, input.scale, input.duration, screen)
    const method = await driver.gesture(paths)
    const kind = input.scale > 1 ? 'zoom in' : 'zoom out'
    return {
      text: `Pinch (${kind}) executed at ${at(input.center_x, input.center_y)} with scale ${formatScale(input.scale)} over ${input.duration}ms`,
      data: {center_x: input.center_x, center_y: input.center_y, scale: input.scale, duration: input.duration, method},
    }
  },
})
