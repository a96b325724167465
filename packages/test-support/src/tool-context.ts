/**
 * A tool handler's context, for tests that call a handler directly (without runTool): the driver given, a fresh
 * in-memory device state, an empty config, no JSON output, warnings and progress dropped. One definition, so a field
 * runTool's context gains is added here once.
 */
import {MemoryDeviceState, type ArcConfig, type DeviceDriver, type DeviceState, type ToolContext} from '@arc-cli/core'

export interface ToolContextOptions {
  /** Where relative output paths go (default: the process's working folder). */
  cwd?: string
  /** Aborts the call, as Ctrl-C or an MCP cancellation would. */
  signal?: AbortSignal
  config?: ArcConfig
  /** The device state (default: a fresh MemoryDeviceState, as an MCP server's first call has). */
  state?: DeviceState
  json?: boolean
  /** Where warnings go (default: dropped). */
  warn?: (message: string) => void
}

/**
 * The context runTool would give a handler for `driver`. A test may pass a driver that has only the methods the
 * handler calls (a fake read for the wait loop). It is given as it is, not wrapped as runTool's toolDriver wraps a
 * driver: a call to a method it lacks fails with a TypeError (`… is not a function`), not with toolDriver's INTERNAL
 * naming the undeclared capability. Tests of what a tool may call go through runTool.
 */
export function toolContext(
  driver: DeviceDriver | Partial<DeviceDriver>,
  options: ToolContextOptions = {}
): ToolContext {
  return {
    driver: driver as DeviceDriver,
    state: options.state ?? new MemoryDeviceState(),
    config: options.config ?? {},
    json: options.json ?? false,
    cwd: options.cwd ?? process.cwd(),
    warn: options.warn ?? (() => undefined),
    progress: () => undefined,
    ...(options.signal ? {signal: options.signal} : {}),
  }
}
