/**
 * The one place that knows adbkit's error names and the adb server's failure strings. Everything a device call
 * throws passes through `mapAdbError`, so tools only ever see arc's error model.
 */
import {
  ArcError,
  DeviceAmbiguousError,
  DeviceCommandError,
  DeviceNotFoundError,
  DeviceUnavailableError,
  TimeoutError,
} from '../../errors/arc-error.js'

export interface AdbErrorContext {
  /** What arc was doing: `list devices`, `shell: wm size`… */
  what: string
  host: string
  port: number
  serial?: string
}

const START_SERVER_ACTIONS = (host: string, port: number): string[] => [
  port === 5037 && isLocal(host)
    ? 'Start it with `adb start-server` (arc never starts one itself).'
    : `Start it with \`adb -P ${port} start-server\` on ${host} (arc never starts one itself).`,
  'Or point arc at a running server: ADB_SERVER_SOCKET=tcp:HOST:PORT, or --adb-host/--adb-port.',
  NO_DEVICE_HINT,
]

/** What can stand in for a live device: said wherever arc finds none. */
export const NO_DEVICE_HINT =
  'Without a device: --device demo, --device PATH (a snapshot folder or .xml dump), or `arc emulate`.'

const isLocal = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '::1'

const UNAUTHORIZED_ACTIONS = [
  'Unlock the device and accept the "Allow USB debugging?" prompt, then run the command again.',
  'If no prompt appears, revoke USB debugging authorizations on the device and reconnect the cable.',
]

const OFFLINE_ACTIONS = [
  'Reconnect the device (or restart the emulator); `adb reconnect offline` often helps.',
  'Check the device with `adb devices`.',
]

/** A Linux host that may not open the USB device: adb's state `no permissions (…); see [URL]`. */
const NO_PERMISSIONS_ACTIONS = [
  'Give your user access to the USB device: install a udev rule for it (e.g. the android-udev-rules package) and join the plugdev group, then replug the cable.',
  'Then check with `adb devices`; see https://developer.android.com/studio/run/device.',
]

/** A device state other than `device`, as a DeviceUnavailableError with the right "Try:" lines. */
export function unavailableState(serial: string, state: string, cause?: unknown): DeviceUnavailableError {
  const actions =
    state === 'unauthorized' || state === 'authorizing'
      ? UNAUTHORIZED_ACTIONS
      : state === 'offline' || state === 'connecting'
        ? OFFLINE_ACTIONS
        : state.startsWith('no permissions')
          ? NO_PERMISSIONS_ACTIONS
          : [`The device is in \`${state}\` mode; boot it into Android and enable USB debugging.`]
  const message = state.startsWith('no permissions')
    ? `device ${serial} cannot be opened: this user has no permission for the USB device (adb: "${state}")`
    : `device ${serial} is ${state}`
  return new DeviceUnavailableError(message, {cause, actions, details: {serial, state}})
}

/**
 * A serial as a message shows it: as it is where it is a plain word, else quoted (an empty `--device ""`, spaces, a
 * tab), as adb itself says `device '' not found`.
 */
export function shownSerial(serial: string): string {
  return /^[\x21-\x7e]+$/.test(serial) ? serial : JSON.stringify(serial)
}

/** adb server FAIL strings (transport.cpp acquire_one_transport), as adbkit wraps them: `Failure: '<msg>'`. */
function mapFailure(reason: string, ctx: AdbErrorContext, cause: unknown): ArcError {
  const serial = ctx.serial ?? '(any)'
  if (/^device '.*' not found/.test(reason) || /^device not found/.test(reason)) {
    return new DeviceNotFoundError(
      `device ${shownSerial(serial)} is not attached to the adb server at ${ctx.host}:${ctx.port}`,
      {
        cause,
        details: {serial},
        actions: ['Run `arc devices` to see the attached devices.'],
      }
    )
  }
  if (/^no (devices|emulators)/.test(reason)) {
    return new DeviceNotFoundError(`no devices attached to the adb server at ${ctx.host}:${ctx.port}`, {cause})
  }
  if (/^more than one/.test(reason) && ctx.serial !== undefined) {
    return new DeviceAmbiguousError(`several devices match ${ctx.serial} (${reason})`, {
      cause,
      details: {serial: ctx.serial},
      actions: [
        "Run `adb devices -l` and pass one device's own serial, or its USB path (--device usb:1-4) when serials repeat.",
      ],
    })
  }
  if (/^more than one/.test(reason)) {
    return new DeviceAmbiguousError(`several devices are attached and none was chosen (${reason})`, {
      cause,
      actions: [
        'Choose one: --device SERIAL on the command line, the `device` argument of an MCP tool call, or ANDROID_SERIAL.',
      ],
    })
  }
  const state = /device (offline|unauthorized|still authorizing|still connecting)/.exec(reason)?.[1]
  if (state) return unavailableState(serial, state.replace('still ', ''), cause)
  if (/^insufficient permissions for device/.test(reason)) return unavailableState(serial, 'no permissions', cause)
  return new DeviceCommandError(`${ctx.what} on ${serial} failed: the adb server said "${reason.trim()}"`, {cause})
}

const NETWORK_DOWN = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EADDRNOTAVAIL'])
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED'])

export function mapAdbError(error: unknown, ctx: AdbErrorContext): ArcError {
  if (error instanceof ArcError) return error
  const err = error as {name?: string; code?: string; message?: string}
  const message = err?.message ?? String(error)
  const where = `${ctx.host}:${ctx.port}`
  if (err?.code === 'ECONNREFUSED') {
    return new DeviceUnavailableError(`no adb server at ${where}`, {
      cause: error,
      actions: START_SERVER_ACTIONS(ctx.host, ctx.port),
    })
  }
  if (err?.code && NETWORK_DOWN.has(err.code)) {
    return new DeviceUnavailableError(`cannot reach the adb server at ${where} (${err.code})`, {
      cause: error,
      actions: ['Check the host name and port, and that the network path to the server is open.'],
    })
  }
  const lost = `the connection to the adb server at ${where} closed during ${ctx.what}`
  const lostActions = ['Check that the device is still attached (`arc devices`), then run the command again.']
  if (err?.code && CONNECTION_LOST.has(err.code)) {
    return new DeviceUnavailableError(`${lost}: the device disconnected or the server went away`, {
      cause: error,
      actions: lostActions,
    })
  }
  switch (err?.name) {
    case 'FailError':
      return mapFailure(/^Failure: '([\s\S]*)'$/.exec(message)?.[1] ?? message, ctx, error)
    case 'PrematureEOFError':
      return new DeviceUnavailableError(`${lost}: the device disconnected`, {cause: error, actions: lostActions})
    case 'UnexpectedDataError':
      return new DeviceCommandError(`${ctx.what}: the adb server answered with unexpected data (${message})`, {
        cause: error,
        actions: ['Check that ADB_SERVER_SOCKET / --adb-port point at an adb server, not another service.'],
      })
    case 'TimeoutError':
      return new TimeoutError(`${ctx.what} timed out: the adb server at ${where} stopped answering`, {cause: error})
    default:
      return new DeviceCommandError(`${ctx.what} failed: ${message}`, {cause: error})
  }
}
