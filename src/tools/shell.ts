import {defineTool, deviceStringProblem, z} from '@arc-cli/core'

/** Text for MCP and --json-less readers without a terminal: stdout, then stderr and a non-zero status. */
function summary(stdout: string, stderr: string, exitCode: number): string {
  const parts = [stdout.replace(/\n$/, '')]
  if (stderr !== '') parts.push(`[stderr]\n${stderr.replace(/\n$/, '')}`)
  if (exitCode !== 0) parts.push(`[exit status ${exitCode}]`)
  return parts.filter((p) => p !== '').join('\n')
}

export const shell = defineTool({
  name: 'shell',
  title: 'Run a device shell command',
  description:
    "Runs one command on the device with arc's device selection. Every word is quoted as given, so shell syntax (pipes, `;`, `$VAR`) is not interpreted: for that, run `sh -c '…'`. The CLI passes stdout, stderr and the exit status through; --json gives {stdout, stderr, exit_code}. Devices before Android 7 merge stderr into stdout.",
  kind: 'destructive',
  needs: {shell: 'act'},
  group: 'system',
  input: z.object({
    command: z
      .array(
        z.string().superRefine((word, ctx) => {
          const problem = deviceStringProblem(word)
          if (problem !== undefined)
            ctx.addIssue({
              code: 'custom',
              message: `a word cannot contain ${problem}: ${JSON.stringify(word.slice(0, 80))}`,
            })
        })
      )
      .min(1, 'give the command after --, e.g. arc shell -- getprop ro.build.version.sdk')
      .describe('The command and its arguments, each passed as one word'),
    timeout_ms: z
      .number()
      .int()
      .min(1000)
      .max(3_600_000)
      .optional()
      .describe('Time limit in ms, 1000-3600000 (default: adb.timeoutMs from the config)'),
  }),
  cli: {
    id: 'shell',
    positional: ['command'],
    examples: [
      '<%= config.bin %> <%= command.id %> -- getprop ro.build.version.sdk',
      "<%= config.bin %> <%= command.id %> -- sh -c 'ls /sdcard | wc -l'",
    ],
  },
  async handler({driver, json}, {command, timeout_ms}) {
    const result = await driver.runCommand(command, timeout_ms)
    const stdout = result.stdout.toString('utf8')
    const stderr = result.stderr.toString('utf8')
    return {
      text: summary(stdout, stderr, result.exitCode),
      data: {stdout, stderr, exit_code: result.exitCode},
      cli: {...(json ? {} : {stdout: result.stdout, stderr: result.stderr}), exitCode: result.exitCode},
    }
  },
})
