import {Args, Flags, type Command, type Interfaces} from '@oclif/core'
import type {z} from 'zod'

import {checkConfigSections} from '../config/check-sections.js'
import {DEFAULT_ADB_TIMEOUT_MS} from '../driver/adb/server-address.js'
import {loadConfig} from '../config/load-config.js'
import type {DeviceDriver} from '../driver/device-driver.js'
import {resolveDriver} from '../driver/resolve-device.js'
import {InvalidInputError} from '../errors/arc-error.js'
import {FileDeviceState, MemoryDeviceState} from '../state/device-state.js'
import type {AnyTool, ToolContext, ToolResult} from '../tools/define-tool.js'
import {ArcCommand, deviceFlags} from './arc-command.js'
import {COMMAND_DEADLINE_FACTOR, runWithDeadline} from './deadline.js'
import {describeInputIssues, flagName, schemaFields, type SchemaField} from './schema-fields.js'
import {Spinner, colorsFor} from './terminal.js'

function fieldSummary(field: SchemaField): string {
  const parts = [field.description]
  if (field.default !== undefined) parts.push(`(default: ${JSON.stringify(field.default)})`)
  return parts.join(' ')
}

// oclif's flag builders have precise generic types; the adapter builds them from data, so it holds them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFlag = Interfaces.Flag<any>

function buildFlag(field: SchemaField, char?: string): AnyFlag {
  const common = {summary: fieldSummary(field), ...(char ? {char: char as 'a'} : {})}
  if (field.type === 'boolean') return Flags.boolean({...common, allowNo: field.default === true})
  if (field.type === 'array') return Flags.string({...common, multiple: true, helpValue: `<${field.items ?? 'value'}>`})
  if (field.options) return Flags.string({...common, options: field.options})
  const helpValue = field.type === 'integer' || field.type === 'number' ? '<number>' : field.type === 'object' ? '<json>' : '<value>'
  return Flags.string({...common, helpValue})
}

/** Converts one CLI string to the field's type; a number that is not one is an error naming the input. */
function convert(field: SchemaField, value: string, label: string): unknown {
  if (field.type === 'integer' || field.type === 'number') {
    const n = Number(value)
    // Decimal notation only: Number() would also read 0x10, 0b1, 1e3 and " 5 ", which no one means on a command line.
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) || !Number.isFinite(n)) {
      throw new InvalidInputError(`${label}: expected ${field.type === 'integer' ? 'a whole number' : 'a number'} in decimal digits, got ${JSON.stringify(value)}`)
    }
    return n
  }
  if (field.type === 'object') {
    try {
      return JSON.parse(value)
    } catch {
      throw new InvalidInputError(`${label}: expected JSON, got ${JSON.stringify(value)}`)
    }
  }
  if (field.type === 'array' && field.items) {
    return convert({...field, type: field.items}, value, label)
  }
  return value
}

/** The raw input object from parsed args and flags, typed per the schema, ready for zod. */
function collectInput(fields: SchemaField[], positional: string[], args: Record<string, unknown>, flags: Record<string, unknown>) {
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

function parseInput(schema: z.ZodObject, raw: Record<string, unknown>, positional: string[]): Record<string, unknown> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new InvalidInputError(describeInputIssues(parsed.error, positional))
  return parsed.data as Record<string, unknown>
}

export interface CommandRun {
  tool: AnyTool
  args: Record<string, unknown>
  flags: Record<string, unknown>
  command: ArcCommand
}

/** Runs a tool for the CLI: input validation, config, device, handler, output. Shared by every generated command. */
export async function runToolFromCli({tool, args, flags, command}: CommandRun): Promise<ToolResult> {
  const positional = tool.cli?.positional ?? []
  const fields = schemaFields(tool.input)
  const input = parseInput(tool.input, collectInput(fields, positional, args, flags), positional)
  const extra = tool.cliInput
    ? parseInput(tool.cliInput, collectInput(schemaFields(tool.cliInput), positional, args, flags), positional)
    : {}
  const cwd = process.cwd()
  const loaded = await loadConfig(cwd)
  await checkConfigSections(command.config, loaded)
  const {config, filepath} = loaded
  const spinner = new Spinner()
  const warnColors = colorsFor(process.stderr)
  let driver: DeviceDriver | undefined
  try {
    if (tool.needsDevice !== false) {
      driver = await resolveDriver({
        device: flags.device as string | undefined,
        adbHost: flags['adb-host'] as string | undefined,
        adbPort: flags['adb-port'] as number | undefined,
        config,
      })
    }
    const ctx: ToolContext = {
      driver: driver as DeviceDriver,
      state: driver ? new FileDeviceState(driver.serial) : new MemoryDeviceState(),
      config,
      configFile: filepath,
      surface: 'cli',
      json: command.jsonEnabled(),
      cwd,
      warn: (message) => {
        spinner.stop()
        process.stderr.write(`${warnColors.yellow('Warning:')} ${message}\n`)
      },
      progress: (message) => {
        if (!command.jsonEnabled()) spinner.update(message)
      },
    }
    // A touch held for `duration` ms (long-press, swipe: up to 60 s) gets that time on top.
    const held = typeof input.duration === 'number' ? input.duration : 0
    const deadline = (config.adb?.timeoutMs ?? DEFAULT_ADB_TIMEOUT_MS) * COMMAND_DEADLINE_FACTOR + held
    return await runWithDeadline(`arc ${tool.cliId}`, deadline, (signal) => tool.handler({...ctx, signal}, {...input, ...extra}))
  } finally {
    spinner.stop()
    await driver?.close()
  }
}

/** Generates the oclif command class for one tool: flags and args from its schema, help from its description. */
export function toolCommand(tool: AnyTool): Command.Class {
  const positional = tool.cli?.positional ?? []
  const fields = [...schemaFields(tool.input), ...(tool.cliInput ? schemaFields(tool.cliInput) : [])]
  const args: Record<string, ReturnType<typeof Args.string>> = {}
  for (const name of positional) {
    const field = fields.find((f) => f.name === name)
    if (!field) throw new Error(`tool ${tool.name}: positional ${name} is not an input field`)
    args[name] = Args.string({description: fieldSummary(field), required: field.required})
  }
  const flags: Record<string, AnyFlag> = {}
  for (const field of fields) {
    if (positional.includes(field.name)) continue
    flags[flagName(field.name)] = buildFlag(field, tool.cli?.char?.[field.name])
  }

  class ToolCommand extends ArcCommand {
    static override summary = tool.title
    static override description = tool.description
    static override examples = tool.cli?.examples ?? []
    static override args = args
    static override flags = {...flags, ...(tool.needsDevice === false ? {} : deviceFlags)}
    static tool = tool

    async run(): Promise<unknown> {
      const parsed = await this.parse(ToolCommand)
      const result = await runToolFromCli({
        tool,
        args: parsed.args as Record<string, unknown>,
        flags: parsed.flags as Record<string, unknown>,
        command: this,
      })
      if (result.stdout) {
        const bytes = result.stdout
        await new Promise<void>((resolve, reject) => process.stdout.write(bytes, (error) => (error ? reject(error) : resolve())))
        process.stderr.write(`${result.text}\n`)
      } else if (!this.jsonEnabled()) {
        this.log(result.text)
      }
      return result.data ?? {text: result.text}
    }
  }
  Object.defineProperty(ToolCommand, 'name', {value: `${tool.name}Command`})
  return ToolCommand as unknown as Command.Class
}

/** `{ 'press:back': Class, … }` for oclif's explicit command strategy. */
export function toolCommands(tools: AnyTool[]): Record<string, Command.Class> {
  return Object.fromEntries(tools.map((tool) => [tool.cliId.replaceAll(' ', ':'), toolCommand(tool)]))
}
