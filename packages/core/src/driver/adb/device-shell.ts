/**
 * One adb device as the driver's capability modules see it: shell commands with quoting, output checks and a
 * clear error when the device vanished mid-command.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'
import type {AdbServer, ShellResult} from './adb-client.js'
import {shellCommand, type Raw} from './shell-quote.js'

/** What device tools print when a command fails (`cmd input` and `am` print these on stdout or stderr). */
const FAILURE = /Exception|^Error|\bError:|^error:|usage:|Unknown command|not found|Permission denied|SecurityException/im

/**
 * Lines some builds print around a command's own output that say nothing of it: the dynamic linker's warnings, and
 * the graphics stack's complaint that it cannot cache shaders (waydroid's `screencap`, `input` and friends:
 * `Failed to create //.cache for shader cache (Read-only file system)---disabling.`,
 * LmeSzinc/AzurLaneAutoScript#4760).
 */
export const OUTPUT_NOISE = /^(?:WARNING: linker:|Failed to create \S* for shader cache\b)/

/**
 * True when the device lacks the `cmd` service or command asked for (`Unknown command`, `Can't find service`,
 * `… inaccessible or not found`, or Binder's default `No shell command implementation.` for a service without
 * shell commands), so the caller falls back to an older way.
 */
export function isMissingCommand(output: string): boolean {
  return /Unknown command|Can't find service|not found|No shell command implementation/i.test(output)
}

export class DeviceShell {
  constructor(
    readonly server: AdbServer,
    readonly serial: string,
  ) {}

  /** Queue key for serialising input actions: one per device per adb server. */
  get key(): string {
    return `${this.server.address}/${this.serial}`
  }

  /** Runs a command built from words (strings are quoted, numbers and `raw` words are not). */
  run(words: Array<string | number | Raw>, timeoutMs?: number): Promise<ShellResult> {
    return this.server.shell(this.serial, shellCommand(words), timeoutMs)
  }

  /** The command's output as text, whatever its exit status (callers read the text for failures). */
  async text(words: Array<string | number | Raw>, timeoutMs?: number): Promise<string> {
    return (await this.run(words, timeoutMs)).output.toString('utf8')
  }

  /**
   * Runs a command that prints nothing when it works (`input`, `am force-stop`): a non-zero exit, failure text,
   * or any other output at all (random bytes with exit status 0 included) is a DeviceCommandError quoting it,
   * never reported as done. The noise lines some builds print (OUTPUT_NOISE) are not output of the command.
   */
  async action(words: Array<string | number | Raw>, what: string): Promise<string> {
    const {output, exitCode} = await this.run(words)
    const text = output.toString('utf8')
    const unexpected = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !OUTPUT_NOISE.test(line))
    if (exitCode !== 0 || FAILURE.test(text)) throw this.failed(what, text, exitCode)
    if (unexpected.length > 0) throw this.failed(what, `unexpected output: ${JSON.stringify(unexpected.join('\n').slice(0, 200))}`, exitCode)
    return text
  }

  failed(what: string, output: string, exitCode?: number): DeviceCommandError {
    const shown = output.trim().split(/\r?\n/).slice(0, 3).join(' | ').slice(0, 300)
    const status = exitCode ? ` (exit status ${exitCode})` : ''
    return new DeviceCommandError(`${what} failed on ${this.serial}${status}: ${shown || '(no output)'}`, {
      details: {serial: this.serial, output: output.slice(0, 2000), exitCode},
    })
  }
}
