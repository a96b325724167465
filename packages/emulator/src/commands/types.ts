import type {VirtualDevice} from '../virtual-device.js'

/** The service a device command arrived through. */
export type ShellServiceKind = 'shell' | 'shell,v2' | 'exec'

/** What an emulated device program gets: its exact argv and the streams of the process that ran it. */
export interface CommandContext {
  device: VirtualDevice
  /** argv[0] is the program name, as the device's sh passed it. */
  argv: string[]
  /** Working folder as a device path. */
  cwd: string
  service: ShellServiceKind
  out(data: string | Buffer): void
  err(data: string | Buffer): void
  /** What the program's environment held of CLASSPATH (the one variable the program helper forwards). */
  env: Record<string, string>
  /** Everything on the program's stdin until end of file. */
  readStdin(): Promise<Buffer>
  /** Each chunk of stdin as it arrives, until end of file (use this or readStdin, not both). */
  stdinChunks(): AsyncIterable<Buffer>
  /** Aborted when the process is killed (the client went away, the emulator closed). */
  signal: AbortSignal
  /** Writes straight to the client connection, bypassing the shell (used to drop a device mid-output). */
  writeToClient(data: string | Buffer): Promise<void>
  /** The shell that ran the program: its session token and the host pid of its sh (file descriptors it holds). */
  shell?: {token: string; pid?: number}
}

/** A device program: writes its output and resolves to its exit status. */
export type DeviceCommand = (ctx: CommandContext) => Promise<number> | number

/** Resolves once the signal aborts: what a hung program does. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), {once: true})
  })
}

export {sleep} from '../sleep.js'
