/**
 * What the waits share: the timeout field (the spec caps one wait at 30 s), the poll loop (a read every 500 ms
 * that stops at the deadline even when a dump is slow: a read still running then is abandoned) and the result of a
 * wait that ran out of time. That result is not an error (MCP returns it as a normal result, as the spec says), but
 * it carries TIMEOUT's exit status, so `arc wait … && next` in a script goes on only when the wait's condition held.
 */
import {
  buildScreenModel,
  durationField,
  exitCodeFor,
  POLL_MS,
  sleep,
  type ScreenModel,
  type ToolContext,
  type ToolResult,
  z,
} from '@arc-cli/core'

/** One poll interval for every wait: `arc wait` and the element actions' --wait (core's element-wait.ts). */
export {POLL_MS}
export const MAX_WAIT_MS = 30_000

const CAP = `a wait lasts ${MAX_WAIT_MS / 1000} s at most; to wait longer, run it again`

/** `(1-30000, …)`: tools/list keeps the words before the bracket, --help and the error say the cap. */
export const timeoutField = () =>
  z
    .number()
    .int()
    .min(1, {error: 'must be at least 1 (milliseconds)'})
    .max(MAX_WAIT_MS, {error: `must be at most ${MAX_WAIT_MS}: ${CAP}`})
    .describe(`How long to wait in milliseconds (1-${MAX_WAIT_MS}: ${CAP})`)

/**
 * `--timeout` on the command line: a duration (`2m`, `30s`, or milliseconds) with no 30 s cap, for a cold CI
 * emulator that takes minutes; MCP keeps the spec's 1-30000 ms (`timeoutField`).
 */
export const cliTimeoutField = () =>
  durationField(
    'How long to wait: 500ms, 30s, 2m, or a bare number of milliseconds (at least 1 ms; no 30 s cap on the command line, up to 24h)',
    1
  )

const TIMED_OUT = Symbol('timed out')

export const reads = (n: number) => `${n} read${n === 1 ? '' : 's'}`

/**
 * Sleeps until `deadline` has passed by the clock the results are measured with: a timer may fire a millisecond
 * before Date.now() reaches its end (libuv rounds its loop time), and a wait must never report ending before its
 * timeout.
 */
async function sleepUntil(deadline: number, signal?: AbortSignal, cancel?: AbortSignal): Promise<void> {
  while (Date.now() < deadline && !cancel?.aborted) await sleep(deadline - Date.now(), signal, cancel)
}

/** One read of the screen, or TIMED_OUT when the deadline comes first. */
async function readBefore(ctx: ToolContext, deadline: number): Promise<ScreenModel | typeof TIMED_OUT> {
  const remaining = deadline - Date.now()
  if (remaining <= 0) return TIMED_OUT
  const read = ctx.driver.captureScreen().then((c) => buildScreenModel(c))
  read.catch(() => undefined)
  // The deadline's timer ends with the race: left running, it would keep the process alive until the deadline.
  const done = new AbortController()
  try {
    return await Promise.race([
      read,
      sleepUntil(deadline, ctx.signal, done.signal).then((): typeof TIMED_OUT => TIMED_OUT),
    ])
  } finally {
    done.abort()
  }
}

export interface PollEnd<T> {
  /** What `check` returned when the condition held; undefined when the time ran out. */
  met?: T
  /** Reads that finished in time. */
  attempts: number
  elapsedMs: number
}

/**
 * Reads the screen every POLL_MS ms until `check` returns something (the condition held) or `timeout` ms pass.
 * `progress` is the spinner's line before each read.
 */
export async function pollScreen<T>(
  ctx: ToolContext,
  timeout: number,
  progress: (attempts: number) => string,
  check: (model: ScreenModel) => T | undefined
): Promise<PollEnd<T>> {
  // A command-line wait may outlast the command's deadline (3 x adb.timeoutMs): it moves out to fit the wait.
  ctx.expectWork?.(timeout)
  const start = Date.now()
  const deadline = start + timeout
  let attempts = 0
  for (;;) {
    ctx.progress(progress(attempts))
    const model = await readBefore(ctx, deadline)
    if (model === TIMED_OUT) break
    attempts++
    const met = check(model)
    if (met !== undefined) return {met, attempts, elapsedMs: Date.now() - start}
    if (Date.now() + POLL_MS > deadline) {
      await sleepUntil(deadline, ctx.signal)
      break
    }
    await sleep(POLL_MS, ctx.signal)
  }
  return {attempts, elapsedMs: Date.now() - start}
}

/**
 * A result, not an error; the CLI exits with TIMEOUT's status after printing it (MCP ignores exitCode). `cliData`:
 * what --json prints, where the spec's data has another shape (docs/json.md).
 */
export function timedOut(data: object, human: string, cliData?: object): ToolResult {
  return {
    text: JSON.stringify(data, null, 2),
    data,
    cli: {human, exitCode: exitCodeFor('TIMEOUT'), ...(cliData ? {data: cliData} : {})},
  }
}
