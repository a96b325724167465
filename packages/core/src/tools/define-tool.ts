import type {z} from 'zod'

import type {ArcConfig} from '../config/config-schema.js'
import type {DeviceDriver, DeviceNeeds} from '../driver/device-driver.js'
import type {DeviceState, OtherDeviceStores} from '../state/device-state.js'
import {untilElementFound, waitOf} from './element-wait.js'

/**
 * `read` tools only observe; `action` tools change what is on the device screen; `destructive` tools change
 * data on the device (files, app state). The kind becomes MCP annotations and tells recorded devices apart.
 */
export type ToolKind = 'read' | 'action' | 'destructive'

export interface ToolImage {
  data: Buffer
  mimeType: 'image/jpeg' | 'image/png'
}

/** What the CLI shows after writing a result's files: replaces the result's `text`/`data`/`cli.stdout` where given. */
export interface SavedOutput {
  text?: string
  data?: object
  stdout?: Buffer
  /** Where each file went, for the CLI's stderr when stdout holds the tool's own output (see CliResult.notes). */
  notes?: string[]
}

/**
 * What only the command line does with a result. MCP ignores all of it: its result is `text`, `data` and `image`.
 */
export interface CliResult {
  /**
   * What the CLI prints in place of `text` when `text` is the spec's machine text (JSON an agent parses): plain
   * lines, an aligned table. Derived from `data`, so `--json` and this say the same.
   */
  human?: string
  /**
   * What `--json` prints in place of `data`, where the spec's `data` (MCP structured content) has another shape: the
   * command line's JSON has one element shape (`screenElementJson`) and snake_case keys throughout (docs/json.md).
   */
  data?: object
  /** Raw bytes for stdout in place of `text`, which then goes to stderr (an image with `-o -`). */
  stdout?: Buffer
  /** Raw bytes for stderr in place of `text`, with `stdout` (a passthrough command's own stderr). */
  stderr?: Buffer
  /** Lines for stderr, even with --json (where a file went when stdout holds other output). */
  notes?: string[]
  /**
   * The status to exit with after printing: a passthrough command's own exit status (`arc shell`), or a result that
   * is a failure for a script though not an error (a wait that ran out of time: TIMEOUT's status, so
   * `arc wait … && next` stops; `arc batch` stops there too). On MCP the result is a normal one.
   */
  exitCode?: number
  /**
   * Files the CLI may write (an image, a map): called once, after the handler, unless the call was cancelled;
   * never on MCP (it returns `image` inline). Writes all or nothing.
   */
  save?(): Promise<SavedOutput>
  /** Everything was already streamed through `ctx.emit`: nothing more is printed (not even with --json). */
  streamed?: boolean
}

/** What a tool returns: what every surface shows, and what the command line does besides. */
export interface ToolResult {
  /** What a person or an agent reads: CLI stdout (unless `cli.human` is given), MCP text content. */
  text: string
  /** Structured result, always a plain object: CLI `--json`, MCP structured content. Defaults to `{text}`. */
  data?: object
  /** An image the tool produced: MCP image content; the CLI writes it only through `cli.save`. */
  image?: ToolImage
  cli?: CliResult
  /**
   * What went wrong without failing the call (a black screenshot, a display that is off), as the handler told
   * `ctx.warn`: runTool gathers them here (a handler does not set it). The CLI has already written each to stderr as
   * it came; `--json` adds them to the object under `warnings`, and MCP appends them to the text (`Warning: …`
   * lines) and to the structured content, so an agent that sees only the result reads them too.
   */
  warnings?: string[]
  /**
   * Which backend served each of the call's device reads that arc's on-device helper could serve, and how long the
   * last one took: `{screen: {by: 'helper', ms: 41}}`, `{screenshot: {by: 'adb', ms: 230, fallback: '…'}}`. runTool
   * fills it from the driver (DeviceDriver.served) where the helper is not off; `--json` and MCP structured content
   * carry it as `backend`.
   */
  backend?: Record<string, ServedBy>
}

/** One capability's last call in a tool call: the backend that served it, its time, and why the helper did not. */
export interface ServedBy {
  by: 'helper' | 'adb'
  ms: number
  fallback?: string
  /** A screen read the helper made after an action whose screen never settled within its bound: read anyway. */
  settled?: false
}

/** What every tool gets, device or not. */
export interface BaseToolContext {
  config: ArcConfig
  /** The config file in force, for error messages about its keys. */
  configFile?: string
  /** True when the CLI prints JSON (`--json`): a handler that would write raw bytes to stdout refuses it. */
  json: boolean
  /** Working directory for relative output paths. */
  cwd: string
  /** The adb server the surface was pointed at (--adb-host/--adb-port of `arc mcp serve`), when it was. */
  adb?: {host?: string; port?: number}
  /** A note for the person at the terminal (stderr on the CLI; dropped on MCP). */
  warn(message: string): void
  /** Progress on a long wait (a spinner on a TTY). */
  progress(message: string): void
  /**
   * The work still to do will take about `ms` more (typing paced over many device calls, a long gesture): where the
   * surface holds the whole call to a deadline (the CLI), the deadline moves out to fit it; elsewhere nothing happens.
   * Say it from what was asked and what the device was measured to cost, never to outlast a device that hangs.
   */
  expectWork?(ms: number): void
  /** Aborted when the call is cancelled (Ctrl-C, MCP cancellation, client gone): stop waiting and throw. */
  signal?: AbortSignal
  /**
   * Streams one item now, for tools that produce output until stopped (`logs --follow`): the CLI prints `text` as
   * a line, or `data` as one JSON line with --json. Absent where nothing can stream (MCP): such a tool refuses its
   * streaming mode there.
   */
  emit?(item: {text: string; data: Record<string, unknown>}): void
  /**
   * Tells a session recorder (`--record`) which element an element action resolved its target to, and how a flow
   * could name it again; absent when nothing records. Said once per call, after the target is resolved.
   */
  noteTarget?(target: ActedElement): void
}

/** The element an element action acted on, as a recorded flow names it again (packages/core/src/record). */
export interface ActedElement {
  /** Its id, in full. */
  id: string
  /**
   * Selector flags and values that match it alone, exactly, on the screen it was resolved on (`--res-id`
   * `pkg:id/new_item`); absent when no text, description or resource id does.
   */
  selector?: Array<[flag: string, value: string]>
  /** An ordinal id (node_<hash>-<n>) acts only while the look-alikes it was counted among are as read. */
  ordinal: boolean
}

/** What a device tool gets: the base plus its device. */
export interface ToolContext extends BaseToolContext {
  driver: DeviceDriver
  /**
   * What arc remembers about this device between calls (element ids at the last read, the last screen): a file
   * per device in the cache folder on the CLI, memory in the MCP server.
   */
  state: DeviceState
  /**
   * What this caller alone remembers of the device, never shared with another: one store per MCP session, per CLI
   * caller that names itself (ARC_CALLER); absent, the device's (`state`). The `changes` baseline lives here, so a
   * new client's first read is never "unchanged" about a screen it never saw, and the element records this caller
   * was shown (beside the device's), so another caller's later read never changes what this caller's ids name.
   */
  callerState?: DeviceState
  /**
   * This caller's own stores of the other devices it uses (an MCP session of a server serving several): an id the
   * caller was shown on one of them only, never on this device, names an element of that device and is refused here.
   */
  callerElsewhere?: OtherDeviceStores
}

/** How tools are grouped for MCP clients (`--tools group:screen`). */
export const TOOL_GROUPS = ['screen', 'touch', 'keys', 'elements', 'text', 'apps', 'files', 'system'] as const
export type ToolGroup = (typeof TOOL_GROUPS)[number]

/**
 * A field `input` requires (so MCP lists it as required) that a command line may leave out, because a CLI-only
 * field stands in for it: a selector (`--text Submit`) for `element_id`.
 */
export interface OmittableField {
  field: string
  /**
   * Whether a word typed where the field goes is a value of it (an element id). When the field is the first
   * positional and a CLI-only field is given, the words typed fill the later positionals (`arc type append --res-id
   * email hello`: `hello` is the text) unless the first is such a value: then it and the selector stand together,
   * which the tool refuses, and the value is never taken for a later positional.
   */
  looksLike(word: string): boolean
}

export interface CliOptions<C extends z.ZodObject = z.ZodObject> {
  /** The command id, with spaces between words of a topic: `screen-state`, `press back`. */
  id: string
  /**
   * Fields only the CLI has (output paths and the like), merged into the command's flags and passed to the
   * handler; MCP never sees them.
   */
  input?: C
  /**
   * An `input` field a command line may leave out for a CLI-only one. The handler must refuse a call that gives
   * neither; its input type still shows the field as present.
   */
  mayOmit?: OmittableField
  /**
   * Fields of `input` the command line takes in another form (the same name, its own schema): `arc wait`'s
   * `--timeout 2m`, with no 30 s cap, where MCP keeps the spec's 1-30000 ms.
   */
  override?: z.ZodRawShape
  /**
   * Why the MCP server never serves this tool, for docs/mcp.md (it writes files on the machine arc runs on, or
   * tools/list has no room for it); absent: served.
   */
  only?: string
  /**
   * Fields taken as positional arguments, in order. The last may be an array field: it takes every remaining
   * argument (after `--`, flags too), as `arc shell -- ls -l` does.
   */
  positional?: string[]
  /** One-letter aliases: field name → char. */
  char?: Record<string, string>
  /**
   * For a tool whose element is optional (a screenshot cut to one): whether this call names one. The config's
   * `elements.wait` is the default `--wait` only then; the handler refuses a `--wait` given with no element.
   */
  namesElement?(input: Record<string, unknown>): boolean
  examples?: string[]
  /**
   * Recognises, from the positional arguments as typed (strings, some missing), a command line meant for another
   * command: `arc swipe up` is a scroll. Returns what to say instead of the missing or malformed arguments.
   */
  misread?(args: Record<string, unknown>): {message: string; actions: string[]} | undefined
  /**
   * Flags this command does not have that a user may reach for, with what to write instead: `type append` has no
   * `--text` (its text is an argument), and says to pick the field with `--field-text`, not "Nonexistent flag".
   */
  flagHints?: Record<string, string>
}

interface ToolFields<S extends z.ZodObject, C extends z.ZodObject> {
  /** Spec name without the `android_` prefix, snake_case: `get_screen_state`, `tap`. */
  name: string
  title: string
  /** Written for the model and the person alike; may name other tools. Keep it short: MCP lists every one. */
  description: string
  kind: ToolKind
  /** MCP group (screen, touch, keys, elements, text, apps, files, system); guessed from the name when absent. */
  group?: ToolGroup
  /** Every field has a `.describe()`; a test checks it. */
  input: S
  /** The command line's side: its id, CLI-only fields, positionals, examples. */
  cli: CliOptions<C>
  /**
   * Defaults the MCP server gives fields a call leaves out, where an agent's best default differs from a command
   * line's (a screenshot's size: an image in an agent's context costs tokens, a file does not). tools/list shows
   * them as the fields' defaults; the handler sees the value as if the caller had given it.
   */
  mcpDefaults?: Partial<z.input<S>>
  /**
   * True (or true for this input) when the handler runs until stopped: the CLI turns the first Ctrl-C into an abort
   * of `ctx.signal` and waits for the handler to wind up and return normally (a second Ctrl-C ends arc at once).
   */
  interruptible?: boolean | ((input: z.output<S> & Partial<z.output<C>>) => boolean)
}

/** A tool that acts on or reads a device (the default). */
export interface DeviceToolDefinition<
  S extends z.ZodObject = z.ZodObject,
  C extends z.ZodObject = z.ZodObject<{}>,
> extends ToolFields<S, C> {
  needsDevice?: true
  /**
   * The capabilities the handler uses, each `read` or `act` (`{screen: 'read', input: 'act'}`), or a function of the
   * input when that decides (`rotation` only reads without a value). runTool refuses a device that cannot serve
   * them before opening it (a recorded snapshot: DEVICE_READ_ONLY for an action), and the handler's driver has
   * only these methods (calling another fails INTERNAL).
   */
  needs: DeviceNeeds | ((input: z.output<S> & Partial<z.output<C>>) => DeviceNeeds)
  /**
   * True for a tool that decides its input from what it reads (an element action: it resolves an id, then taps
   * where the element is): defineTool makes the handler run whole in the device's critical section
   * (`driver.exclusive`), whoever calls it, so no other caller, in this process or another arc process, reads the
   * screen or sends input in between, and a tap is only ever sent against the screen it was resolved on.
   */
  holdsDevice?: boolean
  /**
   * True for an element action that takes the command line's `--wait` (its `cli.input` has `wait`,
   * element-wait.ts `elementWaitInput`): defineTool runs the handler again, each time in a section of its own, while
   * it fails ELEMENT_NOT_FOUND before sending any input, until the wait runs out (then TIMEOUT).
   */
  waitsForElement?: boolean
  /** `input` holds the CLI-only fields too, already validated, when run as a command (absent on MCP). */
  handler(ctx: ToolContext, input: z.output<S> & Partial<z.output<C>>): Promise<ToolResult>
}

/** A tool that needs no device (list_devices): its context has no driver and no device state. */
export interface HostToolDefinition<
  S extends z.ZodObject = z.ZodObject,
  C extends z.ZodObject = z.ZodObject<{}>,
> extends ToolFields<S, C> {
  needsDevice: false
  handler(ctx: BaseToolContext, input: z.output<S> & Partial<z.output<C>>): Promise<ToolResult>
}

export type ToolDefinition<S extends z.ZodObject = z.ZodObject, C extends z.ZodObject = z.ZodObject<{}>> =
  DeviceToolDefinition<S, C> | HostToolDefinition<S, C>

/**
 * Keeps the schema's types for the handler; a tool that `holdsDevice` gets its handler wrapped in the device's
 * critical section.
 */
export function defineTool<S extends z.ZodObject, C extends z.ZodObject = z.ZodObject<{}>>(
  tool: HostToolDefinition<S, C>
): HostToolDefinition<S, C>
export function defineTool<S extends z.ZodObject, C extends z.ZodObject = z.ZodObject<{}>>(
  tool: DeviceToolDefinition<S, C>
): DeviceToolDefinition<S, C>
export function defineTool(tool: ToolDefinition): ToolDefinition {
  if (tool.needsDevice === false || (!tool.holdsDevice && !tool.waitsForElement)) return tool
  const own = tool.handler
  const held: typeof own = tool.holdsDevice ? (ctx, input) => ctx.driver.exclusive(() => own(ctx, input)) : own
  // The wait is outside the section: each attempt takes it anew, and others may read the device in between.
  const handler: typeof own = tool.waitsForElement
    ? (ctx, input) => untilElementFound(ctx, waitOf(input), (attempt) => held(attempt, input))
    : held
  return {...tool, handler}
}

// Tools are stored together, so their handlers' input types are erased to the common base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>
