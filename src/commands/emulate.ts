import {existsSync} from 'node:fs'
import {rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {
  ArcCommand,
  ArcError,
  DeviceNotFoundError,
  Flags,
  InvalidInputError,
  OutputError,
  outputError,
  outputKind,
  outputReason,
  printable,
  serveDespiteOutputErrors,
  sideStem,
  unreachableSerial,
  writeIntoStream,
} from '@arc-cli/core'
// The emulator (an ADB server and its device programs) is loaded only when `arc emulate` runs: listing commands,
// `arc --version` and every other command would otherwise pay for it at start-up.
import type {EmulatedDeviceSpec} from '@arc-cli/emulator'

/**
 * The serial of the one device `arc emulate` serves when given neither --serial nor --scenario. Not `demo`: that
 * name always means the bundled snapshot, so `--device demo` could never reach the virtual device.
 */
export const DEFAULT_SERIAL = 'arc-virtual'

/** `NAME=SNAPSHOT` → a device spec; `demo` as SNAPSHOT is the bundled demo screen. */
export function parseSerialFlag(value: string): EmulatedDeviceSpec {
  const eq = value.indexOf('=')
  if (eq <= 0 || eq === value.length - 1) {
    throw new InvalidInputError(
      `--serial ${JSON.stringify(value)} must be NAME=SNAPSHOT, e.g. --serial login=./snapshots/login`,
      {
        details: {flag: 'serial', value},
        actions: ['SNAPSHOT is a snapshot folder (window_dump.xml [+ screen.png, meta.json]), a .xml dump, or `demo`.'],
      }
    )
  }
  const serial = value.slice(0, eq)
  const snapshot = value.slice(eq + 1)
  if (/\s/.test(serial)) {
    throw new InvalidInputError(
      `--serial ${JSON.stringify(value)}: NAME ${JSON.stringify(serial)} may not contain spaces`,
      {
        details: {flag: 'serial', value},
      }
    )
  }
  const unreachable = unreachableSerial(serial)
  if (unreachable) {
    throw new InvalidInputError(
      `--serial ${JSON.stringify(value)}: NAME ${JSON.stringify(serial)} could not be reached by --device: ${unreachable}`,
      {
        details: {flag: 'serial', value},
        actions: [`Pick another name, e.g. --serial ${DEFAULT_SERIAL}=${snapshot}`],
      }
    )
  }
  // `demo` is the demo app, live: its first screen is the bundled demo snapshot, and it works (docs/emulate.md).
  if (snapshot === 'demo') return {serial, app: 'demo'}
  const resolved = path.resolve(snapshot)
  if (!existsSync(resolved)) {
    throw new DeviceNotFoundError(`--serial ${value}: no snapshot at ${resolved}`, {
      details: {flag: 'serial', value},
      actions: ['SNAPSHOT is a snapshot folder (window_dump.xml [+ screen.png, meta.json]), a .xml dump, or `demo`.'],
    })
  }
  return {serial, snapshot: resolved}
}

export default class Emulate extends ArcCommand {
  static override enableJsonFlag = false
  static override summary = 'Run a virtual Android device that speaks the real ADB protocol'
  static override description = [
    'Serves the ADB host protocol on HOST:PORT with one virtual device per --serial, each showing a recorded',
    'snapshot. The real adb CLI, adbkit and arc itself drive it like a phone: shell (v1 and v2), exec-out, push,',
    'pull, uiautomator dump, screencap, input, pm, am, dumpsys, logcat… A --scenario (JSON) adds screens that',
    'taps switch between, installed apps, properties and scripted faults. Runs until Ctrl-C. See docs/emulate.md.',
  ].join(' ')

  static override examples = [
    '<%= config.bin %> <%= command.id %> --port 5039',
    '<%= config.bin %> <%= command.id %> --port 5039 --serial phone=./snapshots/login --serial tablet=./snapshots/tablet',
    '<%= config.bin %> <%= command.id %> --port 5039 --scenario scenario.json --log commands.jsonl',
    'adb -H 127.0.0.1 -P 5039 shell echo ok',
    'ADB_SERVER_SOCKET=tcp:127.0.0.1:5039 <%= config.bin %> screen-state',
  ]

  static override flags = {
    port: Flags.integer({
      char: 'p',
      summary: 'TCP port to serve the ADB protocol on (0 = a free port).',
      required: true,
    }),
    host: Flags.string({summary: 'Address to listen on.', default: '127.0.0.1'}),
    serial: Flags.string({
      char: 's',
      summary: `A device as NAME=SNAPSHOT (repeatable); SNAPSHOT \`demo\` runs the demo app. Default: ${DEFAULT_SERIAL}=demo.`,
      multiple: true,
    }),
    scenario: Flags.string({
      summary:
        'Scenario file (JSON): screens, transitions, apps, properties, faults; `demo`: the demo app (the default).',
    }),
    log: Flags.string({summary: 'Write one JSON line per command received to this file.'}),
    'port-file': Flags.string({
      summary:
        'Once listening, write the address as JSON to this file ({"host","port","adbServerSocket","devices"}); removed on stop (a FIFO or device such as /dev/stdout is written into and left).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(Emulate)
    // Flags.integer has already rejected anything that is not a whole number.
    if (flags.port < 0 || flags.port > 65535) {
      throw new InvalidInputError(`--port ${flags.port} is out of range: use 0-65535 (0 = a free port)`, {
        details: {flag: 'port', value: flags.port},
      })
    }
    const devices = (flags.serial ?? []).map((s) => parseSerialFlag(s))
    // `--scenario demo` names the built-in one: the demo app on `arc-virtual` (a scenario file called demo: ./demo).
    const demoScenario = flags.scenario === 'demo'
    const scenario = flags.scenario && !demoScenario ? path.resolve(flags.scenario) : undefined
    if (devices.length === 0 && !scenario) devices.push({serial: DEFAULT_SERIAL, app: 'demo'})
    const {startEmulator} = await import('@arc-cli/emulator')
    const logFile = flags.log ? path.resolve(flags.log) : undefined
    const emulator = await startEmulator({port: flags.port, host: flags.host, devices, scenario, logFile}).catch(
      (error: NodeJS.ErrnoException & {hostname?: string}) => {
        throw startFailure(error, flags.host, logFile)
      }
    )
    const address = `${emulator.host}:${emulator.port}`
    const serials = emulator.devices().map((d) => (d.state === 'device' ? d.serial : `${d.serial} (${d.state})`))
    // For scripts that start it with --port 0: the address without scraping a log line. Written whole (a temporary
    // name, then a rename), so a script polling for the file never reads half of it.
    // A FIFO or a device there (`--port-file /dev/stdout`, a pipe a script reads) is written into, never replaced,
    // and stays after the stop: only a file arc made is removed.
    const portFile = flags['port-file'] ? path.resolve(flags['port-file']) : undefined
    let madePortFile = false
    if (portFile) {
      const info = {
        host: emulator.host,
        port: emulator.port,
        adbServerSocket: `tcp:${address}`,
        devices: emulator.devices().map((d) => d.serial),
      }
      const target = {path: portFile, input: '--port-file'}
      const temp = path.join(path.dirname(portFile), `${sideStem(path.basename(portFile))}.${process.pid}.tmp`)
      try {
        const kind = await outputKind(portFile)
        if (typeof kind === 'object') throw outputError(target, kind.refuse)
        if (kind === 'stream') await writeIntoStream(target, JSON.stringify(info) + '\n')
        else {
          await writeFile(temp, JSON.stringify(info) + '\n')
          await rename(temp, portFile)
          madePortFile = true
        }
      } catch (error) {
        await rm(temp, {force: true})
        await emulator.close()
        if (error instanceof OutputError) throw error
        throw outputError(target, outputReason(error), error)
      }
    }
    // Listened for before the lines that tell a caller it may stop us: a SIGTERM sent as soon as it reads them must
    // find the handler (without one, the signal kills the process, which then leaves its port file behind).
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    // Its log's reader gone (`arc emulate … | grep -m1 listening`), the virtual devices go on serving.
    serveDespiteOutputErrors()
    // The file first: a caller that waits for the listening line then finds both the file and its line.
    if (portFile) this.log(`arc emulate: wrote ${portFile}`)
    // Every file written is said: the log, emptied as the server started, gets a line per command received.
    if (logFile) this.log(`arc emulate: logging every command to ${logFile}`)
    this.log(`arc emulate: listening on ${address} (devices: ${serials.join(', ')})`)
    this.log(
      `Try: ADB_SERVER_SOCKET=tcp:${address} ${this.config.bin} screen-state   or   adb -H ${emulator.host} -P ${emulator.port} shell echo ok`
    )
    await stopped
    await emulator.close()
    if (portFile && madePortFile) await rm(portFile, {force: true})
    this.log('arc emulate: stopped')
  }
}

/**
 * What a failed start says, by the flag that caused it: an address the host cannot listen on (a name that does not
 * resolve, or not one of this machine's) is --host's; a log file that cannot be opened is --log's. Anything else
 * stands as thrown.
 */
function startFailure(
  error: NodeJS.ErrnoException & {hostname?: string},
  host: string,
  logFile: string | undefined
): Error {
  if (error instanceof ArcError) return error
  if (logFile !== undefined && error.path === logFile) {
    return new OutputError(`--log: cannot write ${logFile}: ${error.message}`, {
      details: {input: 'log', path: logFile},
      cause: error,
    })
  }
  if (error.syscall === 'getaddrinfo' || error.code === 'EADDRNOTAVAIL' || error.code === 'EINVAL') {
    return new InvalidInputError(
      `--host ${printable(host)}: arc emulate cannot listen there (${error.code ?? error.message})`,
      {
        details: {input: 'host', host},
        actions: [
          'Give an address of this machine: 127.0.0.1 (the default), 0.0.0.0 for every interface, or a name that resolves to one.',
        ],
        cause: error,
      }
    )
  }
  return error
}
