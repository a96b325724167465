import type {Socket} from 'node:net'

import {
  OKAY,
  ProtocolError,
  SocketReader,
  encodeValue,
  failReply,
  okayValue,
  readRequest,
  writeAsync,
} from './framing.js'
import type {VirtualDevice} from './virtual-device.js'

/** adb's ADB_SERVER_VERSION; the CLI kills a server that answers anything else. */
export const ADB_SERVER_VERSION = 41

/**
 * The device's adb features. Only what arc emulate implements: `shell_v2` (v2 shell with exit codes) and
 * `fixed_push_mkdir` (SEND creates folders). Not `stat_v2`/`ls_v2`/`sendrecv_v2`/`cmd`/`abb_exec`, so clients
 * stay on STAT/LIST/SEND/RECV and the non-streamed install.
 */
export const DEVICE_FEATURES = ['shell_v2', 'fixed_push_mkdir']
const HOST_FEATURES = ['shell_v2', 'fixed_push_mkdir', 'push_sync', 'track_app']

const UNAUTHORIZED =
  "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device."

/**
 * How a Linux adb server names a USB device it may not open, in `host:devices` and `get-state` (diagnose_usb's
 * short help text), and what it answers a service asked of it (the long one).
 */
export const NO_PERMISSIONS_STATE =
  'no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]'
const NO_PERMISSIONS =
  'insufficient permissions for device: missing udev rules? user is in the plugdev group\nSee [http://developer.android.com/tools/device.html] for more information'

/** The state as the server prints it. */
const stateName = (device: VirtualDevice): string =>
  device.state === 'no permissions' ? NO_PERMISSIONS_STATE : device.state

/** What the host-protocol handler needs from the emulator. */
export interface HostContext {
  /** Devices currently attached (disconnected ones are absent). */
  devices(): VirtualDevice[]
  /** Calls back whenever a device appears, disappears or changes state; returns the unsubscribe. */
  onDevicesChanged(listener: () => void): () => void
  noteRequest(raw: string, serial?: string): void
  /** Runs a local (device) service on the socket once a transport is selected. */
  openService(device: VirtualDevice, service: string, reader: SocketReader, socket: Socket): Promise<void>
}

interface Target {
  serial?: string
  transportId?: number
}

/** Lines of `host:devices` / `host:devices-l`, as the real server formats them (transport.cpp). */
function deviceList(devices: VirtualDevice[], long: boolean): string {
  return devices
    .map((d) => {
      if (!long) return `${d.serial}\t${stateName(d)}\n`
      const model = (d.properties.get('ro.product.model') ?? 'unknown').replace(/\s+/g, '_')
      const product = d.properties.get('ro.product.name') ?? 'unknown'
      const device = d.properties.get('ro.product.device') ?? 'unknown'
      const details = d.state === 'device' ? ` product:${product} model:${model} device:${device}` : ''
      return `${d.serial.padEnd(22)} ${stateName(d)}${details} transport_id:${d.transportId}\n`
    })
    .join('')
}

/** `host:port` or `[v6]:port` (android::base::ParseNetAddress); a bare host takes `defaultPort`. */
function parseNetAddress(text: string, defaultPort?: number): {host: string; port?: number} | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d+))?$/.exec(text)
  if (!m) return undefined
  return {host: (m[1] ?? m[2]) as string, port: m[3] === undefined ? defaultPort : Number(m[3])}
}

/**
 * What `-s TARGET` (`host:transport:TARGET`, `host-serial:TARGET:…`) matches, as atransport::MatchesTarget does:
 * the serial; for a network device (`HOST:PORT` serial) the host with or without the port, `tcp:`/`udp:` prefixes
 * ignored; or `product:P`, `model:M` (spaces as `_`), `device:D`. (Emulated devices have no devpath.)
 */
function matchesTarget(device: VirtualDevice, target: string): boolean {
  if (target === device.serial) return true
  const own = parseNetAddress(device.serial)
  if (own?.port !== undefined) {
    const wanted = parseNetAddress(target.replace(/^(?:tcp|udp):/, ''), own.port)
    if (wanted && wanted.host === own.host && wanted.port === own.port) return true
  }
  if (device.state !== 'device') return false
  const model = (device.properties.get('ro.product.model') ?? '').replace(/[^A-Za-z0-9]/g, '_')
  return (
    target === `product:${device.properties.get('ro.product.name') ?? ''}` ||
    target === `model:${model}` ||
    target === `device:${device.properties.get('ro.product.device') ?? ''}`
  )
}

/** Picks the device a request is about, or the error message the real server would give. */
function acquire(ctx: HostContext, target: Target, requireOnline: boolean): VirtualDevice | string {
  const devices = ctx.devices()
  let device: VirtualDevice | undefined
  if (target.serial !== undefined) {
    const matches = devices.filter((d) => matchesTarget(d, target.serial as string))
    if (matches.length > 1) return 'more than one device'
    device = matches[0]
    if (!device) return `device '${target.serial}' not found`
  } else if (target.transportId !== undefined) {
    device = devices.find((d) => d.transportId === target.transportId)
    if (!device) return `no device with transport id '${target.transportId}'`
  } else {
    if (devices.length === 0) return 'no devices/emulators found'
    if (devices.length > 1) return 'more than one device/emulator'
    device = devices[0] as VirtualDevice
  }
  if (requireOnline && device.state === 'offline') return 'device offline'
  if (requireOnline && device.state === 'unauthorized') return UNAUTHORIZED
  if (requireOnline && device.state === 'no permissions') return NO_PERMISSIONS
  return device
}

/**
 * Where the serial of `host-serial:SERIAL:cmd` ends, as adb's skip_host_serial finds it (sockets.cpp): after the
 * next colon past a `usb:`/`product:`/`model:`/`device:` prefix; else, a `tcp:`/`udp:` prefix and a `[v6]`
 * address skipped, at the next colon, or past it when digits and another colon follow (a port). So `foo:bar` is
 * the serial `foo` and the command `bar:…`, whatever devices there are.
 */
function hostSerialEnd(rest: string): number {
  const prefixed = /^(usb|product|model|device):/.exec(rest)
  if (prefixed) return rest.indexOf(':', prefixed[0].length)
  let from = /^(tcp|udp):/.test(rest) ? 4 : 0
  if (rest[from] === '[') {
    const close = rest.indexOf(']', from)
    if (close === -1) return -1
    from = close + 1
  }
  const colon = rest.indexOf(':', from)
  if (colon === -1) return -1
  const port = /^\d+:/.exec(rest.slice(colon + 1))
  return port ? colon + port[0].length : colon
}

/** Splits `host-serial:S:cmd`, `host-transport-id:N:cmd`, `host-usb:cmd`, `host-local:cmd`, `host:cmd`. */
function splitHostRequest(request: string): {target: Target; command: string} | undefined {
  if (request.startsWith('host-serial:')) {
    const rest = request.slice('host-serial:'.length)
    const end = hostSerialEnd(rest)
    if (end <= 0) return undefined
    return {target: {serial: rest.slice(0, end)}, command: rest.slice(end + 1)}
  }
  const id = /^host-transport-id:(\d+):(.*)$/s.exec(request)
  if (id) return {target: {transportId: Number(id[1])}, command: id[2] as string}
  const plain = /^host(?:-usb|-local)?:(.*)$/s.exec(request)
  if (plain) return {target: {}, command: plain[1] as string}
  return undefined
}

/**
 * Serves one client connection of the ADB host ("smart socket") protocol: hex4-framed requests; one-shot
 * queries answered and closed; `host:transport*` (bare OKAY) and `host:tport:*` (OKAY + u64 LE transport
 * id) switch the connection to a device, after which the next request is a device service (shell, exec,
 * sync) — or another host request, as the CLI's `forward` does.
 */
export async function handleConnection(socket: Socket, ctx: HostContext): Promise<void> {
  socket.setNoDelay(true)
  socket.on('error', () => {})
  const reader = new SocketReader(socket)
  let selected: VirtualDevice | undefined
  const finish = async (reply: Buffer) => {
    await writeAsync(socket, reply)
    socket.end()
  }
  try {
    for (;;) {
      const request = await readRequest(reader)
      if (request === undefined) {
        socket.end()
        return
      }
      ctx.noteRequest(request, selected?.serial)
      if (!request.startsWith('host')) {
        if (!selected) {
          const device = acquire(ctx, {}, true)
          if (typeof device === 'string') return await finish(failReply(device))
          selected = device
          selected.attach(socket)
        }
        await ctx.openService(selected, request, reader, socket)
        return
      }
      const transport =
        /^host:(?:transport(?::(.+)|-id:(\d+)|-any|-usb|-local)|tport:(?:serial:(.+)|any|usb|local))$/s.exec(request)
      if (transport) {
        const target: Target = {
          serial: transport[1] ?? transport[3],
          transportId: transport[2] ? Number(transport[2]) : undefined,
        }
        const device = acquire(ctx, target, true)
        if (typeof device === 'string') return await finish(failReply(device))
        selected = device
        device.attach(socket)
        if (request.startsWith('host:tport:')) {
          const id = Buffer.alloc(8)
          id.writeBigUInt64LE(BigInt(device.transportId))
          await writeAsync(socket, Buffer.concat([OKAY, id]))
        } else await writeAsync(socket, OKAY)
        continue
      }
      const keepOpen = await hostService(request, ctx, socket, selected)
      if (!keepOpen) {
        socket.end()
        return
      }
    }
  } catch (error) {
    if (error instanceof ProtocolError) await finish(failReply(error.message))
    else socket.destroy()
  }
}

/** Answers one host service; true when the connection stays open for another request. */
async function hostService(
  request: string,
  ctx: HostContext,
  socket: Socket,
  selected?: VirtualDevice
): Promise<boolean> {
  const split = splitHostRequest(request)
  if (!split) {
    await writeAsync(socket, failReply('unknown host service'))
    return false
  }
  const {command} = split
  const target: Target =
    split.target.serial || split.target.transportId ? split.target : selected ? {serial: selected.serial} : {}
  const reply = (b: Buffer) => writeAsync(socket, b)
  switch (command) {
    case 'version':
      await reply(okayValue(ADB_SERVER_VERSION.toString(16).padStart(4, '0')))
      return false
    case 'kill':
      // The emulator keeps serving: a test's client must not be able to stop it.
      await reply(OKAY)
      return false
    case 'devices':
    case 'devices-l':
      await reply(okayValue(deviceList(ctx.devices(), command === 'devices-l')))
      return false
    case 'track-devices':
    case 'track-devices-l':
      await trackDevices(ctx, socket, command === 'track-devices-l')
      return false
    case 'host-features':
      await reply(okayValue(HOST_FEATURES.join(',')))
      return false
    case 'features': {
      const device = acquire(ctx, target, true)
      // adbd before Android 7 announces no features at all (VirtualDevice.preNougatAdbd).
      await reply(
        typeof device === 'string'
          ? failReply(device)
          : okayValue(device.preNougatAdbd ? '' : DEVICE_FEATURES.join(','))
      )
      return false
    }
    case 'get-state':
    case 'get-serialno':
    case 'get-devpath':
    case 'get-product': {
      const device = acquire(ctx, target, false)
      if (typeof device === 'string') await reply(failReply(device))
      else {
        const values: Record<string, string> = {
          'get-state': stateName(device),
          'get-serialno': device.serial,
          'get-devpath': 'unknown',
          'get-product': device.properties.get('ro.product.name') ?? 'unknown',
        }
        await reply(okayValue(values[command] as string))
      }
      return false
    }
    case 'list-forward':
      await reply(okayValue(''))
      return false
    case 'killforward-all':
      await reply(Buffer.concat([OKAY, OKAY]))
      return false
  }
  if (command.startsWith('forward:') || command.startsWith('killforward:')) {
    await reply(Buffer.concat([OKAY, failReply('port forwarding is not supported by arc emulate')]))
    return false
  }
  const wait = /^wait-for-(?:usb|local|any)-(device|recovery|rescue|sideload|bootloader|any|disconnect)$/.exec(command)
  if (wait) {
    await reply(OKAY)
    await waitFor(ctx, socket, target, wait[1] as string)
    return false
  }
  await reply(failReply('unknown host service'))
  return false
}

async function trackDevices(ctx: HostContext, socket: Socket, long: boolean): Promise<void> {
  let last: string | undefined
  const push = () => {
    const list = deviceList(ctx.devices(), long)
    if (list === last || socket.destroyed) return
    last = list
    socket.write(encodeValue(list))
  }
  await writeAsync(socket, OKAY)
  push()
  const unsubscribe = ctx.onDevicesChanged(push)
  await new Promise<void>((resolve) => socket.once('close', () => resolve()))
  unsubscribe()
}

async function waitFor(ctx: HostContext, socket: Socket, target: Target, state: string): Promise<void> {
  const satisfied = () => {
    const device = acquire(ctx, target, false)
    if (state === 'disconnect') return typeof device === 'string'
    return typeof device !== 'string' && (state === 'any' || device.state === state)
  }
  if (!satisfied()) {
    await new Promise<void>((resolve) => {
      const unsubscribe = ctx.onDevicesChanged(() => {
        if (!satisfied()) return
        unsubscribe()
        resolve()
      })
      socket.once('close', () => {
        unsubscribe()
        resolve()
      })
    })
  }
  await writeAsync(socket, OKAY)
}
