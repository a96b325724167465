/**
 * One adb device as the driver's capability modules see it: shell commands with quoting, output checks and a
 * clear error when the device vanished mid-command.
 */
import {DeviceCommandError, DeviceUnavailableError} from '../../errors/arc-error.js'
import type {AdbServer} from './adb-client.js'
import {unavailableState} from './map-adb-error.js'
import {shellCommand, type Raw} from './shell-quote.js'

/** What device tools print when a command fails (`cmd input` and `am` print these on stdout or stderr). */
const FAILURE = /Exception|^Error|\bError:|^error:|usage:|Unknown command|not found|Permission denied|SecurityException/im

export class DeviceShell {
  constructor(
    readonly server: AdbServer,
    readonly serial: string,
  ) {}

  /** Queue key for serialising input actions: one per device per adb server. */
  get key(): string {
    return `${this.server.address}/${this.serial}`
  }

  /** Runs a command built from words (strings are quoted, numbers and `raw` words are not); returns its output. */
  async run(words: Array<string | number | Raw>, timeoutMs?: number): Promise<Buffer> {
    const {output} = await this.server.shell(this.serial, shellCommand(words), timeoutMs)
    return output
  }

  async text(words: Array<string | number | Raw>, timeoutMs?: number): Promise<string> {
    return (await this.run(words, timeoutMs)).toString('utf8')
  }

  /** Runs a command that prints nothing when it works; any failure text becomes a DeviceCommandError. */
  async action(words: Array<string | number | Raw>, what: string): Promise<string> {
    const output = await this.text(words)
    if (FAILURE.test(output)) throw this.failed(what, output)
    return output
  }

  failed(what: string, output: string): DeviceCommandError {
    const shown = output.trim().split(/\r?\n/).slice(0, 3).join(' | ').slice(0, 300)
    return new DeviceCommandError(`${what} failed on ${this.serial}: ${shown || '(no output)'}`, {
      details: {serial: this.serial, output: output.slice(0, 2000)},
    })
  }

  /**
   * Called when output came back incomplete: if the device has gone or changed state, says so (a
   * DeviceUnavailableError); otherwise returns and the caller reports the bad output.
   */
  async assertStillAttached(what: string): Promise<void> {
    const devices = await this.server.listDevices()
    const device = devices.find((d) => d.serial === this.serial)
    if (!device) {
      throw new DeviceUnavailableError(`device ${this.serial} disconnected during ${what}`, {
        details: {serial: this.serial},
        actions: ['Reconnect the device, check `arc devices`, then run the command again.'],
      })
    }
    if (device.state !== 'device') throw unavailableState(this.serial, device.state)
  }
}
