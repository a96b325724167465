/**
 * Where the adb server is, field by field: --adb-host/--adb-port, else the environment as the adb CLI reads it
 * (ADB_SERVER_SOCKET as `tcp:HOST:PORT` or `tcp:PORT`; without it ANDROID_ADB_SERVER_ADDRESS for the host, as
 * WSL2 and Docker setups use to reach the host's server, and ANDROID_ADB_SERVER_PORT for the port), else the
 * config's `adb.host`/`adb.port`, else 127.0.0.1:5037. A DeviceFarmer STF farm's adb server is reached the same
 * way (`ADB_SERVER_SOCKET=tcp:stf.example.com:7401`). `arc config` shows the same answer with its sources.
 */
import {InvalidInputError} from '../../errors/arc-error.js'

export const DEFAULT_ADB_HOST = '127.0.0.1'
export const DEFAULT_ADB_PORT = 5037
/** Time limit for one device command when the config's `adb.timeoutMs` does not set one. */
export const DEFAULT_ADB_TIMEOUT_MS = 20_000

export interface ServerAddress {
  host: string
  port: number
  /** Where each part came from: `--adb-host`, `env ADB_SERVER_SOCKET`, `config`, `default`… */
  hostSource: string
  portSource: string
}

export interface ServerAddressInput {
  /** --adb-host / --adb-port. */
  host?: string
  port?: number
  /** The config's `adb` section, used where neither a flag nor the environment says. */
  configured?: {host?: string; port?: number}
  env: NodeJS.ProcessEnv
}

function parsePort(text: string, source: string): number {
  const port = Number(text)
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new InvalidInputError(
      `${source}: the port must be a whole number from 1 to 65535, got ${JSON.stringify(text)}`
    )
  }
  return port
}

/** Parses an ADB_SERVER_SOCKET value: `tcp:HOST:PORT`, `tcp:PORT`, `tcp:[::1]:PORT`. */
export function parseServerSocket(value: string): {host?: string; port: number} {
  const source = `ADB_SERVER_SOCKET=${value}`
  const m = /^tcp:(?:(\[[^\]]+\]|[^:]*):)?([^:]+)$/.exec(value.trim())
  if (!m && /^tcp:/.test(value.trim())) {
    throw new InvalidInputError(`${source} is not tcp:HOST:PORT or tcp:PORT`, {
      actions: ['Write e.g. ADB_SERVER_SOCKET=tcp:127.0.0.1:5037; an IPv6 host goes in brackets: tcp:[::1]:5037.'],
    })
  }
  if (!m) {
    throw new InvalidInputError(`${source} is not supported: arc reaches adb servers over TCP only`, {
      actions: ['Use the form tcp:HOST:PORT, e.g. ADB_SERVER_SOCKET=tcp:127.0.0.1:5037.'],
    })
  }
  const host = m[1] ? m[1].replace(/^\[(.*)\]$/, '$1') : undefined
  return {host: host || undefined, port: parsePort(m[2] as string, source)}
}

export function resolveServerAddress(options: ServerAddressInput): ServerAddress {
  const socket = options.env.ADB_SERVER_SOCKET?.trim()
  const fromSocket = socket ? parseServerSocket(socket) : undefined
  const envPort = options.env.ANDROID_ADB_SERVER_PORT?.trim()
  // adb reads ANDROID_ADB_SERVER_ADDRESS only when ADB_SERVER_SOCKET is unset (client/commandline.cpp).
  const envAddress = socket
    ? undefined
    : options.env.ANDROID_ADB_SERVER_ADDRESS?.trim().replace(/^\[(.*)\]$/, '$1') || undefined
  const pick = <T>(choices: Array<[T | undefined, string]>, fallback: T): [T, string] =>
    (choices.find(([value]) => value !== undefined) as [T, string] | undefined) ?? [fallback, 'default']
  const [host, hostSource] = pick<string>(
    [
      [options.host, '--adb-host'],
      [fromSocket?.host, 'env ADB_SERVER_SOCKET'],
      [envAddress, 'env ANDROID_ADB_SERVER_ADDRESS'],
      [options.configured?.host, 'config'],
    ],
    DEFAULT_ADB_HOST
  )
  const [port, portSource] = pick<number>(
    [
      [options.port, '--adb-port'],
      [fromSocket?.port, 'env ADB_SERVER_SOCKET'],
      [envPort ? parsePort(envPort, `ANDROID_ADB_SERVER_PORT=${envPort}`) : undefined, 'env ANDROID_ADB_SERVER_PORT'],
      [options.configured?.port, 'config'],
    ],
    DEFAULT_ADB_PORT
  )
  return {host, port, hostSource, portSource}
}
