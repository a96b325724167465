/**
 * Where the adb server is: --adb-host/--adb-port (or the config's `adb.host`/`adb.port`), else ADB_SERVER_SOCKET
 * (`tcp:HOST:PORT`, `tcp:PORT`, as the adb CLI reads it), else ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037.
 * A DeviceFarmer STF farm's adb server is reached the same way (`ADB_SERVER_SOCKET=tcp:stf.example.com:7401`).
 */
import {InvalidInputError} from '../../errors/arc-error.js'

export const DEFAULT_ADB_HOST = '127.0.0.1'
export const DEFAULT_ADB_PORT = 5037

export interface ServerAddress {
  host: string
  port: number
  /** Where the address came from, for error messages. */
  source: string
}

function parsePort(text: string, source: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new InvalidInputError(`${source}: the port must be a whole number from 1 to 65535, got ${JSON.stringify(text)}`)
  }
  return port
}

/** Parses an ADB_SERVER_SOCKET value: `tcp:HOST:PORT`, `tcp:PORT`, `tcp:[::1]:PORT`. */
export function parseServerSocket(value: string): {host?: string; port: number} {
  const source = `ADB_SERVER_SOCKET=${value}`
  const m = /^tcp:(?:(\[[^\]]+\]|[^:]*):)?([^:]+)$/.exec(value.trim())
  if (!m) {
    throw new InvalidInputError(`${source} is not supported: arc reaches adb servers over TCP only`, {
      actions: ['Use the form tcp:HOST:PORT, e.g. ADB_SERVER_SOCKET=tcp:127.0.0.1:5037.'],
    })
  }
  const host = m[1] ? m[1].replace(/^\[(.*)\]$/, '$1') : undefined
  return {host: host || undefined, port: parsePort(m[2] as string, source)}
}

export function resolveServerAddress(options: {host?: string; port?: number; env: NodeJS.ProcessEnv}): ServerAddress {
  const socket = options.env.ADB_SERVER_SOCKET?.trim()
  const fromSocket = socket ? parseServerSocket(socket) : undefined
  const envPort = options.env.ANDROID_ADB_SERVER_PORT?.trim()
  const host = options.host ?? fromSocket?.host ?? DEFAULT_ADB_HOST
  let port = options.port
  let source = options.host !== undefined || options.port !== undefined ? '--adb-host/--adb-port' : 'default'
  if (port === undefined && fromSocket) {
    port = fromSocket.port
    source = 'ADB_SERVER_SOCKET'
  }
  if (port === undefined && envPort) {
    port = parsePort(envPort, `ANDROID_ADB_SERVER_PORT=${envPort}`)
    source = 'ANDROID_ADB_SERVER_PORT'
  }
  return {host, port: port ?? DEFAULT_ADB_PORT, source}
}
