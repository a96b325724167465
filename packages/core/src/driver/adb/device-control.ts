/**
 * The device itself: facts (`getprop`, `wm`, `dumpsys battery`), rotation (`dumpsys window displays`, and
 * `settings … user_rotation` and `accelerometer_rotation`), screen power and the lock screen (`dumpsys power`, `dumpsys window policy`,
 * `input keyevent`, `wm dismiss-keyguard`), and the `arc shell` passthrough.
 */
import {setTimeout as sleep} from 'node:timers/promises'

import {DeviceCommandError, UnsupportedError} from '../../errors/arc-error.js'
import type {BatteryInfo, Degrees, DeviceInfo, PowerState, RotationState, ShellOutput} from '../device-driver.js'
import {isMissingCommand, type DeviceShell} from './device-shell.js'
import {parseWmDensity, parseWmSize} from './parse-wm.js'
import {displayRotation, foregroundApp} from './screen.js'
import {shellCommand} from './shell-quote.js'

/** `[ro.product.model]: [Pixel 7]` lines → a map. */
export function parseGetprop(output: string): Map<string, string> {
  const props = new Map<string, string>()
  for (const m of output.matchAll(/^\[([^\]]+)\]: \[([^\]\n]*)\]\s*$/gm)) props.set(m[1] as string, m[2] as string)
  return props
}

const BATTERY_STATUS: Record<string, string> = {
  '1': 'unknown',
  '2': 'charging',
  '3': 'discharging',
  '4': 'not charging',
  '5': 'full',
}

/** `dumpsys battery`: `level: 85`, `scale: 100`, `status: 2`, `AC powered: true`… */
export function parseBattery(output: string): BatteryInfo | undefined {
  const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+?)\\s*$`, 'mi').exec(output)?.[1]
  const level = field('level')
  if (level === undefined) return undefined
  const scale = Number(field('scale') ?? 100) || 100
  const plugged = ['AC', 'USB', 'Wireless', 'Dock']
    .filter((kind) => field(`${kind} powered`) === 'true')
    .map((k) => k.toLowerCase())
  return {
    level: Math.round((Number(level) / scale) * 100),
    status: BATTERY_STATUS[field('status') ?? ''] ?? 'unknown',
    plugged,
  }
}

export async function deviceInfo(dev: DeviceShell): Promise<DeviceInfo> {
  const [props, size, density, battery, foreground] = await Promise.all([
    dev.text(['getprop']),
    dev.text(['wm', 'size']),
    dev.text(['wm', 'density']),
    dev.text(['dumpsys', 'battery']),
    foregroundApp(dev),
  ])
  const p = parseGetprop(props)
  if (p.size === 0) throw dev.failed('getprop', props)
  const sdk = Number(p.get('ro.build.version.sdk'))
  let screen: DeviceInfo['screen']
  try {
    screen = {...parseWmSize(size), density: parseWmDensity(density)}
  } catch {
    screen = undefined
  }
  const info: DeviceInfo = {
    serial: dev.serial,
    model: p.get('ro.product.model'),
    manufacturer: p.get('ro.product.manufacturer'),
    brand: p.get('ro.product.brand'),
    android_version: p.get('ro.build.version.release'),
    sdk: Number.isInteger(sdk) && sdk > 0 ? sdk : undefined,
    abi: p.get('ro.product.cpu.abi'),
    screen,
    battery: parseBattery(battery),
    foreground: foreground.package === undefined ? undefined : foreground,
  }
  return Object.fromEntries(
    Object.entries(info).filter(([, v]) => v !== undefined && v !== '')
  ) as unknown as DeviceInfo
}

const toDegrees = (quarter: number): Degrees => ((((quarter % 4) + 4) % 4) * 90) as Degrees

export async function rotation(dev: DeviceShell): Promise<RotationState> {
  const [displays, accel, user] = await Promise.all([
    dev.text(['dumpsys', 'window', 'displays']),
    dev.text(['settings', 'get', 'system', 'accelerometer_rotation']),
    dev.text(['settings', 'get', 'system', 'user_rotation']),
  ])
  const userQuarter = /^\s*([0-3])\s*$/.exec(user)?.[1]
  return {
    rotation: toDegrees((await displayRotation(dev, displays)) ?? 0),
    auto_rotate: accel.trim() === '1',
    ...(userQuarter === undefined ? {} : {user_rotation: toDegrees(Number(userQuarter))}),
  }
}

/** Auto-rotate off, then `user_rotation` 0-3; or auto-rotate back on. */
export async function setRotation(dev: DeviceShell, target: Degrees | 'auto'): Promise<void> {
  if (target === 'auto') {
    await dev.action(
      ['settings', 'put', 'system', 'accelerometer_rotation', 1],
      'settings put system accelerometer_rotation 1'
    )
    return
  }
  await dev.action(
    ['settings', 'put', 'system', 'accelerometer_rotation', 0],
    'settings put system accelerometer_rotation 0'
  )
  await dev.action(
    ['settings', 'put', 'system', 'user_rotation', target / 90],
    `settings put system user_rotation ${target / 90}`
  )
}

/**
 * Screen power from `dumpsys power` (`mWakefulness=Awake`, older `Display Power: state=ON`), and the lock screen
 * from `dumpsys window policy`: `KeyguardServiceDelegate … showing=true … secure=true` (Android 9+),
 * `mShowingLockscreen=true` / `isStatusBarKeyguard=true` (older).
 */
export async function powerState(dev: DeviceShell): Promise<PowerState> {
  const [power, policy] = await Promise.all([dev.text(['dumpsys', 'power']), dev.text(['dumpsys', 'window', 'policy'])])
  const awake = awakeFromPower(power)
  const locked = /(?:^|\s)showing=true\b|mIsShowing=true|mShowingLockscreen=true|isStatusBarKeyguard=true/m.test(policy)
  const secure = /(?:^|\s)secure=(true|false)\b/m.exec(policy)?.[1]
  return {awake, locked, ...(secure === undefined ? {} : {secure: secure === 'true'})}
}

/** `dumpsys power`'s word on the display: `mWakefulness=Awake` (Android 7+), else `Display Power: state=ON`. */
function awakeFromPower(power: string): boolean {
  const wakefulness = /mWakefulness=(\w+)/.exec(power)?.[1]
  return wakefulness ? wakefulness === 'Awake' : /Display Power: state=ON/.test(power)
}

/** Whether the display is on: one `dumpsys power`; undefined when it prints neither line arc reads. */
export async function displayAwake(dev: DeviceShell): Promise<boolean | undefined> {
  const power = await dev.text(['dumpsys', 'power'])
  return /mWakefulness=\w+|Display Power: state=/.test(power) ? awakeFromPower(power) : undefined
}

const SETTLE_STEPS = 8
const SETTLE_MS = 250

/** Polls until `done` holds or about two seconds pass; returns the last state. */
async function settle(dev: DeviceShell, done: (state: PowerState) => boolean): Promise<PowerState> {
  let state = await powerState(dev)
  for (let i = 0; i < SETTLE_STEPS && !done(state); i++) {
    await sleep(SETTLE_MS)
    state = await powerState(dev)
  }
  return state
}

/** `input keyevent KEYCODE_WAKEUP` (Android 5+) when the screen is off. */
export async function wake(dev: DeviceShell): Promise<PowerState> {
  const before = await powerState(dev)
  if (before.awake) return before
  await dev.action(['input', 'keyevent', 'KEYCODE_WAKEUP'], 'input keyevent KEYCODE_WAKEUP')
  const after = await settle(dev, (s) => s.awake)
  if (!after.awake) {
    throw new DeviceCommandError(`the screen of ${dev.serial} stayed off after KEYCODE_WAKEUP`, {
      actions: ['Press the power button (`arc press key POWER`) and try again.'],
    })
  }
  return before
}

/**
 * Wakes the screen, then dismisses a lock screen that has no PIN: `wm dismiss-keyguard` (Android 6+), else the
 * menu key. A lock that still shows after that needs a credential arc does not have.
 */
export async function unlock(dev: DeviceShell): Promise<PowerState> {
  const before = await wake(dev)
  if (!(await powerState(dev)).locked) return before
  const output = await dev.text(['wm', 'dismiss-keyguard'])
  if (isMissingCommand(output) || /usage|Unknown/i.test(output)) {
    await dev.action(['input', 'keyevent', 'KEYCODE_MENU'], 'input keyevent KEYCODE_MENU')
  }
  const after = await settle(dev, (s) => !s.locked)
  if (after.locked) {
    const secure = after.secure ?? before.secure
    throw new UnsupportedError(
      secure
        ? `the lock screen of ${dev.serial} needs a PIN, pattern or password: arc cannot unlock it`
        : `the lock screen of ${dev.serial} still shows after wm dismiss-keyguard`,
      {
        details: {serial: dev.serial, secure},
        actions: ['Unlock the device by hand, or remove the screen lock (Settings > Security) on a test device.'],
      }
    )
  }
  return before
}

/**
 * Runs argv, every word quoted, over shell protocol v2 so stdout, stderr and the exit status stay apart. adbd
 * before Android 7 has no v2: there the command runs over `exec:` (its `shell:` is a terminal, which would turn
 * every LF into CR LF), stdout and stderr arrive merged on stdout, and the exit status comes from arc's trailer.
 */
export async function passthrough(dev: DeviceShell, argv: string[], timeoutMs?: number): Promise<ShellOutput> {
  const command = shellCommand(argv)
  const v2 = await dev.server.shellV2(dev.serial, command, timeoutMs)
  if (v2) return v2
  const {output, exitCode} = await dev.server.execRun(dev.serial, `exec 2>&1; ${command}`, timeoutMs)
  return {stdout: output, stderr: Buffer.alloc(0), exitCode}
}
