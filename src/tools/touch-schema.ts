/** Input fields shared by the touch tools, with the spec's ranges: coordinates >= 0, durations 1-60000 ms. */
import {InvalidInputError, type DeviceDriver, z} from '@arc-cli/core'

export const coordinate = (what: string) => z.number().min(0).describe(`${what} in screen pixels (>= 0)`)

export const duration = (what: string, defaultMs: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(60000)
    .default(defaultMs)
    .describe(`${what} in whole milliseconds (1-60000; Android's input takes integers)`)

/** `(500, 1000)`, as the spec prints points. */
export const at = (x: number, y: number) => `(${x}, ${y})`

/**
 * Refuses a point outside the screen before anything is sent: x must be below the width and y below the height
 * (device pixels, current orientation, from driver.screenSize()). A tap at (5000, 5000) on a 1080x2400 screen would
 * otherwise "succeed" and do nothing. On a live device the size is what this process last read where nothing arc did
 * since can have changed it (no device command in a batch or an MCP server once it is known), else one
 * `dumpsys window displays` (two on Android 7-9, whose rotation only `dumpsys window windows` shows); a point off
 * the remembered screen is checked again on a fresh reading before it is refused, so a refusal always stands on
 * what the device says now (docs/architecture.md, "Screen geometry").
 *
 * `past` names the points that may lie past the screen's edge: where a finger already down goes (a swipe's end, a
 * gesture's later points). A touch starts in the window under its first point and every move of that gesture goes
 * to that window wherever it lies (AOSP InputDispatcher: the touched window keeps the gesture until ACTION_UP;
 * `input swipe` and the helper inject such moves as given), so a swipe from inside to past the edge is a normal
 * gesture. Such a point may be off by up to the screen's own size (below twice its width and height); one further
 * off is refused as a point of another space, as an off-screen start is.
 */
export async function checkOnScreen(
  driver: DeviceDriver,
  points: Record<string, {x: number; y: number}>,
  past: ReadonlySet<string> = new Set()
): Promise<void> {
  const off = (size: {width: number; height: number}) =>
    Object.entries(points).find(([name, {x, y}]) => {
      const reach = past.has(name) ? 2 : 1
      return !(x < size.width * reach && y < size.height * reach)
    })
  let size = await driver.screenSize()
  if (!off(size)) return
  if (size.remembered) size = await driver.screenSize({fresh: true})
  const outside = off(size)
  if (!outside) return
  const {width, height} = size
  const [name, {x, y}] = outside
  const which = name ? `${name} ` : ''
  throw new InvalidInputError(
    past.has(name)
      ? `${which}${at(x, y)} is off the ${width}x${height} screen by more than its size: a finger may move past the edge, x below ${2 * width} and y below ${2 * height}`
      : `${which}${at(x, y)} is off the ${width}x${height} screen: x must be below ${width} and y below ${height}`,
    {
      details: {input: name || 'x,y', x, y, screen: {width, height}},
      actions: ['Read element bounds from `arc screen-state` (the same pixel space) and tap inside them.'],
    }
  )
}
