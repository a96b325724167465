import type {SocketReader} from './framing.js'

/** Shell protocol v2 packet ids (adb `shell_protocol.h`): `[id:u8][len:u32 LE][data]` in both directions. */
export const ShellPacket = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  exit: 3,
  closeStdin: 4,
  windowSize: 5,
} as const

export function encodePacket(id: number, data: Buffer | string = Buffer.alloc(0)): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  const head = Buffer.alloc(5)
  head[0] = id
  head.writeUInt32LE(body.length, 1)
  return Buffer.concat([head, body])
}

/** Reads one packet from the client; undefined at end of stream. */
export async function readPacket(reader: SocketReader): Promise<{id: number; data: Buffer} | undefined> {
  try {
    const head = await reader.read(5)
    const data = await reader.read(head.readUInt32LE(1))
    return {id: head[0] as number, data}
  } catch {
    return undefined
  }
}

/**
 * What a `shell…:` service string asks for: `shell[,arg…]:command`, args `v2`, `raw`, `pty`, `TERM=…`
 * (adb `ShellServiceString`). The emulator never allocates a PTY, so `raw` and `pty` are accepted and ignored.
 */
export interface ShellServiceRequest {
  protocol: 'v1' | 'v2'
  command: string
  term?: string
}

export function parseShellService(service: string): ShellServiceRequest | undefined {
  const colon = service.indexOf(':')
  if (colon < 0) return undefined
  const head = service.slice(0, colon)
  const command = service.slice(colon + 1)
  const [name, ...args] = head.split(',')
  if (name !== 'shell') return undefined
  const term = args.find((a) => a.startsWith('TERM='))?.slice(5)
  return {protocol: args.includes('v2') ? 'v2' : 'v1', command, term}
}
