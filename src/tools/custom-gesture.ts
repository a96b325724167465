import {defineTool, z} from '@arc-cli/core'

import {gesturePaths} from './gesture-schema.js'
import {checkOnScreen} from './touch-schema.js'

export const customGesture = defineTool({
  name: 'custom_gesture',
  title: 'Custom gesture',
  description:
    "Plays a gesture from finger paths: each path is one finger, points {x, y, time} in screen pixels (each finger's first on the screen, later ones up to a screen's size past its edge) with time in ms from the start, strictly increasing. One path uses `input motionevent` (Android 10+; older devices get a swipe per segment); several paths go through the on-device helper, else /dev/input, which many Android 10+ devices refuse (run `arc doctor`).",
  kind: 'action',
  needs: {screen: 'read', input: 'act'},
  group: 'touch',
  input: z.object({
    paths: gesturePaths.describe('Array of paths, one per finger; each an array of at least 2 points {x, y, time}'),
  }),
  cli: {
    id: 'gesture',
    examples: [
      `<%= config.bin %> <%= command.id %> --paths '[{"x":100,"y":100,"time":0},{"x":300,"y":300,"time":300}]'`,
      `<%= config.bin %> <%= command.id %> --paths '[{"x":400,"y":600,"time":0},{"x":300,"y":600,"time":300}]' --paths '[{"x":600,"y":600,"time":0},{"x":700,"y":600,"time":300}]'`,
    ],
  },
  async handler({driver, expectWork}, {paths}) {
    // Each finger goes down on the screen, as a swipe starts: a finger put down off it touches nothing on a phone, and
    // a point off it is most often one taken in another space (a scaled screenshot's pixels). Once down it may move
    // past the edge, as a swipe's end may (touch-schema.ts).
    const name = (i: number, j: number) => `path ${i + 1} point ${j + 1}`
    await checkOnScreen(
      driver,
      Object.fromEntries(paths.flatMap((path, i) => path.map((p, j) => [name(i, j), {x: p.x, y: p.y}] as const))),
      new Set(paths.flatMap((path, i) => path.slice(1).map((_, j) => name(i, j + 1))))
    )
    // The gesture plays in real time, a device call per 30 ms frame: the command's deadline grows by its length and
    // by what those calls may take (100 ms each where `input` runs in system_server; the driver allows more per
    // call where each starts a VM, and sends fewer there).
    const duration = Math.max(...paths.map((p) => (p.at(-1)?.time ?? 0) - (p[0]?.time ?? 0)))
    expectWork?.(duration + Math.ceil(duration / 30) * 100)
    const method = await driver.gesture(paths)
    const points = paths.reduce((n, p) => n + p.length, 0)
    return {
      text: `Custom gesture executed with ${paths.length} path(s), total ${points} point(s)`,
      data: {paths: paths.length, points, method},
    }
  },
})
