import {InvalidInputError, printableLine, type ToolContext, type ToolResult, z} from '@arc-cli/core'

/** `arc logs --follow` and `--clear`: CLI-only (a stream has no place in one MCP answer). */
export const logsCliInput = z.object({
  follow: z
    .boolean()
    .default(false)
    .describe('Keep printing new lines as they are logged, until Ctrl-C (JSON lines with --json)'),
  clear: z.boolean().default(false).describe('Empty the device log first (logcat -c); alone, only clear'),
})

interface StreamInput {
  last_lines: number
  since?: string
  until?: string
  tag?: string
  level: 'V' | 'D' | 'I' | 'W' | 'E' | 'F'
  package_name?: string
  follow?: boolean
  clear?: boolean
}

/**
 * Clears, follows, or both. Following emits one item per line (`text`: the spec's line format, printed as one-shot
 * `arc logs` prints it; `data`: time, level, tag, pid, tid, message and the line) until ctx.signal aborts, then
 * returns a streamed result.
 */
export async function followOrClear(ctx: ToolContext, input: StreamInput): Promise<ToolResult> {
  if (input.follow && (input.since !== undefined || input.until !== undefined)) {
    throw new InvalidInputError(
      '--follow cannot be used with --since or --until (it prints lines as they are logged)',
      {
        details: {input: 'follow'},
      }
    )
  }
  if (input.follow && (!ctx.emit || !ctx.signal)) {
    throw new InvalidInputError(
      'follow: streaming logs needs the CLI (`arc logs --follow`); here, read them with last_lines instead'
    )
  }
  if (input.clear) await ctx.driver.clearLogs()
  if (!input.follow) return {text: 'Device logs cleared', data: {cleared: true}}
  const emit = ctx.emit as NonNullable<ToolContext['emit']>
  await ctx.driver.followLogs(
    {lastLines: input.last_lines, tag: input.tag, level: input.level, packageName: input.package_name},
    (event) => emit({text: printableLine(event.line), data: {...event}}),
    ctx.signal as AbortSignal
  )
  return {text: '', data: {}, cli: {streamed: true}}
}
