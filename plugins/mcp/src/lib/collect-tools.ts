import type {AnyTool} from '@arc-cli/core'
import type {Config} from '@oclif/core'

/**
 * Every tool of every installed arc plugin, through the `arc:tools` hook the core and each plugin answer: a tool
 * added anywhere is served without a change here.
 */
export async function collectTools(config: Config): Promise<AnyTool[]> {
  const result = await config.runHook('arc:tools' as never, {} as never)
  for (const failure of result.failures) {
    process.emitWarning(`arc:tools hook of ${failure.plugin.name} failed: ${failure.error.message}`)
  }
  return result.successes.flatMap((s) => (Array.isArray(s.result) ? (s.result as AnyTool[]) : []))
}
