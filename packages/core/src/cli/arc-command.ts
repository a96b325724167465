import {ArcError, InvalidInputError, toArcError} from '../errors/arc-error.js'
import {checkArgumentText} from './argv-text.js'
import {exitCodeFor} from '../errors/exit-codes.js'
import {errorJson} from '../errors/format-error.js'
import {firstToSay} from '../errors/output-failure.js'
import {Command, Flags} from '../oclif.js'
import {nearest} from './near-names.js'
import {cliErrorText} from './terminal.js'

/** Flags every device command takes. */
export const deviceFlags = {
  device: Flags.string({
    char: 'd',
    summary: 'Device: an adb serial, `demo`, or a snapshot folder or .xml file.',
    description:
      'Default: $ANDROID_SERIAL, else `device` from the config, else the single attached device. A path (anything with a slash, ending in .xml, or an existing folder) is a recorded snapshot.',
    helpGroup: 'DEVICE',
  }),
  'adb-host': Flags.string({
    summary:
      'Host of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_ADDRESS, else the config, else 127.0.0.1).',
    helpGroup: 'DEVICE',
  }),
  'adb-port': Flags.integer({
    summary:
      'Port of the adb server (default: from ADB_SERVER_SOCKET or ANDROID_ADB_SERVER_PORT, else the config, else 5037).',
    min: 1,
    max: 65535,
    helpGroup: 'DEVICE',
  }),
  helper: Flags.string({
    summary:
      "arc's on-device helper: auto (where it works, else ADB), off (ADB only) or required (default: $ARC_HELPER, else the config's adb.helper, else auto).",
    options: ['auto', 'off', 'required'],
    helpGroup: 'DEVICE',
  }),
}

/** oclif's own parse errors (unknown flag, missing argument, bad option) carry `oclif.exit`. */
function isParseError(error: unknown): error is Error & {oclif: {exit: number}} {
  return (
    error instanceof Error &&
    typeof (error as {oclif?: {exit?: unknown}}).oclif?.exit === 'number' &&
    error.name !== 'ExitError' &&
    !('code' in error && (error as {code?: unknown}).code === 'EEXIT')
  )
}

type ParsedFlags = Record<
  string,
  {required?: boolean; summary?: string; description?: string; options?: readonly string[]}
>

/**
 * oclif's own checks of a flag's value, said as a tool input's are (errors/describe-zod-issues.ts):
 * `--adb-port must be at most 65535 (got 70000)`, `--format must be one of jpeg, jpg, png (got "xyz")`.
 */
function flagValueMessage(text: string): string | undefined {
  const option = /^Expected --([\w-]+)=([\s\S]*) to be one of: (.*)$/.exec(text)
  if (option) return `--${option[1]} must be one of ${option[3]} (got ${JSON.stringify(option[2])})`
  const parsing =
    /^Parsing --([\w-]+)\s*\n\s*Expected an integer(?: (greater|less) than or equal to (\S+))? but received: ([\s\S]*)$/.exec(
      text
    )
  if (!parsing) return undefined
  const [, flag, side, limit, value] = parsing
  if (side === undefined) return `--${flag} must be a whole number (got ${JSON.stringify(value)})`
  return `--${flag} must be at ${side === 'greater' ? 'least' : 'most'} ${limit} (got ${value})`
}

/**
 * oclif's parse error as one arc line: its own text without the "See more help" footer, and its missing required
 * flags ("The following error occurred: Missing required flag port") said the way a missing tool input is:
 * `--port is required: <the flag's summary>`.
 */
export function parseErrorMessage(error: Error & {parse?: {input?: {flags?: ParsedFlags}}}): string {
  // oclif dims the reasons with ANSI colours on a terminal; they are read as text here.
  const text = error.message
    .replace(/\u001B\[[0-9;]*m/g, '')
    .replace(/\n\s*See more help with --help\s*$/, '')
    .trim()
  const listed = /^The following errors? occurred:\n([\s\S]*)$/.exec(text)
  if (!listed) return flagValueMessage(text) ?? text
  const flags = error.parse?.input?.flags ?? {}
  return (listed[1] as string)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((reason) => {
      const name = /^Missing required flag (\S+)$/.exec(reason)?.[1]
      if (name === undefined) return reason
      const flag = flags[name]
      const what = [
        flag?.summary ?? flag?.description,
        flag?.options ? `one of ${flag.options.join(', ')}` : undefined,
      ].filter(Boolean)
      return `--${name} is required${what.length > 0 ? `: ${what.join('; ')}` : ''}`
    })
    .join('; ')
}

/**
 * Base of every arc command: renders errors the one arc way. A user error prints `Error [CODE]: message` and
 * its "Try:" lines on stderr, without a stack, and exits with the code from EXIT_CODES; with --json the error
 * goes to stdout as `{"error": {...}}`. A stack is printed only with DEBUG=arc*, for every code alike.
 */
export abstract class ArcCommand extends Command {
  static override enableJsonFlag = true

  /**
   * For a misspelt flag (`--detial`), the command's flags it was probably meant to be: ` (did you mean --detail?)`;
   * empty for any other parse error or when no flag is near.
   */
  private flagSuggestion(error: Error & {flags?: unknown}): string {
    if (!Array.isArray(error.flags) || !error.message.startsWith('Nonexistent flag')) return ''
    const names = Object.keys((this.constructor as typeof Command).flags ?? {})
    const near = (error.flags as unknown[])
      .filter((typed): typed is string => typeof typed === 'string' && typed.startsWith('--'))
      .flatMap((typed) => nearest(typed.slice(2).replace(/=.*$/s, ''), names).slice(0, 2))
    return near.length === 0 ? '' : ` (did you mean ${[...new Set(near)].map((n) => `--${n}`).join(' or ')}?)`
  }

  /** Refuses, before the command parses or runs anything, an argument whose bytes were not UTF-8 (argv-text.ts). */
  protected override async init(): Promise<void> {
    await super.init()
    checkArgumentText(this.argv)
  }

  protected override async catch(error: Error & {exitCode?: number}): Promise<unknown> {
    // A deliberate this.exit(n) (oclif's ExitError, code EEXIT) is an exit status, not an error.
    if (
      (error as {code?: unknown}).code === 'EEXIT' ||
      ((error as {oclif?: {exit?: number}}).oclif?.exit !== undefined && error.name === 'ExitError')
    ) {
      throw error
    }
    let arcError: ArcError
    if (error instanceof ArcError) arcError = error
    else if (isParseError(error)) {
      arcError = new InvalidInputError(parseErrorMessage(error) + this.flagSuggestion(error), {
        actions: [
          `Run \`${this.config.bin} ${this.id?.replaceAll(':', ' ') ?? ''} --help\` for the flags and arguments.`,
        ],
      })
    } else arcError = toArcError(error)
    const exit = exitCodeFor(arcError.code)
    // A stdout that failed was said already where bin/main.js met its error event first (errors/output-failure.ts).
    if (arcError.code === 'OUTPUT_FAILED' && arcError.cause !== undefined && !firstToSay(arcError.cause)) {
      return this.exit(exit)
    }
    const json = this.jsonEnabled()
    const failedBefore = process.stdout.errored
    if (json) this.logJson(errorJson(arcError))
    // --json's error met a stdout that fails on it (a full disk, its reader gone: the stream keeps the error of the
    // write that met it): said on stderr, the one channel left, rather than not at all, and the stdout's own error
    // then goes unsaid (bin/main.js's listener): this error is the one that matters.
    const unsaid = json && process.stdout.errored !== failedBefore
    if (unsaid) firstToSay(process.stdout.errored)
    if (!json || unsaid) process.stderr.write(`${cliErrorText(arcError, process.stderr)}\n`)
    return this.exit(exit)
  }
}
