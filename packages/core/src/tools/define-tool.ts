import type {z} from 'zod'

import type {ArcConfig} from '../config/config-schema.js'
import type {DeviceDriver} from '../driver/device-driver.js'
import type {DeviceState} from '../state/device-state.js'

/**
 * `read` tools only observe; `action` tools change what is on the device screen; `destructive` tools change
 * data on the device (files, app state). The kind becomes MCP annotations and tells recorded devices apart.
 */
export type ToolKind = 'read' | 'action' | 'destructive'

export interface ToolImage {
  data: Buffer
  mimeType: 'image/jpeg' | 'image/png'
}

export interface ToolResult {
  /** What a person or an agent reads: CLI stdout, MCP text content. */
  text: string
  /** Structured result: CLI `--json`, MCP structured content. Defaults to `{text}`. */
  data?: unknown
  image?: ToolImage
  /**
   * Raw bytes for the CLI to write to stdout in place of `text`, which then goes to stderr (an image with
   * `-o -`). MCP ignores it.
   */
  stdout?: Buffer
  /** Raw bytes for the CLI's stderr in place of `text`, with `stdout` (a passthrough command's own stderr). */
  stderr?: Buffer
  /** Everything was already streamed through `ctx.emit`: the CLI prints nothing more (not even with --json). */
  streamed?: boolean
  /** The CLI exits with this status after printing (a passthrough command's own exit status). MCP ignores it. */
  exitCode?: number
}

export interface ToolContext {
  driver: DeviceDriver
  /**
   * What arc remembers about this device between calls (element ids at the last read, the last screen): a file
   * per device in the cache folder on the CLI, memory in the MCP server.
   */
  state: DeviceState
  config: ArcConfig
  /** The config file in force, for error messages about its keys. */
  configFile?: string
  /** `cli` when run as a command (may write files), `mcp` when served to an agent (returns images inline). */
  surface: 'cli' | 'mcp'
  /** True when the CLI prints JSON (`--json`): a handler that would write raw bytes to stdout refuses it. */
  json: boolean
  /** Working directory for relative output paths. */
  cwd: string
  /** A note for the person at the terminal (stderr on the CLI; dropped on MCP). */
  warn(message: string): void
  /** Progress on a long wait (a spinner on a TTY). */
  progress(message: string): void
  signal?: AbortSignal
  /**
   * Streams one item now, for tools that produce output until stopped (`logs --follow`): the CLI prints `text` as
   * a line, or `data` as one JSON line with --json. Absent where nothing can stream (MCP): such a tool refuses its
   * streaming mode there.
   */
  emit?(item: {text: string; data: Record<string, unknown>}): void
}

export interface CliOptions {
  /**
   * Fields taken as positional arguments, in order. The last may be an array field: it takes every remaining
   * argument (after `--`, flags too), as `arc shell -- ls -l` does.
   */
  positional?: string[]
  /** One-letter aliases: field name → char. */
  char?: Record<string, string>
  examples?: string[]
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject, C extends z.ZodObject = z.ZodObject<{}>> {
  /** Spec name without the `android_` prefix, snake_case: `get_screen_state`, `tap`. */
  name: string
  /** CLI command id with spaces between words of a topic: `screen-state`, `press back`. */
  cliId: string
  title: string
  /** Written for the model and the person alike; may name other tools. */
  description: string
  kind: ToolKind
  /** Every field has a `.describe()`; a test checks it. */
  input: S
  /**
   * Fields only the CLI has (output paths and the like), merged into the command's flags and passed to the
   * handler; MCP never sees them.
   */
  cliInput?: C
  /** False for tools that need no device (config, emulate). Default true. */
  needsDevice?: boolean
  cli?: CliOptions
  /**
   * True (or true for this input) when the handler runs until stopped: the CLI turns the first Ctrl-C into an abort
   * of `ctx.signal` and waits for the handler to wind up and return (a second Ctrl-C ends arc at once).
   */
  interruptible?: boolean | ((input: z.output<S> & Partial<z.output<C>>) => boolean)
  /** `input` holds the CLI-only fields too, already validated, when run as a command (absent on MCP). */
  handler(ctx: ToolContext, input: z.output<S> & Partial<z.output<C>>): Promise<ToolResult>
}

/** Identity function that keeps the schema's types for the handler. */
export function defineTool<S extends z.ZodObject, C extends z.ZodObject = z.ZodObject<{}>>(tool: ToolDefinition<S, C>): ToolDefinition<S, C> {
  return tool
}

// Tools are stored together, so their handlers' input types are erased to the common base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>
