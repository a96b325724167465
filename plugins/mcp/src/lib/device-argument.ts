/**
 * One tool set for any number of devices: each device tool is listed once, and its `device` argument names the
 * device a call runs on (an enum of the served devices' names, required when several are served). With one device
 * the argument is not listed (there is nothing to choose) but is still accepted when it names that device.
 */
import {DeviceAmbiguousError, InvalidInputError, isArcError} from '@arc-cli/core'
import type {Tool} from '@modelcontextprotocol/sdk/types.js'

import {deviceName, type DeviceTarget} from './tool-set.js'

export const DEVICE_ARGUMENT = 'device'

/** The listed input schema of a device tool: with `device` (an enum, required) when more than one device is served. */
export function withDeviceArgument(schema: Tool['inputSchema'], targets: DeviceTarget[]): Tool['inputSchema'] {
  if (targets.length < 2) return schema
  // No `type` and no description: an enum of strings says both, and every key repeats on every tool (the server's
  // instructions say what each device is).
  return {
    ...schema,
    properties: {...schema.properties, [DEVICE_ARGUMENT]: {enum: targets.map(deviceName)}},
    required: [...(schema.required ?? []), DEVICE_ARGUMENT],
  }
}

/** The device an agent named: by its listed name first, else by the device string it was served by. */
function named(targets: DeviceTarget[], given: string): DeviceTarget | undefined {
  return (
    targets.find((t) => given === deviceName(t)) ?? targets.find((t) => t.device !== undefined && given === t.device)
  )
}

/**
 * The device a call names and the call's arguments without `device` (the tool's own schema does not know it).
 * Refuses a missing device when several are served, and a name no served device has, listing the names.
 */
export function pickTarget(targets: DeviceTarget[], args: unknown): {target: DeviceTarget; args: unknown} {
  const names = targets.map(deviceName).filter(Boolean)
  const allowed = names.length > 0 ? `one of ${names.map((n) => JSON.stringify(n)).join(', ')}` : 'none'
  if (!args || typeof args !== 'object' || Array.isArray(args) || !(DEVICE_ARGUMENT in args)) {
    if (targets.length === 1) return {target: targets[0] as DeviceTarget, args}
    throw new InvalidInputError(`device is required: this server serves several devices; give ${allowed}`, {
      details: {input: DEVICE_ARGUMENT, allowed: names},
    })
  }
  const {[DEVICE_ARGUMENT]: given, ...rest} = args as Record<string, unknown>
  const target = typeof given === 'string' ? named(targets, given) : undefined
  if (!target && names.length === 0) {
    throw new InvalidInputError('device: this server serves one device, its default one; leave device out', {
      details: {input: DEVICE_ARGUMENT, allowed: names},
      actions: [SERVE_SEVERAL],
    })
  }
  if (!target) {
    const shown = typeof given === 'string' ? JSON.stringify(given.slice(0, 64)) : typeof given
    throw new InvalidInputError(`device must be ${allowed} (got ${shown})`, {
      details: {input: DEVICE_ARGUMENT, allowed: names},
    })
  }
  return {target, args: rest}
}

const SERVE_SEVERAL =
  'To choose between devices in calls, the server must be started with them: arc mcp serve --device SERIAL --device SERIAL (each call then names one in `device`).'

/**
 * DEVICE_AMBIGUOUS from a server started without --device (it serves its one default device, the single attached
 * one or $ANDROID_SERIAL's): a call cannot choose (`device` is refused there), only whoever starts the server can.
 * The CLI's advice (--device, or the `device` argument) is replaced by the server's command line for these devices.
 */
export function ambiguousDefaultDevice(error: unknown): unknown {
  // By its code: the driver that threw may come from another copy of core's classes (isArcError).
  if (!isArcError(error) || error.code !== 'DEVICE_AMBIGUOUS') return error
  const serials = Array.isArray(error.details.serials) ? (error.details.serials as string[]) : []
  const command =
    serials.length > 1
      ? `arc mcp serve ${serials.map((s) => `--device ${s}`).join(' ')}`
      : 'arc mcp serve --device SERIAL'
  return new DeviceAmbiguousError(
    `${error.message}; this server was started without --device, so it serves one default device and a call cannot pick one`,
    {
      details: error.details,
      actions: [
        `Start the server with the devices to serve: ${command} (each call then names one in \`device\`), or with one --device, or set ANDROID_SERIAL for it.`,
      ],
      cause: error,
    }
  )
}
