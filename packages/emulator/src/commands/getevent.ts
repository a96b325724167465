import type {CommandContext} from './types.js'

const TOUCH_PATH = '/dev/input/event1'
const KEYS_PATH = '/dev/input/event0'
/** Linux input: EV_KEY events, and BTN_TOUCH (0x14a), the key a touchscreen reports while any finger is down. */
const EV_KEY = 1
const BTN_TOUCH = 0x14a

const axis = (label: string, max: number, min = 0) =>
  `${label.padEnd(22)}: value 0, min ${min}, max ${max}, fuzz 0, flat 0, resolution 0`

/** `getevent -pl`: the power key and the touchscreen, in the format of a real emulator capture (padded labels). */
export function getevent(ctx: CommandContext): number {
  const args = ctx.argv.slice(1)
  if (!args.some((a) => a.startsWith('-') && a.includes('p'))) {
    ctx.err('getevent: only `getevent -p` / `-pl` is emulated (no event streaming)\n')
    return 1
  }
  const t = ctx.device.touchscreen
  const pad = ' '.repeat(16)
  const lines = [
    `add device 1: ${KEYS_PATH}`,
    '  name:     "gpio-keys"',
    '  events:',
    '    KEY (0001): KEY_POWER            ',
    '  input props:',
    '    <none>',
    `add device 2: ${TOUCH_PATH}`,
    `  name:     "${t.name}"`,
    '  events:',
    '    KEY (0001): BTN_TOUCH            ',
    `    ABS (0003): ${axis('ABS_MT_SLOT', t.slots - 1)}`,
    `${pad}${axis('ABS_MT_TOUCH_MAJOR', 2147483647)}`,
    `${pad}${axis('ABS_MT_POSITION_X', t.maxX)}`,
    `${pad}${axis('ABS_MT_POSITION_Y', t.maxY)}`,
    `${pad}${axis('ABS_MT_TRACKING_ID', 65535)}`,
    `${pad}${axis('ABS_MT_PRESSURE', 1024)}`,
    '  input props:',
    '    INPUT_PROP_DIRECT',
  ]
  ctx.out(`${lines.join('\n')}\n`)
  return 0
}

/** Whether the shell may write the input devices: the scenario says, else only below Android 10 (SELinux). */
function writable(ctx: CommandContext): boolean {
  const configured = ctx.device.touchscreen.writable
  if (configured !== undefined) return configured
  return Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34') < 29
}

/** `sendevent DEVICE TYPE CODE VALUE`: recorded as an input event when the shell may write the device. */
export function sendevent(ctx: CommandContext): number {
  const [, device, ...numbers] = ctx.argv
  if (device === undefined || numbers.length !== 3) {
    ctx.err('use: sendevent DEVICE TYPE CODE VALUE\n')
    return 1
  }
  if (device !== TOUCH_PATH && device !== KEYS_PATH) {
    ctx.err(`sendevent: ${device}: No such file or directory\n`)
    return 1
  }
  if (!writable(ctx)) {
    ctx.err(`sendevent: ${device}: Permission denied\n`)
    return 1
  }
  const [evType, code, value] = numbers.map((n) => Number.parseInt(n, 10))
  if ([evType, code, value].some((n) => !Number.isFinite(n))) {
    ctx.err(`sendevent: bad number\n`)
    return 1
  }
  // A touchscreen's events while the device sleeps reach no window, as `input`'s touches do (commands/input.ts:
  // NativeInputManager::interceptMotionBeforeQueueing passes a motion event on only while interactive): the write
  // succeeds and nothing is recorded. While a screensaver shows, the dream takes them and ends when the last finger
  // lifts (BTN_TOUCH 0, the touch's ACTION_UP), as VirtualDevice.touchScreen has it for `input`'s touches.
  if (device === TOUCH_PATH && !ctx.device.awake) return 0
  if (device === TOUCH_PATH && ctx.device.dreaming) {
    if (evType === EV_KEY && code === BTN_TOUCH && value === 0) ctx.device.dreaming = false
    return 0
  }
  ctx.device.recordInput({
    type: 'sendevent',
    device,
    evType: evType as number,
    code: code as number,
    value: value as number,
  })
  return 0
}
