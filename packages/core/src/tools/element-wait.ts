/**
 * Element actions that wait (the command line's `--wait DURATION`, default from the config's `elements.wait`):
 * an action whose element is not on the screen yet reads the screen again every POLL_MS ms until it is, or until
 * the wait runs out (TIMEOUT, exit 11). Each attempt is the whole action in the device's critical section (a fresh
 * read, the id or selector resolved on it, the input sent against that read), and the section is let go between
 * attempts, so other callers are not held up for the length of a wait. An attempt that sent any input is never
 * repeated, whatever it failed with: only "not there" before acting is tried again (no match; an id whose element
 * left the screen, STALE_ELEMENT reason NOT_ON_SCREEN; never an id that now names another element).
 */
import {z} from 'zod'

import {CAPABILITY_METHODS, type DeviceDriver} from '../driver/device-driver.js'
import {ArcError, ElementNotFoundError, StaleElementError, TimeoutError} from '../errors/arc-error.js'
import {exitCodeFor} from '../errors/exit-codes.js'
import {durationField} from '../duration.js'
import {sleep} from '../sleep.js'

/** How often an element action (or an `arc wait`) reads the screen again while it waits. */
export const POLL_MS = 500
/** The `--wait` input of an element action (CLI-only: MCP's tools keep the spec's inputs and fail at once). */
export const elementWaitInput = z.object({
  wait: durationField(
    'Wait this long for the element to show (30s, 2m, ms; default: config elements.wait, else 0); then TIMEOUT'
  ).optional(),
})

/**
 * The methods that change the device. checkTypable is an `act` of the input capability (only a tool about to type
 * asks it) but sends nothing: it asks whether the text can be typed, so a typing tool may still wait for its field.
 */
const ACT_METHODS = new Set(
  Object.values(CAPABILITY_METHODS).flatMap((methods) =>
    Object.entries(methods as Record<string, 'read' | 'act'>).flatMap(([name, use]) =>
      use === 'act' && name !== 'checkTypable' ? [name] : []
    )
  )
)

/** The driver, telling `acted` when any method that changes the device is called. */
function watchActions(driver: DeviceDriver, acted: () => void): DeviceDriver {
  return new Proxy(driver, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== 'function' || typeof property !== 'string' || !ACT_METHODS.has(property)) return value
      return (...args: unknown[]) => {
        acted()
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

const NOT_FOUND_EXIT = exitCodeFor('ELEMENT_NOT_FOUND')
const reads = (n: number) => `${n} read${n === 1 ? '' : 's'}`

/** What a wait needs of a tool's context (define-tool.ts's ToolContext has it; not imported, which would make a loop). */
interface WaitingContext {
  driver: DeviceDriver
  progress(message: string): void
  expectWork?(ms: number): void
  signal?: AbortSignal
}

/**
 * "Not there (yet)": no element matches, or an id's element is not on the screen (STALE_ELEMENT with reason
 * NOT_ON_SCREEN: a later read that shows it again still checks it is what the id named). An id that now names
 * another element is an answer, not a wait.
 */
function notThere(error: unknown): error is ArcError {
  return (
    error instanceof ElementNotFoundError ||
    (error instanceof StaleElementError && error.details.reason === 'NOT_ON_SCREEN')
  )
}

/** The wait asked for: the `wait` input (already milliseconds), absent or 0 for none. */
export function waitOf(input: unknown): number {
  const wait = (input as {wait?: unknown} | undefined)?.wait
  return typeof wait === 'number' && wait > 0 ? wait : 0
}

/**
 * Runs `attempt` (the whole action, in the device's section) until it finds its element or `waitMs` runs out. An
 * attempt fails "not there" by throwing ELEMENT_NOT_FOUND or by returning a result with that exit status (details'
 * not_found rows); either is tried again after POLL_MS, unless the attempt sent input. When the wait runs out, the
 * thrown one becomes TIMEOUT (its message, actions and details kept, with the wait's), the returned one keeps its
 * result with TIMEOUT's exit status.
 */
export async function untilElementFound<C extends WaitingContext, R extends {cli?: {exitCode?: number}}>(
  ctx: C,
  waitMs: number,
  attempt: (ctx: C) => Promise<R>
): Promise<R> {
  if (waitMs <= 0) return attempt(ctx)
  ctx.expectWork?.(waitMs)
  const start = Date.now()
  const deadline = start + waitMs
  for (let attempts = 1; ; attempts++) {
    let acted = false
    const watched = {...ctx, driver: watchActions(ctx.driver, () => (acted = true))}
    let missing: ArcError | R
    try {
      const result = await attempt(watched)
      if (result.cli?.exitCode !== NOT_FOUND_EXIT || acted) return result
      missing = result
    } catch (error) {
      if (!notThere(error) || acted) throw error
      missing = error
    }
    const left = deadline - Date.now()
    if (left <= 0) {
      const waited = {
        wait_ms: waitMs,
        attempts,
        reason: missing instanceof StaleElementError ? 'NOT_ON_SCREEN' : 'ELEMENT_NOT_FOUND',
      }
      if (!(missing instanceof ArcError)) return {...missing, cli: {...missing.cli, exitCode: exitCodeFor('TIMEOUT')}}
      throw new TimeoutError(`${missing.message} (waited ${waitMs} ms: ${reads(attempts)})`, {
        actions: missing.actions,
        details: {...missing.details, ...waited},
        cause: missing,
      })
    }
    ctx.progress(`waiting for the element (${reads(attempts)}, ${Math.ceil(left / 1000)} s left)`)
    await sleep(Math.min(POLL_MS, left), ctx.signal)
  }
}
