/**
 * The one rendering of an error for a reader: `Error [CODE]: message`, then a `Try: …` line per action. The CLI
 * (ArcCommand, the unknown-command hook) and the MCP server's error results all print it. Messages quote what came
 * from outside (a path, a config key, a device's answer, a command line as typed): control characters are written
 * out here, for every error, so none reaches a terminal.
 */
import {printableText} from '../printable.js'
import type {ArcError} from './arc-error.js'
import {exitCodeFor} from './exit-codes.js'

/** How each part is styled (colour on a terminal); plain text when absent. */
export interface ErrorStyle {
  label(text: string): string
  code(text: string): string
  action(text: string): string
  stack(text: string): string
}

const PLAIN: ErrorStyle = {label: (t) => t, code: (t) => t, action: (t) => t, stack: (t) => t}

export interface FormatOptions {
  style?: ErrorStyle
  /** Append the stack (the cause's, when there is one): the CLI does with DEBUG=arc*. */
  stack?: boolean
}

export function formatError(error: ArcError, options: FormatOptions = {}): string {
  const style = options.style ?? PLAIN
  const lines = [`${style.label('Error')} ${style.code(`[${error.code}]`)}: ${printableText(error.message)}`]
  for (const action of error.actions) lines.push(`${style.action('Try:')} ${printableText(action)}`)
  if (options.stack) {
    const cause = error.cause instanceof Error ? error.cause : error
    lines.push(style.stack(printableText(cause.stack ?? String(cause))))
  }
  return lines.join('\n')
}

/** The error as `--json` prints it and MCP's structured content holds it: its fields and the exit status. */
export function errorJson(error: ArcError): {error: ReturnType<ArcError['toJSON']> & {exitCode: number}} {
  return {error: {...error.toJSON(), exitCode: exitCodeFor(error.code)}}
}
