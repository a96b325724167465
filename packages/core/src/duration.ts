/**
 * Durations as a person types them on a command line or in a config file (`30s`, `2m`, `1500`): a leaf module, so
 * the config schema and the tools share one reading.
 */
import {z} from 'zod'

/** The longest command-line wait: a day (a timer cannot count much further, and no CI step should wait longer). */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000

const UNITS: Record<string, number> = {ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** `1500`, `1500ms`, `30s`, `2.5m`, `1h` → milliseconds (a bare number is milliseconds); undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/.exec(text.trim())
  if (!m) return undefined
  const ms = Math.round(Number(m[1]) * (UNITS[m[2] ?? 'ms'] as number))
  return Number.isFinite(ms) ? ms : undefined
}

const DURATION_FORMS = 'a duration: milliseconds (1500), or a number with ms, s, m or h (500ms, 30s, 2m)'

/**
 * A command-line duration: text as typed (`30s`), milliseconds after parsing. `min` is the least allowed (0 for a
 * wait that may be off); at most MAX_DURATION_MS. Config files may give a number of milliseconds too.
 */
export function durationField(description: string, min = 0) {
  return z
    .union([z.string(), z.number()])
    .transform((value, ctx) => {
      const ms = typeof value === 'number' ? value : parseDuration(value)
      if (ms === undefined || !Number.isInteger(ms)) {
        ctx.addIssue({
          code: 'custom',
          input: value,
          message: `must be ${DURATION_FORMS} (got ${JSON.stringify(value)})`,
        })
        return z.NEVER
      }
      if (ms < min || ms > MAX_DURATION_MS) {
        ctx.addIssue({
          code: 'custom',
          input: value,
          message: `must be ${min === 0 ? '0' : `${min} ms`} to 24h (got ${JSON.stringify(value)})`,
        })
        return z.NEVER
      }
      return ms
    })
    .describe(description)
}
