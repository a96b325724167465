import {defineTool, printableLine, type LogResult, z} from '@arc-cli/core'

import {PACKAGE_ID_PATTERN} from './apps.js'
import {followOrClear, logsCliInput} from './logs-stream.js'

const isoTime = (what: string) =>
  z
    .string()
    .min(1)
    .optional()
    .describe(
      `ISO 8601 time to filter logs ${what}: device local time (2024-01-15T10:30:00), or with a zone (2024-01-15T09:30:00Z, +01:00)`
    )

/**
 * The CLI's text: the lines themselves, as `logs --follow` prints them (control characters written out, tabs
 * kept), or a line saying none matched.
 */
export function logLines(result: LogResult): string {
  if (result.line_count === 0 || result.logs === '') return 'No log lines match.'
  return result.logs
    .split('\n')
    .map((line) => printableLine(line))
    .join('\n')
}

export const getDeviceLogs = defineTool({
  name: 'get_device_logs',
  title: 'Read the device logs (logcat)',
  description:
    'Returns recent logcat lines as JSON {logs, line_count, truncated}, filtered by time range, exact tag, minimum level and package. Lines read `MM-DD hh:mm:ss.mmm L/Tag: message`; truncated is true when more lines matched than last_lines. The CLI prints the lines alone (--json: the object).',
  kind: 'read',
  needs: ({clear}) => ({logs: clear ? 'act' : 'read'}),
  group: 'system',
  input: z.object({
    last_lines: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe('Number of most recent log lines to return (1-1000)'),
    since: isoTime('from'),
    until: isoTime('until (needs since)'),
    tag: z.string().min(1).optional().describe('Filter by log tag (exact match, e.g. ActivityManager)'),
    level: z.enum(['V', 'D', 'I', 'W', 'E', 'F']).default('D').describe('Minimum log level to include'),
    package_name: z
      .string()
      .trim()
      .min(1)
      .regex(PACKAGE_ID_PATTERN, 'expected a package id like com.example.app')
      .optional()
      .describe('Filter logs by package name (its running processes)'),
  }),
  interruptible: (input) => input.follow === true,
  cli: {
    id: 'logs',
    input: logsCliInput,
    examples: [
      '<%= config.bin %> <%= command.id %> --last-lines 50 --level W',
      '<%= config.bin %> <%= command.id %> --follow --level W --json',
      '<%= config.bin %> <%= command.id %> --tag ActivityManager --since 2024-01-15T10:30:00',
    ],
  },
  async handler(ctx, input) {
    if (input.follow || input.clear) return followOrClear(ctx, input)
    const {driver} = ctx
    const result = await driver.logs({
      lastLines: input.last_lines,
      since: input.since,
      until: input.until,
      tag: input.tag,
      level: input.level,
      packageName: input.package_name,
    })
    return {text: JSON.stringify(result), data: result, cli: {human: logLines(result)}}
  },
})
