/** Input fields shared by the touch tools, with the spec's ranges: coordinates >= 0, durations 1-60000 ms. */
import {z} from 'zod'

export const coordinate = (what: string) => z.number().min(0).describe(`${what} in screen pixels (>= 0)`)

export const duration = (what: string, defaultMs: number) =>
  z.number().int().min(1).max(60000).default(defaultMs).describe(`${what} in whole milliseconds (1-60000; Android's input takes integers)`)

/** `(500, 1000)`, as the spec prints points. */
export const at = (x: number, y: number) => `(${x}, ${y})`
