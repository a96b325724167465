/**
 * What `am start` said about the start it was asked for, read from am's own lines, never from its echo. am first
 * echoes the intent (`Starting: Intent { act=… dat=URL cmp=PKG/.Act }`), which repeats the package, the activity
 * and the data word for word: a package `io.exceptional.notes` or a URL `…/docs/exceptions` put "exception" in that
 * echo of a start that went fine. am's verdicts are lines of their own (AOSP ActivityManagerShellCommand.runStartActivity):
 * `Error: …` / `Error type N` for a refused start, `Status: ok|timeout` after a start with `-W`, and ShellCommand's
 * `Exception occurred while executing 'start':` with the exception's class at the start of the next line for one
 * that threw. Anything else (a `Warning:` that the activity was brought to the front, a build's stray log lines) is no
 * verdict.
 */
const FAILED = /^(?:Error\b|Exception occurred while executing|(?:java|android)\.[\w.$]+(?:Exception|Error)\b)/m

/** True when am's output or exit status says the start failed. */
export function amStartFailed(output: string, exitCode: number): boolean {
  return exitCode !== 0 || FAILED.test(output)
}
