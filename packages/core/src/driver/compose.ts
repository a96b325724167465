/**
 * Putting a device together from capabilities, and handing a tool the part it declared.
 *
 * A backend serves some capabilities (a snapshot: screen and info; the ADB driver: all; an on-device helper: the
 * ones it does better, next to ADB for the rest). `composeDriver` makes a whole DeviceDriver of the parts, each
 * method of a missing capability refusing with the backend's own error. `toolDriver` is what runTool gives a
 * handler: the methods of the capabilities its tool declared, with the use declared (a tool declaring `read` that
 * calls an action is a bug in arc, INTERNAL, never a silent action).
 */
import {ArcError, InternalError} from '../errors/arc-error.js'
import {
  CAPABILITY_METHODS,
  CAPABILITY_NAMES,
  type CapabilityName,
  type CapabilityUse,
  type DeviceCapabilities,
  type DeviceDriver,
  type DeviceNeeds,
} from './device-driver.js'

/** The error a backend gives for a capability it does not serve, as the call would use it. */
export type Refusal = (capability: CapabilityName, use: CapabilityUse) => ArcError

/** What a backend serves, known before it is opened, and how it refuses the rest. */
export interface Backend {
  serial: string
  /** The capabilities served, each with the most it allows (`act` includes `read`). */
  serves: DeviceNeeds
  refuse: Refusal
}

/** The first need a backend cannot meet, as its error; undefined when it meets them all. */
export function refusalFor(backend: Backend, needs: DeviceNeeds): ArcError | undefined {
  for (const capability of CAPABILITY_NAMES) {
    const use = needs[capability]
    if (use === undefined) continue
    const served = backend.serves[capability]
    if (served === 'act' || served === use) continue
    return backend.refuse(capability, use)
  }
  return undefined
}

type Method = (...args: never[]) => Promise<unknown>

function methodsOf(capability: CapabilityName): Array<[string, CapabilityUse]> {
  return Object.entries(CAPABILITY_METHODS[capability])
}

/** A whole DeviceDriver of the capabilities given; every method of another refuses with `refuse`. */
export function composeDriver(
  serial: string,
  parts: Partial<DeviceCapabilities>,
  close: () => Promise<void>,
  refuse: Refusal,
  /** The device's critical section (DeviceDriver.exclusive): the backend that reads and acts holds it. */
  exclusive: <T>(work: () => Promise<T>) => Promise<T> = (work) => work()
): DeviceDriver {
  const driver: Record<string, unknown> = {serial, close, exclusive}
  for (const capability of CAPABILITY_NAMES) {
    const part = parts[capability] as unknown as Record<string, Method> | undefined
    for (const [method, use] of methodsOf(capability)) {
      // methodsOf lists the methods of this capability's interface, which `part` implements: each is there.
      driver[method] = part ? part[method]!.bind(part) : async () => Promise.reject(refuse(capability, use))
    }
  }
  return driver as unknown as DeviceDriver
}

/**
 * The driver a handler gets: the methods of the capabilities `needs` names, an action only where it says `act`.
 * Anything else fails INTERNAL naming the tool and the capability to declare.
 */
export function toolDriver(driver: DeviceDriver, needs: DeviceNeeds, tool: string): DeviceDriver {
  const whole = driver as unknown as Record<string, Method>
  // Holding the device is no capability: any tool may run its reads and actions as the device's only user.
  const view: Record<string, unknown> = {serial: driver.serial, exclusive: driver.exclusive.bind(driver)}
  for (const capability of CAPABILITY_NAMES) {
    const declared = needs[capability]
    for (const [method, use] of methodsOf(capability)) {
      view[method] =
        declared === 'act' || declared === use
          ? // A whole DeviceDriver has every method of every capability.
            whole[method]!.bind(driver)
          : async () =>
              Promise.reject(
                new InternalError(
                  `tool ${tool} called ${method} without declaring it: needs.${capability} must be '${use}'`,
                  {
                    actions: ['This is a bug in arc: the tool must declare every capability it uses in its `needs`.'],
                  }
                )
              )
    }
  }
  view.close = async () =>
    Promise.reject(
      new InternalError(`tool ${tool} closed its device: runTool closes it`, {actions: ['This is a bug in arc.']})
    )
  return view as unknown as DeviceDriver
}
