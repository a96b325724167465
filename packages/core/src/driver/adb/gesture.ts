/**
 * Gestures from finger paths (adb.md §3.7, §3.9). Several fingers: `sendevent` on the touchscreen, multi-touch
 * protocol B, scaled to its axis ranges from the display's rotation, the whole gesture in one shell command.
 * One finger: `input motionevent` (Android 10+), else one `input swipe` per segment.
 */
import {DeviceCommandError, InvalidInputError, UnsupportedError} from '../../errors/arc-error.js'
import type {GestureMethod, GesturePoint} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'
import {findTouchscreen, parseGetevent, type AxisRange, type InputDevice} from './getevent.js'
import {refuseWhenDisplayWasOff, touchWhileAwake, whileAwakeScript} from './input.js'
import {screenInfo} from './screen.js'
import {checkCommandLength, raw, shellCommand} from './shell-quote.js'

/** Android 10 (API 29) added `input motionevent`. */
const MOTIONEVENT_SDK = 29
/**
 * Android 11 (API 30) is the last whose `input` starts a VM per call (AOSP cmds/input: from 12 it is `cmd input`):
 * there every frame of a gesture costs a VM start (0.3-1 s), so frames closer than that only add calls.
 */
const INPUT_VM_LAST_SDK = 30
/** At most this many `input motionevent` calls per gesture where each starts a VM. */
const VM_FRAMES = 10
/** What each of those calls may take on top of the command's usual limit: a slow device's VM start, and some. */
const VM_CALL_ALLOWANCE_MS = 1500
/** What each `cmd input motionevent` may take where no VM starts: a process and a binder call. */
const CALL_ALLOWANCE_MS = 100

const EV_SYN = 0
const EV_KEY = 1
const EV_ABS = 3
const ABS_MT_SLOT = 47
const ABS_MT_TOUCH_MAJOR = 48
const ABS_MT_POSITION_X = 53
const ABS_MT_POSITION_Y = 54
const ABS_MT_TRACKING_ID = 57
const ABS_MT_PRESSURE = 58
const BTN_TOUCH = 330
const BTN_TOOL_FINGER = 325

/** Longest gap between two frames of a gesture; slower gestures get fewer frames to fit one command. */
const FRAME_MS = 30

export async function sdkLevel(dev: DeviceShell): Promise<number | undefined> {
  const sdk = Number((await dev.text(['getprop', 'ro.build.version.sdk'])).trim())
  return Number.isInteger(sdk) && sdk > 0 ? sdk : undefined
}

/** Where finger `path` is at `t` (linear between its points); undefined before its first and after its last. */
function positionAt(path: GesturePoint[], t: number): {x: number; y: number} | undefined {
  const first = path[0] as GesturePoint
  const last = path.at(-1) as GesturePoint
  if (t < first.time || t > last.time) return undefined
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1] as GesturePoint
    const b = path[i] as GesturePoint
    if (t <= b.time) {
      const k = b.time === a.time ? 1 : (t - a.time) / (b.time - a.time)
      return {x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k}
    }
  }
  return {x: last.x, y: last.y}
}

/** Frame times: every point's time, plus steps of at most `step` ms between them. */
export function frameTimes(paths: GesturePoint[][], step: number): number[] {
  const times = new Set<number>()
  for (const path of paths) for (const p of path) times.add(p.time)
  const sorted = [...times].sort((a, b) => a - b)
  const out: number[] = []
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i] as number
    out.push(t)
    const next = sorted[i + 1]
    if (next === undefined) break
    const n = Math.ceil((next - t) / step)
    for (let k = 1; k < n; k++) out.push(Math.round(t + ((next - t) * k) / n))
  }
  return out
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(3))

/** Display pixels in the current rotation → the panel's raw axis values (natural orientation). */
export function toRaw(
  point: {x: number; y: number},
  screen: {width: number; height: number; rotation: 0 | 1 | 2 | 3},
  axes: {x: AxisRange; y: AxisRange}
): {x: number; y: number} {
  const natural =
    screen.rotation % 2 === 1
      ? {width: screen.height, height: screen.width}
      : {width: screen.width, height: screen.height}
  let nx = point.x
  let ny = point.y
  if (screen.rotation === 1) [nx, ny] = [natural.width - point.y, point.x]
  else if (screen.rotation === 2) [nx, ny] = [natural.width - point.x, natural.height - point.y]
  else if (screen.rotation === 3) [nx, ny] = [point.y, natural.height - point.x]
  const scale = (v: number, size: number, axis: AxisRange) =>
    Math.min(axis.max, Math.max(axis.min, Math.round(axis.min + (v * (axis.max - axis.min + 1)) / size)))
  return {x: scale(nx, natural.width, axes.x), y: scale(ny, natural.height, axes.y)}
}

/**
 * The sendevent script of a multi-finger gesture: slot i is finger i; a finger goes down at its first time
 * (tracking id 100+i, touch size, pressure, position), moves at every frame, and lifts (tracking id -1) in the
 * report after its last point; BTN_TOUCH is down while any finger is. `e` sends triples and stops at the first
 * failure, so a device that refuses the write gets nothing half-done.
 */
export function sendeventScript(
  device: InputDevice,
  paths: GesturePoint[][],
  screen: {width: number; height: number; rotation: 0 | 1 | 2 | 3},
  step: number
): string {
  const axes = {
    x: device.abs.get('ABS_MT_POSITION_X') as AxisRange,
    y: device.abs.get('ABS_MT_POSITION_Y') as AxisRange,
  }
  const slots = device.abs.get('ABS_MT_SLOT')
  if (slots && paths.length > slots.max - slots.min + 1) {
    throw new UnsupportedError(
      `the touchscreen ${device.name} tracks ${slots.max - slots.min + 1} fingers; the gesture has ${paths.length}`
    )
  }
  const pressure = device.abs.get('ABS_MT_PRESSURE')
  const major = device.abs.get('ABS_MT_TOUCH_MAJOR')
  const hasTool = device.keys.has('BTN_TOOL_FINGER')
  const frames = frameTimes(paths, step)
  const down = new Set<number>()
  const parts: string[] = []
  let previous: number | undefined
  for (const t of frames) {
    const events: number[] = []
    const wasTouching = down.size > 0
    const lifting: number[] = []
    for (const [i, path] of paths.entries()) {
      const at = positionAt(path, t)
      if (!at) continue
      const p = toRaw(at, screen, axes)
      if (!down.has(i)) {
        events.push(EV_ABS, ABS_MT_SLOT, i, EV_ABS, ABS_MT_TRACKING_ID, 100 + i)
        if (major) events.push(EV_ABS, ABS_MT_TOUCH_MAJOR, Math.min(major.max, 5))
        if (pressure)
          events.push(EV_ABS, ABS_MT_PRESSURE, Math.max(pressure.min, Math.round((pressure.max - pressure.min) / 2)))
        events.push(EV_ABS, ABS_MT_POSITION_X, p.x, EV_ABS, ABS_MT_POSITION_Y, p.y)
        down.add(i)
      } else {
        events.push(EV_ABS, ABS_MT_SLOT, i, EV_ABS, ABS_MT_POSITION_X, p.x, EV_ABS, ABS_MT_POSITION_Y, p.y)
      }
      if (t >= (path.at(-1) as GesturePoint).time) lifting.push(i)
    }
    if (!wasTouching && events.length > 0) {
      events.push(EV_KEY, BTN_TOUCH, 1)
      if (hasTool) events.push(EV_KEY, BTN_TOOL_FINGER, 1)
    }
    if (events.length > 0) events.push(EV_SYN, 0, 0)
    // Fingers at their last point lift in a report of their own, after that point was reported.
    if (lifting.length > 0) {
      for (const i of lifting) {
        events.push(EV_ABS, ABS_MT_SLOT, i, EV_ABS, ABS_MT_TRACKING_ID, -1)
        down.delete(i)
      }
      if (down.size === 0) {
        events.push(EV_KEY, BTN_TOUCH, 0)
        if (hasTool) events.push(EV_KEY, BTN_TOOL_FINGER, 0)
      }
      events.push(EV_SYN, 0, 0)
    }
    if (previous !== undefined && t > previous) parts.push(`sleep ${seconds(t - previous)}`)
    if (events.length > 0) parts.push(`e ${events.join(' ')}`)
    previous = t
  }
  const fn = shellCommand([
    raw('e() { while [ $# -gt 0 ]; do sendevent'),
    device.path,
    raw('$1 $2 $3 || exit 3; shift 3; done; }'),
  ])
  // A subshell, so `exit` at a refused write ends only the gesture and arc still reads the exit status.
  return `( ${[fn, ...parts].join('; ')} )`
}

/** The same gesture as `input motionevent` calls with sleeps between them (one finger). */
function motioneventScript(path: GesturePoint[], step: number): string {
  const parts: string[] = []
  let previous: number | undefined
  const times = frameTimes([path], step)
  for (const [n, t] of times.entries()) {
    const at = positionAt(path, t) as {x: number; y: number}
    if (previous !== undefined && t > previous) parts.push(`sleep ${seconds(t - previous)}`)
    const action = n === 0 ? 'DOWN' : n === times.length - 1 ? 'UP' : 'MOVE'
    parts.push(shellCommand(['input', 'motionevent', action, Math.floor(at.x), Math.floor(at.y)]))
    previous = t
  }
  return parts.join('; ')
}

/** A gated script (whileAwakeScript) run as one action: DISPLAY_OFF when the display was off and nothing was sent. */
async function touchWhileAwakeScript(dev: DeviceShell, script: string, what: string, timeoutMs: number): Promise<void> {
  try {
    await dev.action([raw(script)], what, timeoutMs)
  } catch (error) {
    if (error instanceof DeviceCommandError)
      refuseWhenDisplayWasOff(dev, String(error.details.output ?? ''), 'a gesture')
    throw error
  }
}

/** Fits the gesture in one command: coarser frames until it is short enough, then an INVALID_INPUT. */
function fitted(build: (step: number) => string, duration: number, first = FRAME_MS): string {
  for (let step = first; ; step *= 2) {
    const command = build(step)
    try {
      checkCommandLength(command)
      return command
    } catch (error) {
      if (step > duration) {
        throw new InvalidInputError('the gesture has too many points to send as one adb shell command (4000 bytes)', {
          actions: ['Use fewer points per path, or fewer paths.'],
          cause: error,
        })
      }
    }
  }
}

export async function gesture(dev: DeviceShell, paths: GesturePoint[][]): Promise<GestureMethod> {
  const duration =
    Math.max(...paths.map((p) => (p.at(-1) as GesturePoint).time)) -
    Math.min(...paths.map((p) => (p[0] as GesturePoint).time))
  if (paths.length === 1) {
    const path = paths[0] as GesturePoint[]
    const sdk = (await sdkLevel(dev)) ?? 0
    if (sdk >= MOTIONEVENT_SDK) {
      // Where each call starts a VM, the frames are spaced to at most VM_FRAMES calls, and the command may take a
      // VM start per call longer than the usual limit.
      const vm = sdk <= INPUT_VM_LAST_SDK
      const first = vm ? Math.max(FRAME_MS, Math.ceil(duration / VM_FRAMES)) : FRAME_MS
      // Checked for a sleeping display in the same command, as a tap is (input.ts): nothing is sent while it is off.
      const script = fitted((step) => whileAwakeScript(motioneventScript(path, step)), duration, first)
      const calls = script.match(/motionevent/g)?.length ?? 0
      await touchWhileAwakeScript(
        dev,
        script,
        'input motionevent',
        dev.server.timeoutMs + duration + calls * (vm ? VM_CALL_ALLOWANCE_MS : CALL_ALLOWANCE_MS)
      )
      return 'motionevent'
    }
    // Before Android 10: a swipe per segment (the finger lifts between segments).
    const words: Array<string | number | ReturnType<typeof raw>> = []
    for (let i = 1; i < path.length; i++) {
      const a = path[i - 1] as GesturePoint
      const b = path[i] as GesturePoint
      if (i > 1) words.push(raw(';'))
      words.push(
        'input',
        'swipe',
        Math.floor(a.x),
        Math.floor(a.y),
        Math.floor(b.x),
        Math.floor(b.y),
        Math.max(1, Math.round(b.time - a.time))
      )
    }
    await touchWhileAwake(
      dev,
      words,
      'input swipe',
      'a gesture',
      dev.server.timeoutMs + duration + (path.length - 1) * VM_CALL_ALLOWANCE_MS
    )
    return 'swipe'
  }
  const [listing, screen] = await Promise.all([dev.text(['getevent', '-pl']), screenInfo(dev)])
  const device = findTouchscreen(parseGetevent(listing))
  if (!device) {
    throw new UnsupportedError(
      `multi-touch needs a touchscreen, and \`getevent -pl\` on ${dev.serial} lists none with ABS_MT_POSITION_X/Y`,
      {
        details: {serial: dev.serial},
      }
    )
  }
  const command = fitted((step) => whileAwakeScript(sendeventScript(device, paths, screen, step)), duration)
  const {output, exitCode} = await dev.run([raw(command)], dev.server.timeoutMs + duration)
  const text = output.toString('utf8')
  refuseWhenDisplayWasOff(dev, text, 'a gesture')
  if (exitCode !== 0) {
    if (/Permission denied|Operation not permitted|could not open/i.test(text)) {
      throw new UnsupportedError(
        `multi-touch injection is not permitted on ${dev.serial}: the adb shell may not write ${device.path}`,
        {
          details: {serial: dev.serial, device: device.path, output: text.slice(0, 500)},
          actions: [
            'Android 10+ production builds deny /dev/input to the shell (SELinux); emulators, rooted and older devices allow it.',
            'Run `arc doctor` to see what this device supports; single-finger gestures still work (one path).',
          ],
        }
      )
    }
    throw dev.failed('sendevent gesture', text, exitCode)
  }
  return 'sendevent'
}
