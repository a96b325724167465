import {phoneKeyCode} from '../keycodes.js'
import type {CommandContext} from './types.js'

const SOURCES = new Set([
  'keyboard',
  'dpad',
  'gamepad',
  'touchscreen',
  'mouse',
  'stylus',
  'trackball',
  'touchpad',
  'touchnavigation',
  'joystick',
])

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
`

/** Android 13 (API 33): the first release whose `input` has `keycombination` (docs/adb.md §3.7). */
export const KEYCOMBINATION_SDK = 33

/**
 * The meta state each modifier key adds for the keys pressed after it in a `keycombination` (AOSP
 * InputShellCommand's MODIFIER map: CTRL_LEFT -> META_CTRL_LEFT_ON | META_CTRL_ON, and so on).
 */
const MODIFIER_META = new Map<number, number>([
  [113, 0x2000 | 0x1000], // CTRL_LEFT
  [114, 0x4000 | 0x1000], // CTRL_RIGHT
  [57, 0x10 | 0x2], // ALT_LEFT
  [58, 0x20 | 0x2], // ALT_RIGHT
  [59, 0x40 | 0x1], // SHIFT_LEFT
  [60, 0x80 | 0x1], // SHIFT_RIGHT
  [117, 0x20000 | 0x10000], // META_LEFT
  [118, 0x40000 | 0x10000], // META_RIGHT
])

/**
 * An exception out of a command of `cmd input` (Android 12+): BasicShellCommandHandler.exec prints an empty line,
 * `Exception occurred while executing '<first argument>':` and the stack on stderr, and the command exits 255
 * (onCommand's result stays -1). The frames' line numbers vary by build; these are left out.
 */
function shellCommandException(ctx: CommandContext, first: string, exception: string, frames: string[]): number {
  ctx.err(
    [
      '',
      `Exception occurred while executing '${first}':`,
      exception,
      ...frames.map((f) => `\tat com.android.server.input.InputShellCommand.${f}(InputShellCommand.java)`),
      '\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java)',
      '',
    ].join('\n')
  )
  return 255
}

/**
 * A command this release's `input` does not know. From Android 12 `input` is `cmd input`, whose
 * ShellCommand.handleDefaultCommands prints `Unknown command: NAME` on stdout and exits 255 (its result -1); up to
 * Android 11 `input` is its own program, which prints its usage (on stderr; exit 1 here).
 */
function unknownCommand(ctx: CommandContext, command: string | undefined): number {
  if (sdkOf(ctx) > INPUT_VM_LAST_SDK && command !== undefined) {
    ctx.out(`Unknown command: ${command}\n`)
    return 255
  }
  ctx.err(USAGE)
  return 1
}

const sdkOf = (ctx: CommandContext): number => Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34')

/**
 * `input keycombination [-t MS] KEY KEY…` (Android 13+), as InputShellCommand.runKeyCombination and
 * sendKeyCombination send it: at least two keys, each a name or number KeyEvent.keyCodeFromString knows (else
 * `Unknown keycode: X`, nothing sent); every key goes down in order, each stamped with the meta state of the
 * modifier keys (MODIFIER_META) pressed before it, then after MS (default 0) they all go up. The virtual device
 * records a key's press at its down, with that meta state: ALT_LEFT then DPAD_DOWN is ALT_LEFT (meta 0) and DPAD_DOWN
 * with META_ALT_LEFT_ON | META_ALT_ON, which a field takes as ALT+DPAD_DOWN (text-fields.ts). Returns the ms the
 * keys are held (the caller waits that long), or an exit status with the error written.
 */
function keyCombination(ctx: CommandContext, first: string, rest: string[]): {holdMs: number} | {status: number} {
  const frames = ['runKeyCombination']
  const args = [...rest]
  if (args.length === 0)
    return {
      status: shellCommandException(
        ctx,
        first,
        'java.lang.IllegalArgumentException: Argument expected after "keycombination"',
        frames
      ),
    }
  let holdMs = 0
  if (args[0] === '-t') {
    args.shift()
    const value = args.shift()
    if (value === undefined)
      return {
        status: shellCommandException(
          ctx,
          first,
          'java.lang.IllegalArgumentException: Argument expected after "-t"',
          frames
        ),
      }
    // Integer.parseInt: an optional sign and decimal digits within an int, else NumberFormatException, which
    // onCommand turns into "Error: Invalid arguments for command: keycombination".
    if (!/^[-+]?\d+$/.test(value) || Math.abs(Number(value)) > 2147483647)
      return {
        status: shellCommandException(
          ctx,
          first,
          'java.lang.IllegalArgumentException: Error: Invalid arguments for command: keycombination',
          []
        ),
      }
    holdMs = Number(value)
    if (args.length === 0)
      return {
        status: shellCommandException(
          ctx,
          first,
          `java.lang.IllegalArgumentException: Argument expected after "${value}"`,
          frames
        ),
      }
  }
  const codes: number[] = []
  for (const word of args) {
    const code = phoneKeyCode(word, sdkOf(ctx))
    if (code === 0)
      return {
        status: shellCommandException(
          ctx,
          first,
          `java.lang.IllegalArgumentException: Unknown keycode: ${word}`,
          frames
        ),
      }
    codes.push(code)
  }
  if (codes.length < 2)
    return {
      status: shellCommandException(
        ctx,
        first,
        'java.lang.IllegalArgumentException: keycombination requires at least 2 keycodes',
        frames
      ),
    }
  let meta = 0
  for (const code of codes) {
    ctx.device.keyEvent(code, {meta})
    meta |= MODIFIER_META.get(code) ?? 0
  }
  if (holdMs < 0)
    // Thread.sleep refuses a negative time after the keys went down (InputShellCommand.sleep).
    return {
      status: shellCommandException(ctx, first, 'java.lang.IllegalArgumentException: timeout value is negative', [
        'sleep',
        'sendKeyCombination',
        ...frames,
      ]),
    }
  return {holdMs}
}

class InputError extends Error {}

/**
 * InputShellCommand.sendText's escape, step for step: after a `%`, an `s` becomes a space and the `%` goes; a
 * `%` that follows a `%` arms the escape again (so `%%s` types `% `).
 */
export function unescapeText(text: string): string {
  const buff = [...text]
  let escape = false
  for (let i = 0; i < buff.length; i++) {
    if (escape) {
      escape = false
      if (buff[i] === 's') {
        buff[i] = ' '
        buff.splice(--i, 1)
      }
    }
    if (buff[i] === '%') escape = true
  }
  return buff.join('')
}

function num(value: string | undefined, what: string): number {
  const n = Number(value)
  if (value === undefined || value.trim() === '' || !Number.isFinite(n))
    throw new InputError(`Error: ${what}: invalid number ${JSON.stringify(value ?? '')}`)
  return n
}

/**
 * `input [source] [-d ID] tap|swipe|draganddrop|keyevent|text|motionevent|press …`: each event is recorded on
 * the device (`device.inputEvents`), and taps, keys and statusbar actions may switch the scenario's screen.
 * `text` replaces `%s` with spaces, as InputShellCommand does.
 */
export async function input(ctx: CommandContext): Promise<number> {
  // Up to Android 11 `input` is app_process: a new VM per call (timing.vmStartMs; the android-11 profile's cost).
  // From Android 12 it is `exec cmd input "$@"` (AOSP cmds/input/input), served inside system_server.
  if (Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34') <= INPUT_VM_LAST_SDK) {
    await ctx.device.delay(ctx.device.timing.vmStartMs, ctx.signal)
    if (ctx.signal.aborted) return 137
  }
  return inputServed(ctx)
}

/**
 * `input` as system_server serves it, for as long as it takes: a swipe or a drag injects its moves until its
 * duration has passed and lifts the finger then (AOSP InputShellCommand.sendSwipe: ACTION_MOVE until endTime, then
 * ACTION_UP), so the command ends as the finger lifts, and what the lift starts (a fling) starts then.
 */
export async function inputServed(ctx: CommandContext): Promise<number> {
  const held: {ms: number} = {ms: 0}
  const status = inputNow(ctx, held)
  const args = ctx.argv.slice(1)
  if (args[0] !== undefined && SOURCES.has(args[0])) args.shift()
  if (args[0] === '-d') args.splice(0, 2)
  if (status === 0 && held.ms > 0) {
    // `keycombination -t MS` holds the keys down that long before it lifts them.
    await ctx.device.delay(held.ms, ctx.signal)
    return ctx.signal.aborted ? 137 : status
  }
  if (status !== 0 || (args[0] !== 'swipe' && args[0] !== 'draganddrop')) return status
  await ctx.device.delay(args[5] === undefined ? 300 : Number(args[5]), ctx.signal)
  return ctx.signal.aborted ? 137 : status
}

/**
 * What `input text` can type: it asks the virtual keyboard's character map for the key events of the whole text
 * (KeyCharacterMap.load(VIRTUAL_KEYBOARD).getEvents), which maps printable ASCII, line feed and tab (Virtual.kcm's
 * US layout) and answers null for anything else; the next line takes that null's length.
 */
function typableByKeys(text: string): boolean {
  return /^[\x20-\x7e\n\t]*$/.test(text)
}

/**
 * `input text` with a character the key map lacks: NullPointerException, nothing typed. From Android 12 it is a
 * shell command of system_server, reported as ShellCommand reports an exception, exit 255
 * (TencentQQGYLab/AppAgent#34, Android 14); up to Android 11 the exception ends `input`'s own VM with its stack
 * (matthijskooijman/scripts#1, Input$InputText.sendText), exit 1 as for refuseInjection.
 */
function textNotMapped(ctx: CommandContext): number {
  if (Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34') <= INPUT_VM_LAST_SDK) {
    ctx.err(
      [
        'java.lang.NullPointerException: Attempt to get length of null array',
        '\tat com.android.commands.input.Input$InputText.sendText(Input.java:168)',
        '\tat com.android.commands.input.Input$InputText.run(Input.java:140)',
        '\tat com.android.commands.input.Input.onRun(Input.java:107)',
        '\tat com.android.internal.os.BaseCommand.run(BaseCommand.java:56)',
        '\tat com.android.commands.input.Input.main(Input.java:71)',
        '',
      ].join('\n')
    )
    return 1
  }
  ctx.err(
    [
      "Exception occurred while executing 'text':",
      'java.lang.NullPointerException: Attempt to get length of null array',
      '\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:319)',
      '\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:291)',
      '\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:232)',
      '',
    ].join('\n')
  )
  return 255
}

/** Android 11 (API 30): the last release whose `input` runs its own VM. */
const INPUT_VM_LAST_SDK = 30

/**
 * What a Xiaomi phone (MIUI, HyperOS) prints for any injected event while "USB debugging (Security settings)" is
 * off: InputManagerService refuses the shell's injection. From Android 12 `input` runs in system_server as a shell
 * command, whose uncaught exception ShellCommand reports as `Exception occurred while executing '<cmd>':` and the
 * stack, exit status 255 (AOSP ShellCommand.exec); the message is Android 13's (Genymobile/scrcpy#3824, MIUI 14 on
 * Android 13). Up to Android 11 `input` is its own VM, whose stack starts with the exception and the older message
 * (DeviceFarmer/STFService.apk#144, a Xiaomi on Android 10, `input keyevent`); those captures show no exit status, so
 * the device exits 1 there.
 */
function refuseInjection(ctx: CommandContext, command: string): number {
  if (Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34') <= INPUT_VM_LAST_SDK) {
    ctx.err(
      [
        'java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission',
        '\tat android.os.Parcel.createException(Parcel.java:2075)',
        '\tat android.os.Parcel.readException(Parcel.java:2043)',
        '\tat android.os.Parcel.readException(Parcel.java:1991)',
        '\tat android.hardware.input.IInputManager$Stub$Proxy.injectInputEvent(IInputManager.java:925)',
        '\tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:886)',
        '\tat com.android.commands.input.Input.onRun(Input.java:108)',
        '\tat com.android.internal.os.BaseCommand.run(BaseCommand.java:56)',
        '\tat com.android.commands.input.Input.main(Input.java:71)',
        '',
      ].join('\n')
    )
    return 1
  }
  ctx.err(
    [
      `Exception occurred while executing '${command}':`,
      'java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.',
      '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3011)',
      '\tat android.os.Parcel.createException(Parcel.java:2995)',
      '\tat android.os.Parcel.readException(Parcel.java:2978)',
      '\tat android.hardware.input.IInputManager$Stub$Proxy.injectInputEventToTarget(IInputManager.java:1294)',
      '\tat android.hardware.input.InputManager.injectInputEvent(InputManager.java:1153)',
      '',
    ].join('\n')
  )
  return 255
}

/**
 * `input` as system_server serves it (`cmd input`, and `input` itself from Android 12): no VM start.
 *
 * A touch (tap, swipe, drag, motion event) while the device sleeps is injected and dropped: `input` still exits 0,
 * and no window sees it, because the input dispatcher passes a motion event on only while the device is interactive
 * (AOSP frameworks/base services/core/jni/com_android_server_input_InputManagerService.cpp,
 * NativeInputManager::interceptMotionBeforeQueueing: POLICY_FLAG_PASS_TO_USER only when interactive; otherwise
 * PhoneWindowManager.interceptMotionBeforeQueueingNonInteractive passes nothing an injected event could carry). So
 * such a touch is checked (a bad number still fails) and then reaches nothing: not the input log, not the screen.
 */
export function inputNow(ctx: CommandContext, held: {ms: number} = {ms: 0}): number {
  const args = ctx.argv.slice(1)
  // The first argument `cmd input` got (a source, `-d`, or the command): what ShellCommand names in an exception.
  const first = args[0] ?? ''
  if (args[0] !== undefined && SOURCES.has(args[0])) args.shift()
  if (args[0] === '-d') args.splice(0, 2)
  const [command, ...rest] = args
  const device = ctx.device
  const injects =
    command !== undefined &&
    (['tap', 'swipe', 'draganddrop', 'keyevent', 'text', 'motionevent', 'press', 'roll'].includes(command) ||
      (command === 'keycombination' && sdkOf(ctx) >= KEYCOMBINATION_SDK))
  if (injects && !device.usbDebuggingSecurity) return refuseInjection(ctx, command)
  try {
    switch (command) {
      case 'tap': {
        const event = {type: 'tap', x: num(rest[0], 'x'), y: num(rest[1], 'y')} as const
        device.touchScreen(event)
        return 0
      }
      case 'swipe':
      case 'draganddrop': {
        const [x1, y1, x2, y2] = [0, 1, 2, 3].map((i) => num(rest[i], 'coordinate')) as [number, number, number, number]
        const durationMs = rest[4] === undefined ? 300 : num(rest[4], 'duration')
        device.touchScreen({type: command, x1, y1, x2, y2, durationMs})
        return 0
      }
      case 'keyevent': {
        let longpress = false
        let doubletap = false
        const keys: number[] = []
        for (const a of rest) {
          if (a === '--longpress') longpress = true
          else if (a === '--doubletap') doubletap = true
          // A word the release cannot read is KEYCODE_UNKNOWN, sent all the same (keycodes.ts phoneKeyCode).
          else keys.push(phoneKeyCode(a, Number(device.properties.get('ro.build.version.sdk') ?? '34')))
        }
        if (keys.length === 0) throw new InputError('Error: keyevent needs a key code')
        for (const code of keys) device.keyEvent(code, {...(longpress && {longpress}), ...(doubletap && {doubletap})})
        return 0
      }
      case 'text': {
        if (rest[0] === undefined) throw new InputError('Error: text needs a string')
        const text = unescapeText(rest[0])
        if (!typableByKeys(text)) return textNotMapped(ctx)
        device.recordInput({type: 'text', text})
        return 0
      }
      case 'motionevent': {
        const action = (rest[0] ?? '').toUpperCase()
        if (!['DOWN', 'UP', 'MOVE', 'CANCEL'].includes(action))
          throw new InputError(`Error: Unknown action: ${rest[0] ?? ''}`)
        const event = {type: 'motionevent', action, x: num(rest[1], 'x'), y: num(rest[2], 'y')} as const
        device.touchScreen(event)
        return 0
      }
      case 'press':
        device.keyEvent(23)
        return 0
      case 'roll':
        // A trackball move: not modelled, answered with the usage.
        ctx.err(USAGE)
        return 1
      case 'keycombination': {
        if (sdkOf(ctx) < KEYCOMBINATION_SDK) return unknownCommand(ctx, command)
        const sent = keyCombination(ctx, first, rest)
        if ('status' in sent) return sent.status
        held.ms = sent.holdMs
        return 0
      }
      default:
        return unknownCommand(ctx, command)
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    ctx.err(`${error.message}\n`)
    return 1
  }
}
