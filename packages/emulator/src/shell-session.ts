import {spawn, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import type {Socket} from 'node:net'
import path from 'node:path'

import {shq} from '@arc-cli/core'

import type {ShellServiceKind} from './commands/types.js'
import {ShellPacket, encodePacket, readPacket} from './shell-v2.js'
import type {SocketReader} from './framing.js'
import type {VirtualDevice} from './virtual-device.js'

/** What the device's sh is called in its error messages (`/system/bin/sh: x: not found`). */
const DEVICE_SH = '/system/bin/sh'

/**
 * Writes one tiny sh script per emulated program into `dir`, each starting `helper` (see program-helper.ts) with
 * the program's name and arguments; that folder is the device shell's whole PATH, so any other name is "not
 * found" as on a phone.
 */
export function writeProgramDir(dir: string, names: string[], helper: string[]): void {
  mkdirSync(dir, {recursive: true})
  const start = helper.map(shq).join(' ')
  for (const name of names) {
    const file = path.join(dir, name)
    writeFileSync(file, `#!/bin/sh\nexec ${start} ${shq(name)} "$@"\n`)
    chmodSync(file, 0o755)
  }
  // The device's own sh (/system/bin/sh, `sh -c '…'`): the same host shell, with the same PATH of device programs.
  writeFileSync(path.join(dir, 'sh'), '#!/bin/sh\nexec /bin/sh "$@"\n')
  chmodSync(path.join(dir, 'sh'), 0o755)
}

export interface ShellSessionOptions {
  token: string
  device: VirtualDevice
  kind: ShellServiceKind
  /** The command string exactly as the client sent it ('' = interactive). */
  command: string
  term?: string
  socket: Socket
  reader: SocketReader
  programDir: string
  channelPath: string
}

/**
 * One `shell:`, `shell,v2,…:` or `exec:` service: the client's command string runs in a real `/bin/sh -c`,
 * exactly as adbd hands it to the device's sh, with only the emulated programs on PATH. v1 and exec relay raw
 * bytes (stdout and stderr together, no exit status, end = close); v2 frames stdout/stderr/exit packets.
 * When the client goes away the whole process group is killed, so nothing outlives the connection.
 */
export class ShellSession {
  private child?: ChildProcess
  private exited = false
  private stderrTail = ''
  /** Resolves when the shell has exited and the client has been answered. */
  readonly done: Promise<void>
  private resolveDone!: () => void

  constructor(private readonly options: ShellSessionOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve))
  }

  get token(): string {
    return this.options.token
  }

  get device(): VirtualDevice {
    return this.options.device
  }

  get kind(): ShellServiceKind {
    return this.options.kind
  }

  get command(): string {
    return this.options.command
  }

  get pid(): number | undefined {
    return this.exited ? undefined : this.child?.pid
  }

  /** Writes to the client bypassing the shell (a v2 client gets a stdout packet). */
  async writeToClient(data: string | Buffer): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    if (this.options.socket.destroyed) return
    await new Promise<void>((resolve) => this.send(ShellPacket.stdout, bytes, () => resolve()))
  }

  /**
   * Sends bytes to the client: a v2 packet of stream `id`, or the raw bytes for v1 and exec. False when the
   * socket's buffer is full (wait for `drain`); true when the client is gone and nothing was sent.
   */
  private send(id: number, data: Buffer, written?: () => void): boolean {
    const socket = this.options.socket
    if (socket.destroyed) return true
    if (this.pty) data = onlcr(data)
    return socket.write(this.kind === 'shell,v2' ? encodePacket(id, data) : data, written)
  }

  /**
   * A `shell:` service of adbd before Android 7 runs in a PTY (VirtualDevice.preNougatAdbd): what the shell writes
   * reaches the client through the terminal's output processing, ONLCR, so every LF arrives as CR LF (a PNG from
   * `screencap -p` included; `exec:` was added for that, and stays raw).
   */
  private get pty(): boolean {
    return this.kind === 'shell' && this.options.device.preNougatAdbd
  }

  start(): void {
    const {command, socket, reader, device} = this.options
    const v2 = this.kind === 'shell,v2'
    // v1 and exec give one stream, in the order it was written (a pty on a device): the shell sends its stderr into
    // its stdout before running anything, so a program's error and a later `echo` cannot change places, as two
    // pipes read separately let them.
    const merged = !v2
    const args = command === '' ? ['-s'] : ['-c', merged ? `exec 2>&1\n${command}` : command, DEVICE_SH]
    const env: NodeJS.ProcessEnv = {
      PATH: this.options.programDir,
      HOME: '/',
      USER: 'shell',
      HOSTNAME: device.serial,
      ANDROID_ROOT: '/system',
      ANDROID_DATA: '/data',
      EXTERNAL_STORAGE: '/sdcard',
      ARC_EMU_SOCKET: this.options.channelPath,
      ARC_EMU_SESSION: this.token,
    }
    if (this.options.term) env.TERM = this.options.term
    const child = spawn('/bin/sh', args, {
      argv0: DEVICE_SH,
      cwd: device.files.root,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child = child
    child.stdin?.on('error', () => {})
    if (merged && command === '') child.stdin?.write('exec 2>&1\n')

    const relay = (stream: NodeJS.ReadableStream, id: number) => {
      stream.on('data', (chunk: Buffer) => {
        const data = id === ShellPacket.stderr ? this.rewriteStderr(chunk) : merged ? rewriteShellErrors(chunk) : chunk
        if (data.length > 0 && !this.send(id, data)) {
          stream.pause()
          socket.once('drain', () => stream.resume())
        }
      })
    }
    relay(child.stdout as NodeJS.ReadableStream, ShellPacket.stdout)
    relay(child.stderr as NodeJS.ReadableStream, ShellPacket.stderr)

    // Client → stdin.
    void (async () => {
      if (v2) {
        for (;;) {
          const packet = await readPacket(reader)
          if (!packet) break
          if (packet.id === ShellPacket.stdin) child.stdin?.write(packet.data)
          else if (packet.id === ShellPacket.closeStdin) child.stdin?.end()
        }
      } else {
        for (;;) {
          const data = await reader.readSome()
          if (!data) break
          child.stdin?.write(data)
        }
        child.stdin?.end()
      }
    })()

    socket.on('close', () => this.kill())
    // A client that went away while the shell was being set up (its close came before the listener): adbd ends the
    // shell with its transport all the same, so nothing of it may run on.
    if (socket.destroyed) this.kill()
    child.on('error', (error) => {
      this.send(ShellPacket.stderr, Buffer.from(`${DEVICE_SH}: ${error.message}\n`))
      this.finish(127)
    })
    child.on('close', (code, signal) => {
      const tail = this.stderrTail
      this.stderrTail = ''
      if (tail) this.send(ShellPacket.stderr, Buffer.from(tail))
      this.finish(code ?? 128 + signalNumber(signal))
    })
  }

  private finish(code: number): void {
    if (this.exited) return
    this.exited = true
    const socket = this.options.socket
    if (!socket.destroyed) {
      if (this.kind === 'shell,v2') socket.write(encodePacket(ShellPacket.exit, Buffer.from([code & 0xff])))
      socket.end()
    }
    this.resolveDone()
  }

  /** dash says `/system/bin/sh: 1: x: not found`; Android's sh has no line number. Whole lines only. */
  private rewriteStderr(chunk: Buffer): Buffer {
    const text = this.stderrTail + chunk.toString('latin1')
    const cut = text.lastIndexOf('\n') + 1
    this.stderrTail = text.slice(cut)
    const lines = text.slice(0, cut).replace(/^(?:\/system)?\/bin\/sh: \d+: /gm, `${DEVICE_SH}: `)
    return Buffer.from(lines, 'latin1')
  }

  /** Kills the shell and every program it started (its process group). */
  kill(): void {
    const pid = this.child?.pid
    if (this.exited || pid === undefined) return
    try {
      process.kill(-pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}

/**
 * The shell's own error lines in a merged stream, as Android's sh words them (no line number). The shell writes
 * each such line at once, so it arrives whole; any other bytes (a PNG, a dump) pass through untouched.
 */
function rewriteShellErrors(chunk: Buffer): Buffer {
  if (!chunk.includes('bin/sh: ')) return chunk
  return Buffer.from(chunk.toString('latin1').replace(/^(?:\/system)?\/bin\/sh: \d+: /gm, `${DEVICE_SH}: `), 'latin1')
}

/** A terminal's ONLCR output processing: every LF written goes out as CR LF (a CR already before it stays). */
function onlcr(data: Buffer): Buffer {
  let count = 0
  for (const byte of data) if (byte === 0x0a) count++
  if (count === 0) return data
  const out = Buffer.allocUnsafe(data.length + count)
  let j = 0
  for (const byte of data) {
    if (byte === 0x0a) out[j++] = 0x0d
    out[j++] = byte
  }
  return out
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Record<string, number> = {SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGPIPE: 13, SIGTERM: 15}
  return signal ? (numbers[signal] ?? 1) : 0
}
