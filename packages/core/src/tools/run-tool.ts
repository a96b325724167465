/**
 * Running a tool, whoever asks: validate the input with the tool's schema, open its device, build the context,
 * run the handler, close the device. The CLI adapter (cli/tool-command.ts) and the MCP server both call
 * `runTool`; each decides how to show the result (print, write files, return content).
 */
import type {z} from 'zod'

import type {ArcConfig} from '../config/config-schema.js'
import {refusalFor, toolDriver, type Backend} from '../driver/compose.js'
import type {DeviceDriver, DeviceNeeds} from '../driver/device-driver.js'
import {ArcError, CancelledError, InternalError, InvalidInputError} from '../errors/arc-error.js'
import {describeInputIssues, REPORT_INPUT} from '../errors/describe-zod-issues.js'
import type {DeviceState, OtherDeviceStores} from '../state/device-state.js'
import type {ActedElement, AnyTool, BaseToolContext, ToolContext, ToolResult} from './define-tool.js'

export interface RunDeps {
  config: ArcConfig
  configFile?: string
  cwd: string
  /** The adb server given to the surface, for tools that reach it without a device (list_devices). */
  adb?: {host?: string; port?: number}
  /** The CLI's `--json` (false elsewhere). */
  json?: boolean
  warn?(message: string): void
  progress?(message: string): void
  /** The surface's whole-command deadline moves out by the work a handler says is still to come (CLI); none on MCP. */
  expectWork?(ms: number): void
  /** Cancels the call: device calls in flight are cut off, nothing is saved, the call fails with CANCELLED. */
  signal?: AbortSignal
  /** Opens the device a device tool runs on; runTool closes it when the call ends. */
  openDriver(): Promise<DeviceDriver>
  /**
   * The selected device's backend when it serves less than every capability (a recorded snapshot): a call needing
   * more is refused with its error before the device is opened. Absent: the device serves every capability.
   */
  backend?: Backend
  /** The per-device store for the opened device (a file per device on the CLI, memory in the MCP server). */
  stateFor(driver: DeviceDriver): DeviceState
  /**
   * This caller's own store for the device (one MCP session, a CLI caller named by ARC_CALLER): the `changes`
   * baseline. Default: the device's store (`stateFor`), for a caller that cannot be told from others.
   */
  callerStateFor?(driver: DeviceDriver): DeviceState
  /** This caller's own stores of the other devices it uses (ToolContext.callerElsewhere); default none. */
  callerElsewhereFor?(driver: DeviceDriver): OtherDeviceStores
  /** Names the inputs in a validation error (the CLI names flags); default: the field names. */
  describeIssues?(error: z.ZodError, schema: z.ZodObject): string
  /** Call the result's `save` (write its files) before returning: the CLI does, MCP does not. */
  save?: boolean
  /** Where a tool that runs until stopped prints each item (the CLI's stdout); absent on MCP. */
  emit?(item: {text: string; data: Record<string, unknown>}): void
  /** A session recorder (`--record`): told of each call, the element it acted on, and whether it succeeded. */
  observe?: ToolObserver
}

/** Watches tool calls for a session recorder: one watcher per call, or none for a call it does not record. */
export type ToolObserver = (call: {
  tool: AnyTool
  input: unknown
  cliInput?: unknown
  /** The device the call runs on, where the surface serves several (MCP's `device` argument) or the line named it. */
  device?: string
  /** The adb server the command line named (`--adb-host`, `--adb-port`): with the serial, which device a step acted on. */
  adbHost?: string
  adbPort?: number
}) => CallWatcher | undefined

export interface CallWatcher {
  /** The element the call acted on (an element action), as resolved. */
  target(target: ActedElement): void
  /**
   * The call succeeded: it returned, with no failing exit status. `serial`: the device it ran on (the opened
   * driver's), absent for a tool that opens none.
   */
  succeeded(serial?: string): void
}

export interface ToolCall {
  /** The tool's input, before validation (MCP arguments, or what the CLI parsed from its flags). */
  input: unknown
  /** Values of the tool's CLI-only fields, when run as a command. */
  cliInput?: unknown
}

/** Names each input by its field, as an MCP client sent it: `offset must be at least 0 (got -1): …`. */
function fieldIssues(error: z.ZodError, schema: z.ZodObject): string {
  return describeInputIssues(error, schema, (key) => key)
}

function validate(
  schema: z.ZodObject,
  raw: unknown,
  describe: (error: z.ZodError, schema: z.ZodObject) => string
): Record<string, unknown> {
  const parsed = schema.safeParse(raw ?? {}, REPORT_INPUT)
  if (!parsed.success) throw new InvalidInputError(describe(parsed.error, schema))
  return parsed.data as Record<string, unknown>
}

/** The error a cancelled call fails with: the signal's reason when it is an ArcError (a timeout), else CANCELLED. */
export function cancellation(signal: AbortSignal): ArcError {
  if (signal.reason instanceof ArcError) return signal.reason
  return new CancelledError('cancelled before it finished; nothing was saved', {
    actions: ['Run it again when you are ready; device actions already sent may have taken effect.'],
  })
}

/**
 * Resolves with `work`, or rejects with the cancellation as soon as `signal` aborts (running `onAbort` first, so
 * the work's device calls are cut off rather than left running).
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return work
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.()
      reject(cancellation(signal))
    }
    if (signal.aborted) {
      abort()
      work.catch(() => undefined)
      return
    }
    signal.addEventListener('abort', abort, {once: true})
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        if (signal.aborted) reject(cancellation(signal))
        else resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort)
        reject(signal.aborted ? cancellation(signal) : error)
      }
    )
  })
}

const RESULT_KEYS = new Set(['text', 'data', 'image', 'cli'])
const CLI_KEYS = new Set(['human', 'data', 'stdout', 'stderr', 'notes', 'exitCode', 'save', 'streamed'])

/**
 * A result is `{text, data, image}` for every surface plus `cli` for the command line alone: a field anywhere else
 * would be dropped without a word (`human` next to `text` prints nothing), so it is refused as the bug it is.
 */
function checkResult(tool: AnyTool, result: ToolResult): void {
  const bug = (what: string) =>
    new InternalError(`tool ${tool.name} returned ${what}`, {
      actions: ['This is a bug in arc: a result holds text, data and image; what only the CLI uses goes under `cli`.'],
    })
  const stray = Object.keys(result).find((key) => !RESULT_KEYS.has(key))
  if (stray !== undefined) throw bug(`a result field ${JSON.stringify(stray)} no surface reads`)
  const strayCli = Object.keys(result.cli ?? {}).find((key) => !CLI_KEYS.has(key))
  if (strayCli !== undefined) throw bug(`a cli field ${JSON.stringify(strayCli)} the CLI does not read`)
  checkData(tool, result)
}

function checkData(tool: AnyTool, result: {data?: unknown}): void {
  const {data} = result
  if (
    data !== undefined &&
    (data === null || typeof data !== 'object' || Array.isArray(data) || Buffer.isBuffer(data))
  ) {
    throw new InternalError(`tool ${tool.name} returned data that is not a plain object`, {
      actions: ['This is a bug in arc: a handler must return `data` as an object.'],
    })
  }
}

/**
 * The schema a call's input must meet: the tool's; for a command line, with its `cli.override` fields in their
 * command-line form and its `cli.mayOmit` field optional.
 */
export function inputSchema(tool: AnyTool, fromCli: boolean): z.ZodObject {
  const schema = fromCli && tool.cli.override ? tool.input.extend(tool.cli.override) : tool.input
  const omit = fromCli ? tool.cli.mayOmit?.field : undefined
  if (omit === undefined) return schema
  return schema.partial({[omit]: true} as Record<string, true>)
}

/** What every screen read of a sleeping display says, whichever tool read it. */
export function displayOffWarning(serial: string): string {
  return `the display of ${serial} is off (asleep): the screen read lists what the apps would draw, but a screenshot is black and a tap reaches nothing; wake it first (arc device unlock, or press key WAKEUP)`
}

/**
 * What a screenshot that came out entirely black says while the display is on: Android captures a window with
 * FLAG_SECURE (a password field's screen, a banking app, protected video) as black.
 */
export function blackScreenshotWarning(serial: string): string {
  return `the screenshot of ${serial} is entirely black while its display is on: a window with FLAG_SECURE (a password, banking or protected video screen) blocks capture, or the screen really is black; screen-state still reads its elements`
}

/** The handler's driver, whose screen reads warn when the window manager says the display sleeps. */
function watchDisplay(driver: DeviceDriver, warn: (message: string) => void): DeviceDriver {
  const read = driver.captureScreen.bind(driver)
  const watched = driver as DeviceDriver & {captureScreen: typeof read}
  watched.captureScreen = async (...args: Parameters<typeof read>) => {
    const capture = await read(...args)
    if (capture.displayOff) warn(displayOffWarning(driver.serial))
    return capture
  }
  return watched
}

/** Runs one tool call from start to end; throws ArcErrors (INVALID_INPUT for a bad input, CANCELLED when aborted). */
export async function runTool(tool: AnyTool, call: ToolCall, deps: RunDeps): Promise<ToolResult> {
  const describe = deps.describeIssues ?? fieldIssues
  const fromCli = call.cliInput !== undefined
  const input = validate(inputSchema(tool, fromCli), call.input, describe)
  const extra = tool.cli.input && fromCli ? validate(tool.cli.input, call.cliInput, describe) : {}
  const {signal} = deps
  if (signal?.aborted) throw cancellation(signal)
  // Every warning goes out at once (the CLI's stderr) and comes back with the result (--json, MCP).
  const warnings: string[] = []
  const warn = (message: string) => {
    if (!warnings.includes(message)) warnings.push(message)
    deps.warn?.(message)
  }
  const base: BaseToolContext = {
    config: deps.config,
    configFile: deps.configFile,
    json: deps.json ?? false,
    cwd: deps.cwd,
    ...(deps.adb ? {adb: deps.adb} : {}),
    warn,
    progress: deps.progress ?? (() => undefined),
    expectWork: deps.expectWork ?? (() => undefined),
    signal,
    ...(deps.emit ? {emit: deps.emit} : {}),
  }
  const watcher = deps.observe?.({tool, input: call.input, cliInput: call.cliInput})
  if (watcher) base.noteTarget = (target) => watcher.target(target)
  // A tool that runs until stopped treats the abort as "wind up": it returns normally, and its files are saved.
  const untilStopped =
    typeof tool.interruptible === 'function' ? tool.interruptible({...input, ...extra}) : tool.interruptible === true
  const race = <T>(work: Promise<T>, onAbort?: () => void) => (untilStopped ? work : abortable(work, signal, onAbort))
  let driver: DeviceDriver | undefined
  // One close, awaited by whoever comes last: a cancelled call starts it at once and still waits for it, since
  // closing the ADB driver puts back what a cut-off action changed on the device.
  let closing: Promise<void> | undefined
  const close = () => (driver ? (closing ??= driver.close()) : Promise.resolve())
  try {
    let result: ToolResult
    if (tool.needsDevice === false) {
      result = await race(tool.handler(base, {...input, ...extra}))
    } else {
      const args = {...input, ...extra}
      const needs: DeviceNeeds = typeof tool.needs === 'function' ? tool.needs(args) : tool.needs
      const refused = deps.backend && refusalFor(deps.backend, needs)
      if (refused) throw refused
      const opening = deps.openDriver()
      // A device opened after the call was cancelled is closed as soon as it arrives.
      void opening.then(
        (d) => (signal?.aborted ? d.close() : undefined),
        () => undefined
      )
      driver = await abortable(opening, signal)
      const state = deps.stateFor(driver)
      const ctx: ToolContext = {
        ...base,
        driver: watchDisplay(toolDriver(driver, needs, tool.name), warn),
        state,
        callerState: deps.callerStateFor?.(driver) ?? state,
        ...(deps.callerElsewhereFor ? {callerElsewhere: deps.callerElsewhereFor(driver)} : {}),
      }
      result = await race(tool.handler(ctx, args), () => void close())
    }
    checkResult(tool, result)
    const save = result.cli?.save
    if (deps.save && save) {
      if (signal?.aborted && !untilStopped) throw cancellation(signal)
      const saved = await save()
      checkData(tool, saved)
      // Saved text replaces the handler's, and with it any human rendering of the handler's text.
      const {text, data, stdout, notes} = saved
      result = {
        ...result,
        ...(text === undefined ? {} : {text}),
        ...(data === undefined ? {} : {data}),
        cli: {
          ...result.cli,
          ...(text === undefined ? {} : {human: undefined}),
          ...(stdout === undefined ? {} : {stdout}),
          ...(notes === undefined ? {} : {notes}),
        },
      }
    }
    if (watcher && !result.cli?.exitCode) watcher.succeeded(driver?.serial)
    const served = driver?.served?.()
    if (served) result = {...result, backend: served}
    if (served?.screen?.settled === false)
      warn(
        `the screen was still changing ${(served.screen.ms / 1000).toFixed(1)} s after the last action (an animation, a video or a spinner): it was read anyway and may show a moment of that change; read it again, or wait for what you expect (arc wait)`
      )
    return warnings.length > 0
      ? {...result, warnings: [...(result.warnings ?? []), ...warnings.filter((w) => !result.warnings?.includes(w))]}
      : result
  } finally {
    await close()
  }
}
