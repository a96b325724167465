import {mkdtempSync, rmSync} from 'node:fs'
import {EventEmitter} from 'node:events'
import net, {type Server, type Socket} from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {ConfigError, DeviceNotFoundError, InvalidInputError} from '@arc-cli/core'

import {CommandChannel, socketFolder, type ProgramIo} from './command-channel.js'
import {CommandLog, type ReceivedCommand, type ReceivedRequest} from './command-log.js'
import {COMMANDS} from './commands/index.js'
import {DemoApp} from './demo-app/demo-app.js'
import {runFault} from './faults.js'
import type {CommandContext} from './commands/types.js'
import {ShellSession, writeProgramDir} from './shell-session.js'
import {failReply, OKAY, type SocketReader, writeAsync} from './framing.js'
import {handleConnection, type HostContext} from './host-protocol.js'
import {chooseHelper, type ProgramHelper} from './program-helper.js'
import {loadScenarioFile, parseScenario, type ParsedScenario, type Scenario} from './scenario.js'
import {parseShellService} from './shell-v2.js'
import {runSync} from './sync-protocol.js'
import {VirtualDevice, type AdbState} from './virtual-device.js'

export interface EmulatedDeviceSpec {
  serial: string
  /** A snapshot folder (window_dump.xml [+ screen.png, meta.json]) or a `.xml` dump; or give `app`. */
  snapshot?: string
  /**
   * `demo`: the device runs the demo app (demo-app/demo-app.ts), whose first screen is the bundled `demo` snapshot
   * and which works: ADD adds a row, the list scrolls, a row's delete button opens a dialog.
   */
  app?: 'demo'
  state?: AdbState
}

export interface EmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number
  /** Address to listen on; default 127.0.0.1. */
  host?: string
  /** Devices; a scenario may add more (its `devices` keys). */
  devices: EmulatedDeviceSpec[]
  /** A scenario file (JSON) or an already-built scenario object. */
  scenario?: string | Scenario
  /** Writes one JSON line per command received (see CommandLog). */
  logFile?: string
  /** What relays each device program to the emulator; default perl where it can, else Node.js (program-helper.ts). */
  programHelper?: ProgramHelper
  /**
   * Multiplies every emulated wait (uiautomator's idle wait, VM starts) on devices whose scenario sets no
   * `timing.scale`; default ARC_EMULATE_TIME_SCALE from the environment, else 1 (a phone's own times).
   */
  timeScale?: number
}

/** The time scale from ARC_EMULATE_TIME_SCALE (the test runner sets it), else undefined; a bad value is an error. */
export function envTimeScale(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.ARC_EMULATE_TIME_SCALE
  if (raw === undefined || raw === '') return undefined
  const scale = Number(raw)
  if (!Number.isFinite(scale) || scale < 0 || scale > 100) {
    throw new ConfigError(`ARC_EMULATE_TIME_SCALE=${JSON.stringify(raw)} is not a number from 0 to 100`, {
      actions: ["Unset it for a phone's own times, or set a factor such as 0.01."],
    })
  }
  return scale
}

export interface Emulator {
  port: number
  host: string
  /** Every device command received, in order: each program run by a shell/exec service, each sync request. */
  commands: ReceivedCommand[]
  /** Every host-protocol request received, in order. */
  requests: ReceivedRequest[]
  /** The emulated device with this serial (throws when there is none). */
  device(serial: string): VirtualDevice
  devices(): VirtualDevice[]
  /** Process ids of device shells still running (empty once every client has finished or gone). */
  runningShells(): number[]
  /** What relays device programs to this emulator (EmulatorOptions.programHelper). */
  readonly programHelper: ProgramHelper
  /** Stops listening, drops every connection, kills every device shell and deletes the temporary files. */
  close(): Promise<void>
}

/** The programs that print a build's noise lines (VirtualDevice.outputNoise): those that start the graphics stack. */
const NOISY_PROGRAMS = new Set(['input', 'am', 'pm', 'screencap'])

class EmulatorImpl implements Emulator, HostContext {
  port = 0
  host: string
  programHelper: ProgramHelper = 'node'
  readonly commands: ReceivedCommand[] = []
  readonly requests: ReceivedRequest[] = []
  private readonly byserial = new Map<string, VirtualDevice>()
  private readonly events = new EventEmitter()
  private readonly clients = new Set<Socket>()
  private readonly sessions = new Map<string, ShellSession>()
  private server?: Server
  private channel?: CommandChannel
  private log?: CommandLog
  private closed = false
  /** Where the emulator's Unix sockets go: `tmp`, unless that path is too long for them (socketFolder). */
  private sockets?: string

  constructor(
    readonly tmp: string,
    private readonly options: EmulatorOptions
  ) {
    this.host = options.host ?? '127.0.0.1'
    this.events.setMaxListeners(0)
    if (options.logFile) this.log = new CommandLog(options.logFile)
  }

  get programDir(): string {
    return path.join(this.tmp, 'bin')
  }

  async start(scenario: ParsedScenario | undefined): Promise<void> {
    const options = this.options
    const sockets = (this.sockets = socketFolder(this.tmp))
    const {helper, command} = await chooseHelper(options.programHelper, sockets)
    this.programHelper = helper
    writeProgramDir(this.programDir, Object.keys(COMMANDS), command)
    this.channel = await CommandChannel.start(path.join(sockets, 'programs.sock'), (token, io) =>
      this.runProgram(token, io)
    )
    let transportId = 1
    const specs = new Map<string, EmulatedDeviceSpec | undefined>(options.devices.map((d) => [d.serial, d]))
    for (const serial of Object.keys(scenario?.devices ?? {})) if (!specs.has(serial)) specs.set(serial, undefined)
    for (const [serial, spec] of specs) {
      const deviceScenario = scenario?.devices[serial]
      const scenarioScreens = deviceScenario?.screens && Object.keys(deviceScenario.screens).length > 0
      const app = !scenarioScreens && spec?.app === 'demo' ? new DemoApp() : undefined
      const screens = scenarioScreens
        ? deviceScenario!.screens
        : spec?.snapshot !== undefined
          ? {main: spec.snapshot}
          : app
            ? {}
            : undefined
      if (!screens) {
        throw new ConfigError(
          `scenario device ${serial} has no snapshot: give devices.${serial}.snapshot or screens, or --serial ${serial}=SNAPSHOT`
        )
      }
      const id = transportId++
      const device = await VirtualDevice.create({
        serial,
        transportId: id,
        root: path.join(this.tmp, 'devices', String(id)),
        screens,
        state: spec?.state,
        scenario: deviceScenario,
        timeScale: options.timeScale ?? envTimeScale(),
        ...(app ? {app} : {}),
      })
      if (app && !deviceScenario?.properties?.['ro.build.version.sdk']) {
        // The demo app's phone runs Android 16, whose shell uiautomator writes the `hint` attribute (text-fields.ts):
        // its dump is then the bundled demo snapshot's byte for byte, and every id read on one holds on the other.
        device.properties.set('ro.build.version.sdk', '36')
        device.properties.set('ro.build.version.release', '16')
      }
      device.on('changed', () => this.events.emit('changed'))
      device.on('disconnect', () => {
        for (const session of this.sessions.values()) if (session.device === device) session.kill()
      })
      this.byserial.set(serial, device)
    }
    this.server = net.createServer((socket) => {
      this.clients.add(socket)
      socket.once('close', () => this.clients.delete(socket))
      void handleConnection(socket, this)
    })
    await new Promise<void>((resolve, reject) => {
      const server = this.server as Server
      server.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE') {
          reject(
            new InvalidInputError(`--port ${options.port}: port ${options.port} on ${this.host} is already in use`, {
              details: {flag: 'port', value: options.port},
              actions: ['Pick another port, or --port 0 for a free one. Is a real adb server running there?'],
            })
          )
        } else reject(error)
      })
      server.listen(options.port ?? 0, this.host, () => resolve())
    })
    this.port = (this.server.address() as net.AddressInfo).port
  }

  // HostContext
  devices(): VirtualDevice[] {
    return [...this.byserial.values()].filter((d) => d.isPresent)
  }

  onDevicesChanged(listener: () => void): () => void {
    this.events.on('changed', listener)
    return () => this.events.off('changed', listener)
  }

  noteRequest(raw: string, serial?: string): void {
    const entry: ReceivedRequest = {serial, raw, time: new Date().toISOString()}
    this.requests.push(entry)
    this.log?.request(entry)
  }

  private record(entry: Omit<ReceivedCommand, 'time'>): void {
    const full = {...entry, time: new Date().toISOString()}
    this.commands.push(full)
    this.log?.command(full)
  }

  async openService(device: VirtualDevice, service: string, reader: SocketReader, socket: Socket): Promise<void> {
    if (service === 'sync:') {
      await writeAsync(socket, OKAY)
      await runSync(reader, socket, device, (argv) =>
        this.record({serial: device.serial, service: 'sync', argv, raw: argv.join(' ')})
      )
      return
    }
    // adbd before Android 7 knows only `shell:` (its service_to_fd compares the first six bytes with "shell:"), so
    // `shell,v2,…:` is no service there: the stream is closed, which the adb server reports as `closed`.
    const shell = device.preNougatAdbd && !service.startsWith('shell:') ? undefined : parseShellService(service)
    const exec = service.startsWith('exec:') ? service.slice(5) : undefined
    if (shell === undefined && exec === undefined && device.preNougatAdbd && service.startsWith('shell,')) {
      await writeAsync(socket, failReply('closed'))
      socket.end()
      return
    }
    if (!shell && exec === undefined) {
      await writeAsync(socket, failReply(`unsupported service: ${service.split(':')[0]}`))
      socket.end()
      return
    }
    await writeAsync(socket, OKAY)
    const session = new ShellSession({
      token: CommandChannel.newToken(),
      device,
      kind: exec !== undefined ? 'exec' : shell?.protocol === 'v2' ? 'shell,v2' : 'shell',
      command: exec ?? shell?.command ?? '',
      term: shell?.term,
      socket,
      reader,
      programDir: this.programDir,
      channelPath: (this.channel as CommandChannel).socketPath,
    })
    this.sessions.set(session.token, session)
    session.start()
    await session.done
    this.sessions.delete(session.token)
    // The shell is gone, and with it every descriptor it held: the kernel drops its flock(2) locks.
    device.fileLocks.releaseAll(session.token)
  }

  /** A device program called back: record it, apply an armed fault, or run its emulation. */
  private async runProgram(token: string, io: ProgramIo): Promise<number> {
    const session = this.sessions.get(token)
    if (!session) {
      io.err(`${io.argv[0]}: no such session\n`)
      return 126
    }
    const device = session.device
    this.record({serial: device.serial, service: session.kind, argv: io.argv, raw: session.command})
    const ctx: CommandContext = {
      device,
      argv: io.argv,
      cwd: device.files.devicePathOf(io.cwd),
      service: session.kind,
      out: io.out,
      err: io.err,
      env: io.env,
      readStdin: io.readStdin,
      stdinChunks: io.stdinChunks,
      signal: io.signal,
      writeToClient: (data) => session.writeToClient(data),
      shell: {token, pid: session.pid},
    }
    const before = device.takeHold(io.argv, 'before')
    if (before) {
      before.arrived()
      await before.released
      // Killed while it waited (its client went away): a process that was killed before it ran does nothing.
      if (io.signal.aborted) return 137
    }
    const after = device.takeHold(io.argv, 'after')
    const status = await this.runCommand(device, io, ctx)
    if (after) {
      after.arrived()
      await after.released
    }
    return status
  }

  private async runCommand(device: VirtualDevice, io: ProgramIo, ctx: CommandContext): Promise<number> {
    const fault = device.takeFault(io.argv)
    const program = COMMANDS[io.argv[0] ?? '']
    if (fault?.after && program) {
      // The work is done (a rename(2) is atomic: it happened whole), then the answer is lost or late.
      await program({...ctx, out() {}, err() {}})
      return runFault(fault, ctx)
    }
    if (fault) return runFault(fault, ctx)
    if (!program) {
      io.err(`/system/bin/sh: ${io.argv[0]}: not found\n`)
      return 127
    }
    if (device.outputNoise.length > 0 && NOISY_PROGRAMS.has(io.argv[0] as string))
      io.err(`${device.outputNoise.join('\n')}\n`)
    return program(ctx)
  }

  runningShells(): number[] {
    return [...this.sessions.values()].map((s) => s.pid).filter((p): p is number => p !== undefined)
  }

  device(serial: string): VirtualDevice {
    const device = this.byserial.get(serial)
    if (!device)
      throw new DeviceNotFoundError(
        `arc emulate has no device ${serial} (has: ${[...this.byserial.keys()].join(', ')})`
      )
    return device
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const server = this.server
    const closing = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()
    for (const session of this.sessions.values()) session.kill()
    for (const socket of this.clients) socket.destroy()
    await closing
    await Promise.all([...this.sessions.values()].map((s) => s.done))
    await this.channel?.close()
    rmSync(this.tmp, {recursive: true, force: true})
    if (this.sockets) rmSync(this.sockets, {recursive: true, force: true})
  }
}

/**
 * Starts an emulated ADB server with virtual devices. Resolves once it listens; `close()` undoes everything.
 * Throws ArcErrors for bad input: a missing snapshot (DeviceNotFoundError), a bad scenario (ConfigError), a
 * port in use (InvalidInputError).
 */
export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const serials = new Set<string>()
  for (const spec of options.devices) {
    if (!spec.serial || /[\s/]/.test(spec.serial)) {
      throw new InvalidInputError(
        `device serial ${JSON.stringify(spec.serial)} is not allowed: use letters, digits, . - _ :`,
        {details: {flag: 'serial'}}
      )
    }
    if (serials.has(spec.serial))
      throw new InvalidInputError(`device serial ${spec.serial} is given twice`, {details: {flag: 'serial'}})
    serials.add(spec.serial)
  }
  const scenario =
    options.scenario === undefined
      ? undefined
      : typeof options.scenario === 'string'
        ? loadScenarioFile(options.scenario)
        : parseScenario(options.scenario, '(object)', process.cwd())
  if (options.devices.length === 0 && Object.keys(scenario?.devices ?? {}).length === 0) {
    throw new InvalidInputError('arc emulate needs at least one device (--serial NAME=SNAPSHOT or a scenario)', {
      details: {flag: 'serial'},
    })
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'arc-emu-'))
  const emulator = new EmulatorImpl(tmp, options)
  try {
    await emulator.start(scenario)
  } catch (error) {
    await emulator.close()
    throw error
  }
  return emulator
}
