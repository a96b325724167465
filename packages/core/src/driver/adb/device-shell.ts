/**
 * One adb device as the driver's capability modules see it: shell commands with quoting, output checks and a
 * clear error when the device vanished mid-command.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'
import type {AdbServer, OutputLimit, ShellResult} from './adb-client.js'
import {shellCommand, type Raw} from './shell-quote.js'

/** What device tools print when a command fails (`cmd input` and `am` print these on stdout or stderr). */
const FAILURE =
  /Exception|^Error|\bError:|^error:|usage:|Unknown command|not found|Permission denied|SecurityException/im

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

/**
 * The device refused to let the shell inject input: Xiaomi, Redmi and POCO phones (MIUI, HyperOS) do so for every
 * `input` until "USB debugging (Security settings)" is on (`SecurityException: Injecting to another application
 * requires INJECT_EVENTS permission`, or from Android 13 `Injecting input events requires the caller … to have the
 * INJECT_EVENTS permission`: DeviceFarmer/STFService.apk#144, Genymobile/scrcpy#1865 and #3824).
 */
const INJECTION_REFUSED = /SecurityException.*INJECT_EVENTS/

/** The setting that lets adb inject input on MIUI and HyperOS, as its Developer options name it. */
export const XIAOMI_INPUT_SETTING = 'USB debugging (Security settings)'

/** What to do about a refused injection, for errors and for `arc doctor`. */
export const INPUT_REFUSED_ACTIONS = [
  `On Xiaomi, Redmi and POCO phones (MIUI, HyperOS): Settings > Additional settings > Developer options, turn on "${XIAOMI_INPUT_SETTING}" (it asks for a Mi account and a SIM on some models), then try again.`,
  'Other vendors: look in Developer options for a setting that allows input from USB debugging.',
]

function inputRefused(serial: string, what: string, output: string, exitCode?: number): DeviceCommandError {
  return new DeviceCommandError(
    `${what} was refused on ${serial}: the device does not let adb inject input (SecurityException: INJECT_EVENTS); on Xiaomi, Redmi and POCO phones turn on "${XIAOMI_INPUT_SETTING}"`,
    {
      details: {serial, reason: 'INPUT_NOT_ALLOWED', output: output.slice(0, 2000), exit_code: exitCode},
      actions: INPUT_REFUSED_ACTIONS,
    }
  )
}

export class DeviceShell {
  constructor(
    readonly server: AdbServer,
    readonly serial: string
  ) {}

  /** Queue key for serialising input actions: one per device per adb server. */
  get key(): string {
    return `${this.server.address}/${this.serial}`
  }

  /** Runs a command built from words (strings are quoted, numbers and `raw` words are not). */
  run(words: Array<string | number | Raw>, timeoutMs?: number, limit?: OutputLimit): Promise<ShellResult> {
    return this.server.shell(this.serial, shellCommand(words), timeoutMs, limit)
  }

  /** The command's output as text, whatever its exit status (callers read the text for failures); `limit` bounds it. */
  async text(words: Array<string | number | Raw>, timeoutMs?: number, limit?: OutputLimit): Promise<string> {
    return (await this.run(words, timeoutMs, limit)).output.toString('utf8')
  }

  /**
   * Runs a command that prints nothing when it works (`input`, `am force-stop`): a non-zero exit, failure text,
   * or any other output at all (random bytes with exit status 0 included) is a DeviceCommandError quoting it,
   * never reported as done. The noise lines some builds print (OUTPUT_NOISE) are not output of the command. `timeoutMs`:
   * this command's time limit, where it does more than one call's work (default: the server's).
   */
  async action(words: Array<string | number | Raw>, what: string, timeoutMs?: number): Promise<string> {
    const {output, exitCode} = await this.run(words, timeoutMs)
    const text = output.toString('utf8')
    const unexpected = text.split(/\r?\n/).filter((line) => line.trim() !== '' && !OUTPUT_NOISE.test(line))
    if (exitCode !== 0 || FAILURE.test(text)) throw this.failed(what, text, exitCode)
    if (unexpected.length > 0)
      throw this.failed(what, `unexpected output: ${JSON.stringify(unexpected.join('\n').slice(0, 200))}`, exitCode)
    return text
  }

  failed(what: string, output: string, exitCode?: number): DeviceCommandError {
    if (INJECTION_REFUSED.test(output)) return inputRefused(this.serial, what, output, exitCode)
    const shown = output.trim().split(/\r?\n/).slice(0, 3).join(' | ').slice(0, 300)
    const status = exitCode ? ` (exit status ${exitCode})` : ''
    return new DeviceCommandError(`${what} failed on ${this.serial}${status}: ${shown || '(no output)'}`, {
      details: {serial: this.serial, output: output.slice(0, 2000), exit_code: exitCode},
    })
  }
}
