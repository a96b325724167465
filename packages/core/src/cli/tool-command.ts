import type {Command, Config, Interfaces} from '@oclif/core'

import {checkConfigSections} from '../config/check-sections.js'
import {DEFAULT_ADB_TIMEOUT_MS} from '../driver/adb/server-address.js'
import {withConfigExamplePath} from '../config/config-example.js'
import {loadConfig, type LoadedConfig} from '../config/load-config.js'
import type {DeviceDriver} from '../driver/device-driver.js'
import type {HelperMode} from '../driver/device-helper.js'
import {partialBackend, resolveDriver, type DeviceSelection} from '../driver/resolve-device.js'
import {InvalidInputError} from '../errors/arc-error.js'
import {EXIT_INTERRUPTED} from '../errors/exit-codes.js'
import {Args, Flags} from '../oclif.js'
import {deviceFolderName, FileDeviceState, forgetStateWarnings} from '../state/device-state.js'
import type {AnyTool, OmittableField, ToolResult} from '../tools/define-tool.js'
import {inputSchema, runTool, type ToolObserver} from '../tools/run-tool.js'
import {ArcCommand, deviceFlags} from './arc-command.js'
import {COMMAND_DEADLINE_FACTOR, runWithDeadline} from './deadline.js'
import {describeInputIssues, flagName, schemaFields, type SchemaField} from './schema-fields.js'
import {selectorFormArgv} from './selector-forms.js'
import {Spinner, colorsFor} from './terminal.js'

/** Where the CLI keeps what it remembers of a device: per adb server and serial (deviceFolderName). */
const deviceFolder = (driver: DeviceDriver) => deviceFolderName(driver.serial, driver.adbServer)

function fieldSummary(field: SchemaField): string {
  const parts = [field.description]
  if (field.default !== undefined) parts.push(`(default: ${JSON.stringify(field.default)})`)
  return parts.join(' ')
}

// oclif's flag builders have precise generic types; the adapter builds them from data, so it holds them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFlag = Interfaces.Flag<any>

function buildFlag(field: SchemaField, char?: string): AnyFlag {
  // A required input is a required flag: --help shows it so, and oclif refuses a command line without it before
  // the command runs (ArcCommand words that error as `--timeout is required: …`).
  const common = {summary: fieldSummary(field), required: field.required, ...(char ? {char: char as 'a'} : {})}
  if (field.type === 'boolean') return Flags.boolean({...common, allowNo: field.default === true})
  if (field.type === 'array') return Flags.string({...common, multiple: true, helpValue: `<${field.items ?? 'value'}>`})
  if (field.options) return Flags.string({...common, options: field.options})
  const helpValue =
    field.type === 'integer' || field.type === 'number' ? '<number>' : field.type === 'object' ? '<json>' : '<value>'
  return Flags.string({...common, helpValue})
}

/** Converts one CLI string to the field's type; a number that is not one is an error naming the input. */
function convert(field: SchemaField, value: string, label: string): unknown {
  if (field.type === 'integer' || field.type === 'number') {
    const n = Number(value)
    // Decimal notation only: Number() would also read 0x10, 0b1, 1e3 and " 5 ", which no one means on a command line.
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) || !Number.isFinite(n)) {
      throw new InvalidInputError(
        `${label} must be ${field.type === 'integer' ? 'a whole number' : 'a number'} in decimal digits (got ${JSON.stringify(value)})`
      )
    }
    return n
  }
  // Objects, and array items that are themselves arrays (a gesture's paths: one JSON path per flag), are JSON.
  if (field.type === 'object' || (field.type === 'array' && !field.items)) {
    try {
      return JSON.parse(value)
    } catch {
      throw new InvalidInputError(`${label} must be JSON (got ${JSON.stringify(value)})`)
    }
  }
  if (field.type === 'array' && field.items) {
    // One item: an item that is itself an array has no item type of its own here, so it is read as JSON.
    return convert({...field, type: field.items, items: undefined}, value, label)
  }
  return value
}

/** The raw input object from parsed args and flags, typed per the schema, ready for zod. */
function collectInput(
  fields: readonly SchemaField[],
  positional: string[],
  args: Record<string, unknown>,
  flags: Record<string, unknown>
) {
  const input: Record<string, unknown> = {}
  for (const field of fields) {
    const isArg = positional.includes(field.name)
    const value = isArg ? args[field.name] : flags[flagName(field.name)]
    if (value === undefined) continue
    const label = isArg ? `argument <${field.name}>` : `--${flagName(field.name)}`
    if (Array.isArray(value)) input[field.name] = value.map((v) => convert(field, String(v), label))
    else if (typeof value === 'string') input[field.name] = convert(field, value, label)
    else input[field.name] = value
  }
  return input
}

const OBSERVER = Symbol.for('arc.cli-tool-observer')
type ObserverHolder = {[OBSERVER]?: ToolObserver}

/**
 * Sets (or clears) the recorder every tool command run in this process reports to (`arc batch --record`). Kept on
 * globalThis: a plugin's commands may load their own copy of this module, and must report to the same one.
 */
export function observeCliTools(observer: ToolObserver | undefined): void {
  ;(globalThis as ObserverHolder)[OBSERVER] = observer
}

const RESIDENT = Symbol.for('arc.cli-resident-host')
const CONFIG_READS = Symbol.for('arc.cli-resident-config')
type ResidentHolder = {[RESIDENT]?: boolean; [CONFIG_READS]?: Map<string, Promise<LoadedConfig>>}

/**
 * Says (true) or unsays that this process is a resident host running many tool commands one after the other (`arc
 * batch`, `arc test` while they run their lines): each command's device selection then carries `resident`, so the
 * on-device helper's start is paid once and touches go through it, and the config is read once for the span
 * (cliConfig). Kept on globalThis for the same reason as observeCliTools; a one-shot command never sets it.
 */
export function residentCliHost(on: boolean): void {
  const holder = globalThis as ResidentHolder
  holder[RESIDENT] = on
  // A new span reads the config afresh: a run starts from the file as it is then, as `arc mcp serve` does.
  holder[CONFIG_READS] = on ? new Map() : undefined
  // And says once again what a new process would say once (an unwritable cache folder).
  if (on) forgetStateWarnings()
}

/** Whether a resident host's span is on (a script runner started inside one keeps it, rather than start its own). */
residentCliHost.active = (): boolean => (globalThis as ResidentHolder)[RESIDENT] === true

const FLOW_IDS = Symbol.for('arc.cli-flow-ids')

/**
 * Says (true) or unsays that the commands run now are a flow's steps (`arc test`). An element id in a flow file is a
 * content id written for any device that shows that content (docs/flows.md, "Recording a session"), not one read off
 * a device in this session: it gets the on-screen check, as on a machine whose cache never showed it, and not the
 * refusal of an id shown for another device (STALE_ELEMENT OTHER_DEVICE), which would make a flow pass on a fresh CI
 * machine and fail on the one that recorded it. Kept on globalThis as residentCliHost is.
 */
export function flowStepsHost(on: boolean): void {
  ;(globalThis as {[FLOW_IDS]?: boolean})[FLOW_IDS] = on
}

flowStepsHost.active = (): boolean => (globalThis as {[FLOW_IDS]?: boolean})[FLOW_IDS] === true

/**
 * The config a command line runs with, checked by every plugin's `arc:config` hook (a broken section fails every
 * command the same way). A one-shot command reads it each time. In a resident host's span (residentCliHost) it is
 * read and checked once per folder and ARC_CONFIG, when the first line needs it, and every later line gets that
 * answer, a failure included: the file is not searched, stat'ed, parsed (or, for a JavaScript config, run in a child
 * Node) again for each line. A file changed while the run goes on is read by the next run (docs/config.md).
 */
export function cliConfig(oclif: Config, cwd: string): Promise<LoadedConfig> {
  const read = async () => {
    try {
      const loaded = await loadConfig(cwd)
      await checkConfigSections(oclif, loaded)
      return loaded
    } catch (error) {
      throw withConfigExamplePath(error, oclif.root)
    }
  }
  const reads = (globalThis as ResidentHolder)[CONFIG_READS]
  if (!reads) return read()
  const key = `${cwd}\0${process.env.ARC_CONFIG ?? ''}`
  let answer = reads.get(key)
  if (!answer) {
    answer = read()
    reads.set(key, answer)
  }
  return answer
}

/**
 * The recorder hears which device this command line named (`--device`, `--adb-host`, `--adb-port`): not to write it
 * into the step (a flow runs on the device arc test picks), but to tell the device of one line from another's.
 */
function observeWithSelection(observer: ToolObserver, selection: DeviceSelection): ToolObserver {
  const named = {
    ...(selection.device === undefined ? {} : {device: selection.device}),
    ...(selection.adbHost === undefined ? {} : {adbHost: selection.adbHost}),
    ...(selection.adbPort === undefined ? {} : {adbPort: selection.adbPort}),
  }
  return (call) => observer({...call, ...named})
}

export interface CommandRun {
  tool: AnyTool
  args: Record<string, unknown>
  flags: Record<string, unknown>
  command: ArcCommand
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal
}

/**
 * Runs a tool for the CLI: turns flags and arguments into the tool's input, then `runTool` with the device from
 * --device/--adb-host/--adb-port, the per-device state file, a spinner and warnings on stderr, and the result's
 * files written. Shared by every generated command.
 */
export async function runToolFromCli({tool, args, flags, command, signal}: CommandRun): Promise<ToolResult> {
  const positional = tool.cli?.positional ?? []
  const input = collectInput(schemaFields(inputSchema(tool, true)), positional, args, flags)
  // Always given (empty for a tool without CLI-only fields): runTool reads the command line's input forms from it.
  const cliInput: Record<string, unknown> = tool.cli.input
    ? collectInput(schemaFields(tool.cli.input), positional, args, flags)
    : {}
  const cwd = process.cwd()
  const {config, filepath} = await cliConfig(command.config, cwd)
  // An element action's --wait defaults to the config's elements.wait (the flag wins; MCP never waits), where the
  // call names an element (a whole-screen screenshot waits for nothing).
  const configWait = config.elements?.wait
  const namesElement = tool.cli.namesElement?.({...input, ...cliInput}) ?? true
  if (configWait !== undefined && cliInput.wait === undefined && tool.cli.input?.shape.wait && namesElement) {
    cliInput.wait = configWait
  }
  const spinner = new Spinner()
  const warnColors = colorsFor(process.stderr)
  const json = command.jsonEnabled()
  // One deadline for the whole command on top of each device call's own limit, except for a tool that runs until
  // stopped (logs --follow, screenrecord). A touch held for `duration` ms (long-press, swipe) gets that time on top.
  const held = typeof input.duration === 'number' ? input.duration : 0
  const deadlineMs = (config.adb?.timeoutMs ?? DEFAULT_ADB_TIMEOUT_MS) * COMMAND_DEADLINE_FACTOR + held
  const untilStopped =
    typeof tool.interruptible === 'function' ? tool.interruptible({...input, ...cliInput}) : tool.interruptible === true
  const selection: DeviceSelection = {
    device: flags.device as string | undefined,
    adbHost: flags['adb-host'] as string | undefined,
    adbPort: flags['adb-port'] as number | undefined,
    helper: flags.helper as HelperMode | undefined,
    config,
    ...((globalThis as ResidentHolder)[RESIDENT] ? {resident: true} : {}),
  }
  const backend = partialBackend(selection)
  const observer = (globalThis as ObserverHolder)[OBSERVER]
  const warn = (message: string) => {
    spinner.stop()
    process.stderr.write(`${warnColors.yellow('Warning:')} ${message}\n`)
  }
  const run = (callSignal?: AbortSignal, expectWork?: (ms: number) => void) =>
    runTool(
      tool,
      {input, cliInput},
      {
        ...(expectWork ? {expectWork} : {}),
        config,
        configFile: filepath,
        cwd,
        json,
        signal: callSignal,
        save: true,
        describeIssues: (error, schema) => describeInputIssues(error, positional, schema),
        ...(observer ? {observe: observeWithSelection(observer, selection)} : {}),
        openDriver: () => resolveDriver(selection),
        ...(backend ? {backend} : {}),
        // Per adb server and serial: another server's device of the same serial is another device.
        stateFor: (driver) =>
          new FileDeviceState(driver.serial, undefined, warn, undefined, undefined, deviceFolder(driver)),
        // An id shown for another device this cache knows, never for this one, is refused (STALE_ELEMENT OTHER_DEVICE);
        // not a flow's, written for any device (flowStepsHost).
        ...(flowStepsHost.active()
          ? {}
          : {
              callerElsewhereFor: (driver: DeviceDriver) => () =>
                FileDeviceState.otherDevices(
                  driver.serial,
                  undefined,
                  process.env.ARC_CALLER || undefined,
                  warn,
                  deviceFolder(driver)
                ),
            }),
        // Scripts driving one device side by side name themselves, so that each has its own `changes` baseline.
        ...(process.env.ARC_CALLER
          ? {
              callerStateFor: (driver: DeviceDriver) =>
                new FileDeviceState(
                  driver.serial,
                  undefined,
                  warn,
                  undefined,
                  process.env.ARC_CALLER,
                  deviceFolder(driver)
                ),
            }
          : {}),
        warn,
        progress: (message) => {
          if (!json) spinner.update(message)
        },
        // Tools that run until stopped (logs --follow) print each item as it comes.
        emit: (item: {text: string; data: Record<string, unknown>}) => {
          spinner.stop()
          process.stdout.write(`${json ? JSON.stringify(item.data) : item.text}\n`)
        },
      }
    )
  try {
    if (untilStopped) return await run(signal)
    return await runWithDeadline(`arc ${tool.cli.id}`, deadlineMs, (deadline, expectWork) =>
      run(signal ? AbortSignal.any([signal, deadline]) : deadline, expectWork)
    )
  } finally {
    spinner.stop()
  }
}

/**
 * Runs `work` with a signal that Ctrl-C aborts: the first SIGINT cancels the call (device calls cut off, no file
 * written, exit 130 through the CANCELLED error), or, for a tool that runs until stopped (`interruptible`), asks
 * it to wind up and finish normally; a second one exits at once. In a host that runs the command for a client
 * elsewhere (`arc server`: hostInterrupts), the client's Ctrl-C comes from the host instead of this process's
 * SIGINT, and one that came before the command got here is not lost: the command starts cancelled.
 */
async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  const host = (globalThis as HostInterruptsHolder)[HOST_INTERRUPTS]
  if (host) {
    const unlisten = host.listen(() => controller.abort())
    try {
      return await work(controller.signal)
    } finally {
      unlisten()
    }
  }
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED)
    controller.abort()
  }
  process.on('SIGINT', onSigint)
  try {
    return await work(controller.signal)
  } finally {
    process.off('SIGINT', onSigint)
  }
}

const HOST_INTERRUPTS = Symbol.for('arc.cli-host-interrupts')
type HostInterruptsHolder = {[HOST_INTERRUPTS]?: HostInterrupts}

/**
 * A client's Ctrl-C (or its going away) for the one command a host runs for it (`arc server`), in place of this
 * process's SIGINT, which is the host's own. An interrupt that comes before the command listens is kept: the command
 * starts cancelled rather than run to its end after its client was told it was cancelled.
 */
export class HostInterrupts {
  private interrupted = false
  private readonly listeners = new Set<() => void>()

  interrupt(): void {
    this.interrupted = true
    for (const listener of this.listeners) listener()
  }

  /** Called once a command can be cancelled (a tool run inside another listens too); returns what stops listening. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener)
    if (this.interrupted) listener()
    return () => this.listeners.delete(listener)
  }
}

/**
 * Says (an instance) or unsays (undefined) that the tool commands run in this process from now on take their Ctrl-C
 * from a host (see HostInterrupts). Kept on globalThis for the same reason as observeCliTools. Returns the one it
 * replaces, for a host inside another (`arc test` as a batch line) to put back.
 */
export function hostInterrupts(interrupts: HostInterrupts | undefined): HostInterrupts | undefined {
  const holder = globalThis as HostInterruptsHolder
  const previous = holder[HOST_INTERRUPTS]
  holder[HOST_INTERRUPTS] = interrupts
  return previous
}

function writeAll(stream: NodeJS.WriteStream, bytes: Buffer): Promise<void> {
  if (bytes.length === 0) return Promise.resolve()
  // The callback goes third, as write(chunk, encoding, cb): a stand-in stream that captures output (oclif's test
  // harness) calls only a third-argument callback, and the command would wait for it forever.
  return new Promise<void>((resolve, reject) =>
    stream.write(bytes, undefined, (error) => (error ? reject(error) : resolve()))
  )
}

/**
 * The positional words when the first positional is left out for a selector: fewer words than positionals go to
 * the later ones, in order (`--res-id email hello` → text `hello`); as many as there are positionals stay as typed
 * (the id and a selector together, which the tool refuses).
 */
function shiftPastOmitted(
  positional: string[],
  args: Record<string, unknown>,
  omittable: OmittableField
): Record<string, unknown> {
  const words = positional.map((name) => args[name]).filter((v) => v !== undefined)
  if (words.length >= positional.length) return args
  const [, ...later] = positional
  // A value of the omittable field where it goes, with a word missing later (`arc type append node_knzaar --res-id
  // x`): the value and a selector together, which the tool refuses, never the id typed as the text.
  if (typeof words[0] === 'string' && omittable.looksLike(words[0])) return args
  return Object.fromEntries(later.flatMap((name, i) => (i < words.length ? [[name, words[i]]] : [])))
}

/**
 * Refuses a flag the command does not have but a user may reach for (`cli.flagHints`), saying what to write
 * instead, before oclif's bare "Nonexistent flag". Words after `--` are arguments, never flags.
 */
function refuseHintedFlags(argv: string[], tool: AnyTool, flags: Record<string, AnyFlag>, command: string): void {
  const hints = tool.cli?.flagHints ?? {}
  for (const word of argv) {
    if (word === '--') return
    const name = /^--([^=]+)/.exec(word)?.[1]
    const hint = name === undefined || name in flags ? undefined : hints[name]
    if (hint !== undefined) {
      throw new InvalidInputError(`${command} has no --${name} flag: ${hint}`, {
        actions: [`Run \`${command} --help\` for the flags and arguments.`],
      })
    }
  }
}

/** The selector form a tool's command line takes (selector-forms.ts), if it takes one. */
function selectorForm(tool: AnyTool): Parameters<typeof selectorFormArgv>[3] | undefined {
  const positional = tool.cli.positional ?? []
  if (positional[0] === 'by' && positional[1] === 'value') return {kind: 'by-value'}
  // The selector fields are CLI-only on the element actions and screenshots, inputs of their own on assert.
  const shape = {...tool.input.shape, ...tool.cli.input?.shape}
  if (!('res_id' in shape)) return undefined
  // `BY VALUE` stands where the element id it replaces would (an element action's first argument), else after the
  // command's own arguments (`screenshot text ADD`, `assert screenshot base.png text ADD`, `assert visible text ADD`:
  // never first there, where `assert text …` names the condition).
  const idFirst = tool.cli.mayOmit !== undefined && tool.cli.mayOmit.field === positional[0]
  return {
    kind: 'flags',
    textFlag: 'field_text' in shape ? 'field-text' : 'text',
    positionals: positional.length,
    at: [idFirst ? 0 : positional.length],
  }
}

/** Generates the oclif command class for one tool: flags and args from its schema, help from its description. */
export function toolCommand(tool: AnyTool): Command.Class {
  const positional = tool.cli?.positional ?? []
  const fields = [...schemaFields(inputSchema(tool, true)), ...(tool.cli.input ? schemaFields(tool.cli.input) : [])]
  const args: Record<string, ReturnType<typeof Args.string>> = {}
  let rest: string | undefined
  for (const [i, name] of positional.entries()) {
    const field = fields.find((f) => f.name === name)
    if (!field) throw new Error(`tool ${tool.name}: positional ${name} is not an input field`)
    if (field.type === 'array') {
      if (i !== positional.length - 1) throw new Error(`tool ${tool.name}: array positional ${name} must be the last`)
      rest = name
      // ignoreStdin: oclif would otherwise read piped stdin as the first argument when it is not given.
    } else args[name] = Args.string({description: fieldSummary(field), required: field.required, ignoreStdin: true})
  }
  const flags: Record<string, AnyFlag> = {}
  for (const field of fields) {
    if (positional.includes(field.name)) continue
    flags[flagName(field.name)] = buildFlag(field, tool.cli?.char?.[field.name])
  }
  // A first positional a selector may stand in for (`arc type append --res-id email hello`) leaves the words typed
  // to the later ones, so oclif, which assigns them in order, requires none of them: the tool's schema does, with
  // its own message (`argument <text> is required: …`). Help and docs still show the others as required.
  const omittable = tool.cli.mayOmit
  const leadOmittable =
    rest === undefined && positional.length > 1 && omittable !== undefined && omittable.field === positional[0]
  const parseArgs = leadOmittable
    ? Object.fromEntries(Object.entries(args).map(([name, arg]) => [name, {...arg, required: false}]))
    : args
  const cliOnlyFlags = tool.cli.input ? schemaFields(tool.cli.input).map((f) => flagName(f.name)) : []
  const form = selectorForm(tool)
  // oclif reads the words after a command that takes none as more of its id (`screenshot text ADD` is looked up as
  // one command): a command whose `BY VALUE` synonym stands there declares itself not strict, so oclif hands the
  // words over, and still parses strictly once they are rewritten into flags (any other word is refused there).
  const strict = rest === undefined
  const declaredStrict = strict && !(form?.kind === 'flags' && positional.length === 0)

  class ToolCommand extends ArcCommand {
    static override summary = tool.title
    static override description = tool.description
    static override examples = tool.cli?.examples ?? []
    static override args = args
    static override flags = {...flags, ...(tool.needsDevice === false ? {} : deviceFlags)}
    static override strict = declaredStrict
    static override usage = rest === undefined ? undefined : `<%= command.id %> [flags] -- <${rest}>...`
    static tool = tool

    async run(): Promise<unknown> {
      const refuseMisread = (typed: Record<string, unknown> | undefined) => {
        const misread = typed && tool.cli?.misread?.(typed)
        if (misread) throw new InvalidInputError(misread.message, {actions: misread.actions})
      }
      // Every flag the command takes, the device's too: `--device demo text ADD` must not read `demo` as a word.
      if (form) this.argv = selectorFormArgv(this.argv, `${this.config.bin} ${tool.cli.id}`, ToolCommand.flags, form)
      refuseHintedFlags(this.argv, tool, flags, `${this.config.bin} ${tool.cli.id}`)
      const input = {
        flags: ToolCommand.flags,
        baseFlags: ToolCommand.baseFlags,
        enableJsonFlag: ToolCommand.enableJsonFlag,
        strict,
        args: parseArgs,
      }
      const parsed = await this.parse(input).catch((error: unknown) => {
        // oclif's parse error (missing arguments) still holds what was typed.
        refuseMisread((error as {parse?: {output?: {args?: Record<string, unknown>}}}).parse?.output?.args)
        throw error
      })
      let parsedArgs = parsed.args as Record<string, unknown>
      const parsedFlags = parsed.flags as Record<string, unknown>
      if (leadOmittable && cliOnlyFlags.some((name) => parsedFlags[name] !== undefined)) {
        parsedArgs = shiftPastOmitted(positional, parsedArgs, omittable)
      }
      refuseMisread(parsedArgs)
      if (rest !== undefined) {
        const taken = Object.values(parsedArgs).filter((v) => v !== undefined).length
        const remaining = parsed.argv.slice(taken).map(String)
        if (remaining.length > 0) parsedArgs[rest] = remaining
      }
      const result = await withInterrupt((signal) =>
        runToolFromCli({tool, args: parsedArgs, flags: parsedFlags, command: this, signal})
      )
      const cli = result.cli ?? {}
      if (cli.streamed) return undefined
      for (const note of cli.notes ?? []) process.stderr.write(`${note}\n`)
      // A person reads the CLI: a tool whose text is JSON for agents offers plain lines or a table in `human`.
      const shown = cli.human ?? result.text
      if (cli.stdout) {
        await writeAll(process.stdout, cli.stdout)
        if (cli.stderr) await writeAll(process.stderr, cli.stderr)
        else process.stderr.write(`${shown}\n`)
      } else if (!this.jsonEnabled()) {
        this.log(shown)
      }
      // Warnings went to stderr as they came; --json keeps them with the result, for a script that reads stdout only.
      const data = {
        ...(cli.data ?? result.data ?? {text: result.text}),
        ...(result.warnings?.length ? {warnings: result.warnings} : {}),
        ...(result.backend ? {backend: result.backend} : {}),
      }
      if (cli.exitCode) {
        if (this.jsonEnabled()) this.logJson(data)
        this.exit(cli.exitCode)
      }
      return data
    }
  }
  Object.defineProperty(ToolCommand, 'name', {value: `${tool.name}Command`})
  return ToolCommand as unknown as Command.Class
}

/**
 * `{ 'press:back': Class, … }` for oclif's explicit command strategy. Each class is made when first read: oclif reads
 * only the command it runs (ids, flags and help come from the manifest), and making a class turns its tool's schema
 * into flags, which running one command need not pay for its siblings.
 */
export function toolCommands(tools: AnyTool[]): Record<string, Command.Class> {
  const commands: Record<string, Command.Class> = {}
  for (const tool of tools) {
    let made: Command.Class | undefined
    Object.defineProperty(commands, tool.cli.id.replaceAll(' ', ':'), {
      enumerable: true,
      get: () => (made ??= toolCommand(tool)),
    })
  }
  return commands
}
