/** Input fields shared by the touch tools, with the spec's ranges: coordinates >= 0, durations 1-60000 ms. */
import {InvalidInputError, type DeviceDriver, z} from '@arc-cli/core'

export const coordinate = (what: string) => z.number().min(0).describe(`${what} in screen pixels (>= 0)`)

export const duration = (what: string, defaultMs: number) =>
  z.number().int().min(1).max(60000).default(defaultMs).describe(`${what} in whole milliseconds (1-60000; Android's input takes integers)`)

/** `(500, 1000)`, as the spec prints points. */
export const at = (x: number, y: number) => `(${x}, ${y})`

/**
 * Refuses a point outside the screen before anything is sent: x must be below the width and y below the height
 * (device pixels, current orientation, from driver.screenSize(): one `dumpsys window displays` on a live device,
 * one extra shell call; two on Android 7-9, whose rotation only `dumpsys window windows` shows). A tap at (5000, 5000) on a 1080x2400 screen would otherwise "succeed" and do nothing.
 */
export async function checkOnScreen(driver: DeviceDriver, points: Record<string, {x: number; y: number}>): Promise<void> {
  const {width, height} = await driver.screenSize()
  for (const [name, {x, y}] of Object.entries(points)) {
    if (x < width && y < height) continue
    const which = name ? `${name} ` : ''
    throw new InvalidInputError(`${which}${at(x, y)} is off the ${width}x${height} screen: x must be below ${width} and y below ${height}`, {
      details: {input: name || 'x,y', x, y, screen: {width, height}},
      actions: ['Read element bounds from `arc screen-state` (the same pixel space) and tap inside them.'],
    })
  }
}
