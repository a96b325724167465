/**
 * Opens the ADB driver: finds the adb server (server-address.ts), asks it for its devices and picks one:
 * the serial given (--device, ANDROID_SERIAL or the config), else the only device ready for use. Never starts an
 * adb server: when none answers, the error says how to start one or point arc at one.
 */
import {DeviceAmbiguousError, DeviceCommandError, DeviceNotFoundError} from '../../errors/arc-error.js'
import type {DeviceSummary} from '../device-driver.js'
import type {HelperMode} from '../device-helper.js'
import {AdbDriver} from './adb-driver.js'
import {AdbServer, type AttachedDevice} from './adb-client.js'
import {parseDevicesLong} from './device-list.js'
import {NO_DEVICE_HINT, shownSerial, unavailableState} from './map-adb-error.js'
import {resolveServerAddress, type ServerAddressInput} from './server-address.js'

export interface AdbConnectOptions extends ServerAddressInput {
  serial?: string
  /** Whether the on-device helper serves what it can (helper-backend.ts); default `off` here, `auto` from the CLI and MCP. */
  helper?: HelperMode
  /** How long the helper keeps UiAutomation after a read (device-helper.ts helperHoldMs); default 0. */
  helperHoldMs?: number
  /** The caller is a resident host (batch, test, mcp serve): touches go through the helper (AdbDriverOptions). */
  resident?: boolean
  /** Time limit for one device command (default 20000 ms). */
  timeoutMs?: number
}

export function openAdbServer(options: Omit<AdbConnectOptions, 'serial'>): AdbServer {
  return new AdbServer(resolveServerAddress(options), options.timeoutMs)
}

/** Picks the device to drive from the server's list; throws the error model's device errors. */
export function selectDevice(devices: AttachedDevice[], serial: string | undefined, where: string): string {
  const listed = devices.map((d) => `${d.serial} (${d.state})`).join(', ')
  if (serial !== undefined) {
    const device = listedDevice(devices, serial)
    if (!device) throw notAttached(serial, devices, where)
    if (device.state !== 'device') throw unavailableState(serial, device.state)
    return serial
  }
  if (devices.length === 0) {
    throw new DeviceNotFoundError(`no devices attached to the adb server at ${where}`, {
      actions: [
        'Connect a device with USB debugging on, or start an emulator; check with `adb devices`.',
        NO_DEVICE_HINT,
      ],
    })
  }
  const ready = devices.filter((d) => d.state === 'device')
  if (ready.length === 1) return (ready[0] as AttachedDevice).serial
  if (ready.length === 0) {
    const only = devices[0] as AttachedDevice
    if (devices.length === 1) throw unavailableState(only.serial, only.state)
    throw new DeviceNotFoundError(`no device is ready at ${where}: ${listed}`, {
      actions: ['Accept the USB debugging prompt or reconnect the devices; check with `adb devices`.'],
    })
  }
  const serials = ready.map((d) => d.serial)
  if (new Set(serials).size === 1) throw sharedSerial(serials[0] as string, serials.length)
  throw new DeviceAmbiguousError(`${ready.length} devices are attached and none was chosen: ${serials.join(', ')}`, {
    details: {serials},
    actions: [
      `Choose one: --device ${serials[0]} on the command line, the \`device\` argument of an MCP tool call, or ANDROID_SERIAL.`,
    ],
  })
}

/** The one listed device whose serial is exactly `serial`; DeviceAmbiguousError when several share it. */
function listedDevice(devices: AttachedDevice[], serial: string): AttachedDevice | undefined {
  const twins = devices.filter((d) => d.serial === serial)
  if (twins.length > 1) throw sharedSerial(serial, twins.length)
  return twins[0]
}

function notAttached(serial: string, devices: AttachedDevice[], where: string): DeviceNotFoundError {
  const listed = devices.map((d) => `${d.serial} (${d.state})`).join(', ')
  return new DeviceNotFoundError(`device ${shownSerial(serial)} is not attached to the adb server at ${where}`, {
    details: {serial, attached: devices.map((d) => d.serial)},
    actions: [
      devices.length > 0 ? `Attached: ${listed}.` : 'No device is attached at all.',
      'Run `arc devices` to list them.',
    ],
  })
}

/**
 * The state of the device NAME picks, as `adb -s NAME` picks it: the device `devices` lists under that exact
 * serial (no request: the list is at hand), else the one the server matches to NAME (`host-serial:NAME:get-state`:
 * a network device's host without the port, `tcp:HOST:PORT`, the devpath `usb:1-4`, `model:M`…), every later
 * request then naming it the same way. Undefined when nothing matches (nothing is asked when nothing is
 * attached); DeviceAmbiguousError when several devices share the serial or match the name. The one resolution of
 * a name, for --device (ANDROID_SERIAL, the config) and `arc devices --wait --serial` alike.
 */
export async function namedDeviceState(
  server: AdbServer,
  devices: AttachedDevice[],
  name: string
): Promise<string | undefined> {
  const listed = listedDevice(devices, name)
  if (listed) return listed.state
  // `host-serial::get-state` is no request adb parses.
  if (name === '' || devices.length === 0) return undefined
  return server.targetState(name).catch((error: unknown) => {
    if (error instanceof DeviceNotFoundError) return undefined
    // The server cuts `host-serial:NAME:get-state` at NAME's first colon it cannot place (`foo:bar` is not a
    // serial form it knows) and then finds no service: NAME names no device.
    if (error instanceof DeviceCommandError && /unknown host service/i.test(error.message)) return undefined
    throw error
  })
}

/**
 * Several devices with one serial (cheap boards ship `0123456789ABCDEF`): the server refuses that serial as
 * ambiguous, as `adb -s` does, but takes each device's USB path.
 */
function sharedSerial(serial: string, count: number): DeviceAmbiguousError {
  return new DeviceAmbiguousError(`${count} devices share the serial ${serial}, so it names none of them`, {
    details: {serial, count},
    actions: [
      'Pick one by its USB path as `adb devices -l` shows it: --device usb:1-4 (as with `adb -s`), or unplug the others.',
    ],
  })
}

export async function connectAdbDriver(options: AdbConnectOptions): Promise<AdbDriver> {
  const server = openAdbServer(options)
  const devices = await server.listDevices()
  const target = options.serial
  const helper = {helper: options.helper, helperHoldMs: options.helperHoldMs, resident: options.resident}
  if (target === undefined) return new AdbDriver(server, selectDevice(devices, undefined, server.address), helper)
  const state = await namedDeviceState(server, devices, target)
  if (state === undefined) throw notAttached(target, devices, server.address)
  if (state !== 'device') throw unavailableState(target, state)
  return new AdbDriver(server, await listedSerial(server, devices, target), helper)
}

/**
 * The serial `devices` lists for the device `name` picks, where the server matched another form of it (a network
 * device's host without its port, `tcp:HOST:PORT`, `usb:1-4`): one device named two ways is one device to the device
 * lock and the cache of its ids (lockKey, FileDeviceState), as it is to adb. The name stays where it is the listed
 * serial already, or where several devices share the serial it names (their USB paths alone tell them apart).
 */
async function listedSerial(server: AdbServer, devices: AttachedDevice[], name: string): Promise<string> {
  if (devices.some((d) => d.serial === name)) return name
  const serial = await server.targetSerial(name).catch(() => undefined)
  return serial !== undefined && devices.filter((d) => d.serial === serial).length === 1 ? serial : name
}

/**
 * Every device the adb server knows, with model and product where the server reports them (`host:devices-l`;
 * servers that do not answer it get `host:devices`).
 */
export async function listAdbDevices(options: Omit<AdbConnectOptions, 'serial'>): Promise<DeviceSummary[]> {
  const server = openAdbServer(options)
  try {
    return await listOn(server)
  } finally {
    server.close()
  }
}

/**
 * One look for `arc devices --wait --serial NAME`: every device (as listAdbDevices lists them) and the state of the
 * device `--device NAME` would pick (namedDeviceState), undefined while nothing matches NAME.
 */
export async function findAdbDevice(
  options: Omit<AdbConnectOptions, 'serial'>,
  name: string
): Promise<{devices: DeviceSummary[]; state?: string}> {
  const server = openAdbServer(options)
  try {
    const devices = await listOn(server)
    return {devices, state: await namedDeviceState(server, devices, name)}
  } finally {
    server.close()
  }
}

async function listOn(server: AdbServer): Promise<DeviceSummary[]> {
  const detailed = await server
    .call('list devices', undefined, (client) => client.listDevicesLong())
    // Only a server that answered but not `devices -l` gets the plain listing; a timeout or a server that is
    // gone would fail the same way again, after as long a wait.
    .catch((error: unknown) => {
      if (error instanceof DeviceCommandError) return undefined
      throw error
    })
  if (detailed !== undefined) return parseDevicesLong(detailed)
  return (await server.listDevices()).map((d) => ({serial: d.serial, state: d.state}))
}
