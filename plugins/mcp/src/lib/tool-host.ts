/**
 * The tools one server offers, listed once and called through `runTool`: the listing (names, JSON Schemas,
 * annotations) is computed at start-up, so a request only looks a name up and runs the tool.
 */
import {
  ELEMENT_RECORDS_KEY,
  errorJson,
  formatError,
  InvalidInputError,
  MemoryDeviceState,
  partialBackend,
  resolveDriver,
  runTool,
  toArcError,
  type AnyTool,
  type ArcConfig,
  type DeviceDriver,
  type DeviceState,
  type ToolKind,
  type ToolObserver,
  z,
} from '@arc-cli/core'
import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js'

import {ambiguousDefaultDevice, pickTarget, withDeviceArgument} from './device-argument.js'
import {serverInstructions} from './instructions.js'
import {toolName, type DeviceTarget} from './tool-set.js'

export interface ToolHostOptions {
  tools: AnyTool[]
  targets: DeviceTarget[]
  config: ArcConfig
  configFile?: string
  cwd: string
  /** --adb-host/--adb-port of the server. */
  adb?: {host?: string; port?: number}
  /** Where notes from tools go (the server's stderr). */
  log?(message: string): void
  /** No line per call in the log (`--quiet`); warnings and refusals still go to it. */
  quiet?: boolean
  /**
   * The spec's per-device names, android_<slug>_<name> for each device (`--slug-names`); default: each tool once,
   * with a `device` argument when several devices are served.
   */
  slugNames?: boolean
  /** The server's default observation detail for get_screen_state (`--detail`, `mcp.detail`); default full. */
  detail?: 'full' | 'compact'
  /** A session recorder (`--record`): told of every call (runTool's observe), with the device when several are served. */
  observe?: ToolObserver
  /** The memory the sessions' own stores may take in all (default ToolHost.MAX_SESSION_BYTES); tests give less. */
  sessionBytes?: number
}

/**
 * The store of a call that carries no session (an HTTP client that did not send back its Mcp-Session-Id): no caller
 * can be told from another there, so its element records are the device's, as a CLI caller's without ARC_CALLER are
 * (checked against the device's record, and refused an id shown on another served device and never on this one), and
 * everything else (the `changes` baseline) is its own and fresh, so it never reads another client's baseline.
 */
class SessionlessStore implements DeviceState {
  private readonly own = new MemoryDeviceState()

  constructor(private readonly device: DeviceState) {}

  private of(key: string): DeviceState {
    return key === ELEMENT_RECORDS_KEY ? this.device : this.own
  }

  get<T>(key: string, valid: (value: unknown) => value is T): Promise<T | undefined> {
    return this.of(key).get(key, valid)
  }

  set(key: string, value: unknown): Promise<void> {
    return this.of(key).set(key, value)
  }

  update<T>(
    key: string,
    valid: (value: unknown) => value is T,
    change: (current: T | undefined) => unknown
  ): Promise<void> {
    return this.of(key).update(key, valid, change)
  }

  delete(key: string): Promise<void> {
    return this.of(key).delete(key)
  }
}

/** A device as a call opened it: its adb server (none for a snapshot) and serial. */
const deviceKey = (driver: DeviceDriver) => JSON.stringify([driver.adbServer ?? null, driver.serial])

interface Served {
  tool: AnyTool
  /** The one device of a per-device name (slug names). */
  target?: DeviceTarget
  /** The devices a call picks from with its `device` argument (one tool set). */
  targets?: DeviceTarget[]
}

/** MCP annotations from a tool's kind: reads are read-only and idempotent; only `destructive` tools destroy. */
/**
 * MCP annotations from the tool's kind, written only where they differ from MCP's defaults (readOnlyHint false,
 * destructiveHint true, idempotentHint false, openWorldHint true): every key costs tokens in every agent's context.
 * openWorldHint is left at its default, the cautious reading: arc acts on a real device, and some tools reach
 * beyond it (open_url, download_from_url, shell).
 */
export function annotationsFor(kind: ToolKind): NonNullable<Tool['annotations']> {
  if (kind === 'read') return {readOnlyHint: true, idempotentHint: true}
  if (kind === 'action') return {destructiveHint: false}
  return {}
}

/**
 * The description agents see: the tool's first sentence when the whole is long. The rest (how it works over ADB,
 * edge cases) stays in `arc <command> --help` and docs/commands.md; the budget is the whole tools/list.
 */
export function mcpDescription(description: string): string {
  let text = description
  if (text.length > 80) {
    const end = /[.!?](?=\s+[A-Z(`"])/.exec(text)
    if (end) text = text.slice(0, end.index + 1)
  }
  if (text.length > 80) {
    const colon = text.indexOf(': ')
    // Never inside brackets: `JSON {files: [...]}` cut there would leave `{files.`.
    if (colon >= 30 && balanced(text.slice(0, colon))) text = `${text.slice(0, colon)}.`
  }
  return text
}

/** Whether every bracket opened in `text` is closed. */
function balanced(text: string): boolean {
  let depth = 0
  for (const ch of text) {
    if ('([{'.includes(ch)) depth++
    else if (')]}'.includes(ch)) depth--
  }
  return depth === 0
}

/** Drops what costs tokens and tells a model nothing (`minLength: 1`: runTool still checks it). */
function trim(node: unknown): void {
  if (!node || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (record.minLength === 1) delete record.minLength
  // Tool arguments are validated by the tool's own schema; `additionalProperties: false` repeats on every object.
  if (record.additionalProperties === false) delete record.additionalProperties
  // A pattern (package ids) is for validation, which the tool's schema does; to a model it is noise.
  if (typeof record.pattern === 'string') delete record.pattern
  // zod's whole numbers carry the safe-integer range as bounds: no bound at all, to a model.
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum
  if (typeof record.description === 'string') record.description = shortField(record.description, record)
  for (const value of Object.values(record)) trim(value)
}

/**
 * A field's description for tools/list: a range in brackets that the schema's own minimum/maximum (or maxLength)
 * already states goes, and a long description keeps its first sentence or the words before its first bracket,
 * which name the field; `--help` keeps the whole.
 */
function shortField(description: string, schema: Record<string, unknown>): string {
  // A description that says what each of the field's values does (`ack: …`) is kept whole: cut, it would list
  // values without their meaning.
  if (explainsValues(description, schema)) return description
  let text = description
    .replace(/\s*\(>= ?0\)/g, schema.minimum === 0 ? '' : '$&')
    .replace(/\s*\((-?\d+)\s*-\s*(-?\d+)( [a-z]+)?\)/g, (whole, lo: string, hi: string) =>
      (Number(lo) === schema.minimum && Number(hi) === schema.maximum) || Number(hi) === schema.maxLength ? '' : whole
    )
  if (text.length > 50) {
    // The first sentence, else the words before a bracket, where at least 20 characters come before the cut.
    const at = (re: RegExp) => [...text.matchAll(re)].find((m) => m.index >= 20)?.index
    const cut = at(/(?<!\be\.g|\bi\.e)\. /g) ?? at(/ \(/g)
    if (cut !== undefined) text = text.slice(0, cut)
  }
  return text
}

function explainsValues(description: string, schema: Record<string, unknown>): boolean {
  const values = schema.enum
  return (
    Array.isArray(values) &&
    values.length > 1 &&
    values.every((value) => typeof value === 'string' && description.includes(`${value}: `))
  )
}

/** The tool's input as JSON Schema for `tools/list` (what it accepts: defaults are optional). */
export function inputSchemaFor(tool: AnyTool): Tool['inputSchema'] {
  const schema = z.toJSONSchema(tool.input, {io: 'input', target: 'draft-7'}) as Record<string, unknown>
  delete schema.$schema
  trim(schema)
  return schema as Tool['inputSchema']
}

/** `args` with the server's defaults for the fields the tool has and the call left out (a non-object is left alone). */
function withDefaults(tool: AnyTool, args: unknown, defaults: Record<string, unknown>): unknown {
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return args
  const given = (args ?? {}) as Record<string, unknown>
  const added = Object.entries(defaults).filter(([field]) => field in tool.input.shape && given[field] === undefined)
  return added.length > 0 ? {...given, ...Object.fromEntries(added)} : args
}

export function errorResult(error: unknown): CallToolResult {
  const arcError = toArcError(error)
  return {
    isError: true,
    // `Error [CODE]: message` and its `Try:` lines, as the CLI prints them (without colour).
    content: [{type: 'text', text: formatError(arcError)}],
    structuredContent: errorJson(arcError),
  }
}

/**
 * The defaults a tool's fields get over MCP: the tool's own `mcpDefaults` (a screenshot's size), then the server's
 * (`--detail` for get_screen_state's `detail`). A call that leaves such a field out gets the value, and tools/list
 * shows it as the field's default.
 */
function argumentDefaults(options: ToolHostOptions, tool: AnyTool): Record<string, unknown> {
  const defaults: Record<string, unknown> = {...tool.mcpDefaults}
  if (options.detail && tool.name === 'get_screen_state') defaults.detail = options.detail
  return defaults
}

/** The device a call ran on, as far as it got: the served device string, then the opened device's serial. */
interface CallDevice {
  device?: string
}

/**
 * The server's line on stderr for one call: tool, device, time and outcome (`ok`, or `error` and the code). Never
 * an argument: they may be secrets (text typed into a password field, file contents).
 */
export function callLine(name: string, device: string | undefined, ms: number, result: CallToolResult): string {
  const code = (result.structuredContent as {error?: {code?: unknown}} | undefined)?.error?.code
  const outcome = result.isError ? `error ${typeof code === 'string' ? code : 'INTERNAL'}` : 'ok'
  return `call ${name} device=${device ?? '-'} ${Math.round(ms)} ms ${outcome}`
}

export class ToolHost {
  readonly listing: {tools: Tool[]}
  /** The `instructions` of the server's initialize result (instructions.ts). */
  readonly instructions: string
  private readonly served = new Map<string, Served>()

  constructor(private readonly options: ToolHostOptions) {
    const tools: Tool[] = []
    const several = options.targets.length > 1
    const add = (name: string, served: Served, description: string) => {
      if (this.served.has(name)) return
      this.served.set(name, served)
      const schema = inputSchemaFor(served.tool)
      for (const [field, value] of Object.entries(argumentDefaults(options, served.tool))) {
        const property = schema.properties?.[field] as Record<string, unknown> | undefined
        if (property) property.default = value
      }
      const annotations = annotationsFor(served.tool.kind)
      // No `title`: optional in MCP, and the name and description say it; every key costs tokens per tool. No
      // empty `annotations` either: absent, MCP reads its defaults, as from `{}`.
      tools.push({
        name,
        description: mcpDescription(description),
        inputSchema: served.targets ? withDeviceArgument(schema, served.targets) : schema,
        ...(Object.keys(annotations).length > 0 ? {annotations} : {}),
      })
    }
    for (const tool of options.tools) {
      if (tool.needsDevice === false) {
        const slug = options.slugNames && !several ? options.targets[0]?.slug : undefined
        add(toolName(slug, tool.name), {tool}, tool.description)
      } else if (!options.slugNames) {
        add(toolName(undefined, tool.name), {tool, targets: options.targets}, tool.description)
      } else {
        for (const target of options.targets) {
          const description = several ? `[device ${target.slug}] ${tool.description}` : tool.description
          add(toolName(target.slug, tool.name), {tool, target}, description)
        }
      }
    }
    this.listing = {tools}
    this.instructions = serverInstructions({
      served: new Set(options.tools.map((t) => t.name)),
      targets: options.targets,
      slugNames: options.slugNames ?? false,
      detail: options.detail ?? 'full',
    })
  }

  /**
   * One memory store per device for the server's life, by the device a call opened (deviceKey), not by the served
   * name: a server started without --device serves whichever device is the default at each call, and a phone
   * unplugged and another plugged in are two devices, whose ids must not pass for each other's.
   */
  private readonly states = new Map<string, MemoryDeviceState>()

  private stateOf(device: string): MemoryDeviceState {
    let state = this.states.get(device)
    if (!state) this.states.set(device, (state = new MemoryDeviceState()))
    return state
  }

  /** Sessions whose own stores are kept (the oldest is dropped past this: its next read starts a new baseline). */
  static readonly MAX_SESSIONS = 1000
  /**
   * The memory the kept sessions' stores may take in all: past it the least recently used are dropped (their next
   * read starts afresh). One session's records and baseline weigh some 120 KB per device after one read of a
   * 200-element screen, so without it 1,000 sessions of a long-running server (one per agent run) held hundreds of MB.
   */
  static readonly MAX_SESSION_BYTES = 64 * 1024 * 1024
  /** Each MCP session's own store per device: what a caller must not share with another (the `changes` baseline). */
  private readonly sessions = new Map<string, Map<string, MemoryDeviceState>>()

  /**
   * The store of `session` for `device`; a call without a session (an HTTP client that did not send back its
   * Mcp-Session-Id) gets a fresh one for its baseline, so it never reads another client's, with the device's element
   * records (SessionlessStore).
   */
  private callerStateOf(session: string | undefined, device: string): DeviceState {
    if (session === undefined) return new SessionlessStore(this.stateOf(device))
    let stores = this.sessions.get(session)
    if (stores) this.sessions.delete(session)
    else stores = new Map()
    // Most recently used last: the first key is the one to drop.
    this.sessions.set(session, stores)
    if (this.sessions.size > ToolHost.MAX_SESSIONS) this.drop(this.sessions.keys().next().value as string)
    let state = stores.get(device)
    if (!state) stores.set(device, (state = new MemoryDeviceState()))
    return state
  }

  /** Forgets what `session` was shown and read (the HTTP server ended it: DELETE, or too many sessions). */
  endSession(session: string): void {
    this.sessions.delete(session)
  }

  /**
   * Told of each session whose stores are dropped (past MAX_SESSIONS or the memory budget). The HTTP server ends it
   * (its next request gets 404): carried on, its element actions would be checked against the device's record, the
   * last read by any client, instead of what it was shown itself.
   */
  onDrop: ((session: string) => void) | undefined

  private drop(session: string): void {
    this.sessions.delete(session)
    this.onDrop?.(session)
  }

  /** The memory the kept sessions' stores take (MemoryDeviceState.bytes). */
  sessionBytes(): number {
    let total = 0
    for (const stores of this.sessions.values()) for (const state of stores.values()) total += state.bytes
    return total
  }

  /**
   * Drops the least recently used sessions while the kept ones weigh more than the budget; `current` (the session of
   * the call that just ended) is kept whatever it weighs.
   */
  private trimSessions(current: string | undefined): void {
    const budget = this.options.sessionBytes ?? ToolHost.MAX_SESSION_BYTES
    let total = this.sessionBytes()
    for (const [session, stores] of this.sessions) {
      if (total <= budget) return
      if (session === current) continue
      for (const state of stores.values()) total -= state.bytes
      this.drop(session)
    }
  }

  /**
   * The stores `session` has of the devices other than `device`; without a session, the stores of the other devices
   * served (what any caller was shown there), as the CLI without ARC_CALLER has the other devices of its cache folder.
   */
  private callerElsewhere(session: string | undefined, device: string): DeviceState[] {
    if (session === undefined) return [...this.states].filter(([other]) => other !== device).map(([, state]) => state)
    const stores = this.sessions.get(session)
    return stores ? [...stores].filter(([other]) => other !== device).map(([, state]) => state) : []
  }

  has(name: string): boolean {
    return this.served.has(name)
  }

  /**
   * The recorder's observer for a call on `target`, told the device when the server serves several: the recorder keeps
   * a flow's steps to one device (a flow names none; arc test picks it).
   */
  private observeFor(target: DeviceTarget | undefined): ToolObserver {
    const observe = this.options.observe!
    const device = this.options.targets.length > 1 ? target?.device : undefined
    return (call) => observe(device === undefined ? call : {...call, device})
  }

  /** Calls still running. */
  private readonly running = new Set<Promise<CallToolResult>>()

  /**
   * Runs one `tools/call` for an MCP `session` (undefined when the client gave none); every failure, invalid input
   * included, is an `isError` result with the error code.
   */
  call(name: string, args: unknown, signal?: AbortSignal, session?: string): Promise<CallToolResult> {
    const started = performance.now()
    const on: CallDevice = {}
    const stopping = this.stopping.signal
    const cut = signal ? AbortSignal.any([signal, stopping]) : stopping
    const call = this.run(name, args, cut, session, on).then((result) => {
      if (session !== undefined) this.trimSessions(session)
      if (!this.options.quiet)
        this.options.log?.(
          callLine(this.served.has(name) ? name : '(unknown tool)', on.device, performance.now() - started, result)
        )
      return result
    })
    this.running.add(call)
    void call.finally(() => this.running.delete(call))
    return call
  }

  /** Aborted when the server stops: every call running, and any that comes after, ends CANCELLED. */
  private readonly stopping = new AbortController()

  /**
   * For a server that is stopping (SIGTERM, SIGINT): cancels every call running, as a client's cancellation does
   * (device commands cut off, what an action must undo undone: a keyboard switched for typing is set back), and any
   * call that comes after; resolves once none runs, each having its CANCELLED result.
   */
  async cancelAll(): Promise<number> {
    const running = this.running.size
    this.stopping.abort()
    await this.idle()
    return running
  }

  /** Resolves when no call is running (a call that starts meanwhile is waited for too). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }

  private async run(
    name: string,
    args: unknown,
    signal: AbortSignal | undefined,
    session: string | undefined,
    on: CallDevice
  ): Promise<CallToolResult> {
    const served = this.served.get(name)
    if (!served)
      return errorResult(new InvalidInputError(`unknown tool ${JSON.stringify(name)}; tools/list gives the names`))
    const {config, adb} = this.options
    const log = this.options.log ?? (() => undefined)
    let target = served.target
    let input = args
    try {
      if (served.targets) ({target, args: input} = pickTarget(served.targets, args))
    } catch (error) {
      return errorResult(error)
    }
    input = withDefaults(served.tool, input, argumentDefaults(this.options, served.tool))
    on.device = target?.device
    // A server is a resident host: the helper's start is paid once, so touches go through it (AdbDriverOptions).
    const selection = {device: target?.device, adbHost: adb?.host, adbPort: adb?.port, config, resident: true}
    try {
      const result = await runTool(
        served.tool,
        {input: input ?? {}},
        {
          config,
          configFile: this.options.configFile,
          cwd: this.options.cwd,
          adb,
          signal,
          warn: (message) => log(`${name}: warning: ${message}`),
          openDriver: async () => {
            const driver = await resolveDriver(selection).catch((error: unknown) => {
              throw selection.device === undefined ? ambiguousDefaultDevice(error) : error
            })
            on.device = driver.serial
            return driver
          },
          backend: partialBackend(selection),
          stateFor: (driver) => this.stateOf(deviceKey(driver)),
          callerStateFor: (driver) => this.callerStateOf(session, deviceKey(driver)),
          callerElsewhereFor: (driver) => this.callerElsewhere(session, deviceKey(driver)),
          ...(this.options.observe ? {observe: this.observeFor(target)} : {}),
        }
      )
      // An agent sees only the result: what the CLI would have said on stderr goes into the text and the data.
      const warnings = result.warnings ?? []
      const text =
        warnings.length > 0 ? `${result.text}\n\n${warnings.map((w) => `Warning: ${w}`).join('\n')}` : result.text
      const content: CallToolResult['content'] = [{type: 'text', text}]
      if (result.image)
        content.push({type: 'image', data: result.image.data.toString('base64'), mimeType: result.image.mimeType})
      const data = result.data
        ? {
            ...result.data,
            ...(warnings.length > 0 ? {warnings} : {}),
            // Which backend served the device reads the helper could take, and how long (ToolResult.backend).
            ...(result.backend ? {backend: result.backend} : {}),
          }
        : result.data
      return {content, ...(data ? {structuredContent: data as Record<string, unknown>} : {})}
    } catch (error) {
      return errorResult(error)
    }
  }
}
