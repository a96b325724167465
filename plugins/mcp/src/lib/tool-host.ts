/**
 * The tools one server offers, listed once and called through `runTool`: the listing (names, JSON Schemas,
 * annotations) is computed at start-up, so a request only looks a name up and runs the tool.
 */
import {
  exitCodeFor,
  InvalidInputError,
  MemoryDeviceState,
  resolveDriver,
  runTool,
  toArcError,
  type AnyTool,
  type ArcConfig,
  type ArcError,
  type ToolKind,
} from '@arc-cli/core'
import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js'
import {z} from 'zod'

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
}

interface Served {
  tool: AnyTool
  target?: DeviceTarget
  state?: MemoryDeviceState
}

/** MCP annotations from a tool's kind: reads are read-only and idempotent; only `destructive` tools destroy. */
export function annotationsFor(kind: ToolKind): NonNullable<Tool['annotations']> {
  return {readOnlyHint: kind === 'read', destructiveHint: kind === 'destructive', idempotentHint: kind === 'read', openWorldHint: false}
}

/** Drops what costs tokens and tells a model nothing (`minLength: 1`: runTool still checks it). */
function trim(node: unknown): void {
  if (!node || typeof node !== 'object') return
  const record = node as Record<string, unknown>
  if (record.minLength === 1) delete record.minLength
  for (const value of Object.values(record)) trim(value)
}

/** The tool's input as JSON Schema for `tools/list` (what it accepts: defaults are optional). */
export function inputSchemaFor(tool: AnyTool): Tool['inputSchema'] {
  const schema = z.toJSONSchema(tool.input, {io: 'input', target: 'draft-7'}) as Record<string, unknown>
  delete schema.$schema
  trim(schema)
  return schema as Tool['inputSchema']
}

/** `Error [CODE]: message` and its `Try:` lines, as the CLI prints them (without colour). */
export function errorText(error: ArcError): string {
  return [`Error [${error.code}]: ${error.message}`, ...error.actions.map((a) => `Try: ${a}`)].join('\n')
}

export function errorResult(error: unknown): CallToolResult {
  const arcError = toArcError(error)
  return {
    isError: true,
    content: [{type: 'text', text: errorText(arcError)}],
    structuredContent: {error: {...arcError.toJSON(), exitCode: exitCodeFor(arcError.code)}},
  }
}

export class ToolHost {
  readonly listing: {tools: Tool[]}
  private readonly served = new Map<string, Served>()

  constructor(private readonly options: ToolHostOptions) {
    const tools: Tool[] = []
    const several = options.targets.length > 1
    const add = (name: string, served: Served, description: string) => {
      if (this.served.has(name)) return
      this.served.set(name, served)
      tools.push({
        name,
        title: served.tool.title,
        description,
        inputSchema: inputSchemaFor(served.tool),
        annotations: annotationsFor(served.tool.kind),
      })
    }
    for (const tool of options.tools) {
      if (tool.needsDevice === false) {
        add(toolName(several ? undefined : options.targets[0]?.slug, tool.name), {tool}, tool.description)
        continue
      }
      for (const target of options.targets) {
        const description = several ? `[device ${target.slug}] ${tool.description}` : tool.description
        add(toolName(target.slug, tool.name), {tool, target, state: this.stateOf(target)}, description)
      }
    }
    this.listing = {tools}
  }

  private readonly states = new Map<DeviceTarget, MemoryDeviceState>()

  /** One memory store per device for the server's life. */
  private stateOf(target: DeviceTarget): MemoryDeviceState {
    let state = this.states.get(target)
    if (!state) this.states.set(target, (state = new MemoryDeviceState()))
    return state
  }

  has(name: string): boolean {
    return this.served.has(name)
  }

  /** Runs one `tools/call`; every failure, invalid input included, is an `isError` result with the error code. */
  async call(name: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const served = this.served.get(name)
    if (!served) return errorResult(new InvalidInputError(`unknown tool ${JSON.stringify(name)}; tools/list gives the names`))
    const {config, adb} = this.options
    const log = this.options.log ?? (() => undefined)
    try {
      const result = await runTool(
        served.tool,
        {input: args ?? {}},
        {
          config,
          configFile: this.options.configFile,
          cwd: this.options.cwd,
          adb,
          signal,
          warn: (message) => log(`${name}: warning: ${message}`),
          openDriver: () => resolveDriver({device: served.target?.device, adbHost: adb?.host, adbPort: adb?.port, config}),
          stateFor: () => served.state ?? new MemoryDeviceState(),
        },
      )
      const content: CallToolResult['content'] = [{type: 'text', text: result.text}]
      if (result.image) content.push({type: 'image', data: result.image.data.toString('base64'), mimeType: result.image.mimeType})
      return {content, ...(result.data ? {structuredContent: result.data as Record<string, unknown>} : {})}
    } catch (error) {
      return errorResult(error)
    }
  }
}
