/**
 * Touch, keys and text over `input` (adb.md §3.7), and the status bar panels. Every function here runs inside
 * the device's input queue (input-queue.ts), so actions from concurrent callers never interleave.
 */
import {DeviceCommandError, UnsupportedError} from '../../errors/arc-error.js'
import type {KeyModifier, Point} from '../device-driver.js'
import {keyAddedIn, resolveKey, type ResolvedKey} from '../keycodes.js'
import {isMissingCommand, type DeviceShell} from './device-shell.js'
import {raw, shellCommand, shq, type Raw} from './shell-quote.js'
import {describeChars, neverTypable, untypable} from '../typable.js'
import {hasAdbKeyboard, noAdbKeyboard, typeWithAdbKeyboard} from './adb-keyboard.js'
import {screenInfo} from './screen.js'

/** What a gated touch prints instead of touching when the display is off (with `-dreaming` while a screensaver shows). */
const DISPLAY_OFF_MARK = 'arc-display-off'
const DREAMING_MARK = `${DISPLAY_OFF_MARK}-dreaming`

/**
 * A touch sent only while the display is on, in the same shell command as the check: one round trip, not two (a
 * batch's or an MCP server's tap costs one device call). A touch on a sleeping display reaches nothing: Android
 * drops it (PhoneWindowManager passes touches to apps only while the device is interactive) and `input` still
 * exits 0. The check reads `dumpsys power` as displayAwake() does: `mWakefulness=Awake` (Android 7+), else
 * `Display Power: state=ON`; output with neither line lets the touch go (a build that cannot tell). While a
 * screensaver shows (`mWakefulness=Dreaming`) the screen is on but the dream takes the touch and ends
 * (DreamService.dispatchTouchEvent): refused too, and said so. The touch's script appears once, so a gesture's long
 * script keeps within adb's command length with the check around it.
 *
 * `trap '' HUP` first: a `shell:` command runs on a PTY (raw mode from Android 7.0, AOSP adb shell_service.cpp
 * StartSubprocess), and arc's stream closing mid-touch (Ctrl-C, a time limit) hangs it up: SIGHUP to the shell, then to
 * the `input` (or `sendevent`) it started once the shell exits (the shell is the session's leader, `input` in its
 * foreground group). Where `input` injects from its own VM (Android 11 and before) or the script writes the frames,
 * that left a finger down. Ignored (and so ignored in every program the script starts), the touch plays to its end
 * and lifts its fingers (packages/core/test/adb/touch-hangup.test.ts).
 */
export function whileAwakeScript(touch: string): string {
  return (
    'trap \'\' HUP; arc_on=1; arc_why=; case "$(dumpsys power)" in *mWakefulness=Awake*) ;; ' +
    '*mWakefulness=Dreaming*) arc_on= arc_why=-dreaming ;; *mWakefulness=*) arc_on= ;; ' +
    '*"Display Power: state=ON"*) ;; *"Display Power: state="*) arc_on= ;; esac; ' +
    `if [ -n "$arc_on" ]; then ${touch}; else echo ${DISPLAY_OFF_MARK}$arc_why; fi`
  )
}

function whileAwake(touch: Array<string | number | Raw>): Array<string | number | Raw> {
  return [raw(whileAwakeScript(shellCommand(touch)))]
}

/** Refuses a gated touch whose output says the display was off (nothing was sent): DISPLAY_OFF naming the gesture. */
export function refuseWhenDisplayWasOff(dev: DeviceShell, output: string, gesture: string): void {
  if (output.includes(DISPLAY_OFF_MARK)) throw displayOff(dev.serial, gesture, output.includes(DREAMING_MARK))
}

/** Runs a gated touch: DISPLAY_OFF (a DeviceCommandError naming it) when the display was off and nothing was sent. */
export async function touchWhileAwake(
  dev: DeviceShell,
  touch: Array<string | number | Raw>,
  what: string,
  gesture: string,
  timeoutMs?: number
): Promise<void> {
  try {
    await dev.action(whileAwake(touch), what, timeoutMs)
  } catch (error) {
    if (error instanceof DeviceCommandError) refuseWhenDisplayWasOff(dev, String(error.details.output ?? ''), gesture)
    throw error
  }
}

/** The error of a touch refused because the display is off, or (`dreaming`) a screensaver shows: DISPLAY_OFF. */
export function displayOff(serial: string, what: string, dreaming = false): DeviceCommandError {
  return new DeviceCommandError(
    dreaming
      ? `a screensaver shows on ${serial} (it is dreaming): ${what} would go to the screensaver, not the app, so nothing was sent`
      : `the display of ${serial} is off (asleep): ${what} would reach nothing, so nothing was sent`,
    {
      details: {serial, reason: 'DISPLAY_OFF'},
      actions: ['Wake the device first: `arc device unlock` (or `arc press key WAKEUP`), then try again.'],
    }
  )
}

export async function tap(dev: DeviceShell, {x, y}: Point): Promise<void> {
  await touchWhileAwake(dev, ['input', 'tap', x, y], `input tap ${x} ${y}`, 'a tap')
}

/** A long press is a swipe that does not move, held for the duration (the `input` way; mobile-mcp does the same). */
export async function longPress(dev: DeviceShell, {x, y}: Point, durationMs: number): Promise<void> {
  // The call holds the finger down for durationMs: its time limit grows by as much.
  await touchWhileAwake(
    dev,
    ['input', 'swipe', x, y, x, y, durationMs],
    `long press at (${x}, ${y})`,
    'a long press',
    dev.server.timeoutMs + durationMs
  )
}

/**
 * Two taps in one shell command, so only the device-side gap separates them. On Android 12+ `input` runs inside
 * system_server and the taps land well within the double-tap timeout; on Android ≤ 11 each `input` starts a VM
 * (0.3-1 s), so apps may see two single taps (docs/devices.md).
 */
export async function doubleTap(dev: DeviceShell, {x, y}: Point): Promise<void> {
  await touchWhileAwake(
    dev,
    ['input', 'tap', x, y, raw(';'), 'input', 'tap', x, y],
    `double tap at (${x}, ${y})`,
    'a double tap'
  )
}

/** A swipe (and every scroll made of one) is a touch like a tap: refused, nothing sent, while the display is off. */
export async function swipe(dev: DeviceShell, from: Point, to: Point, durationMs: number): Promise<void> {
  await touchWhileAwake(
    dev,
    ['input', 'swipe', from.x, from.y, to.x, to.y, durationMs],
    `swipe from (${from.x}, ${from.y})`,
    'a swipe',
    dev.server.timeoutMs + durationMs
  )
}

/**
 * Refuses, before anything is sent, a key the device's release does not have (keyAddedIn): its `input keyevent`
 * would send KEYCODE_UNKNOWN for the name and exit 0, and by number the release passes a code it has no meaning
 * for. One `getprop` read, only for such keys (added from Android 6.0 on).
 */
async function checkKeysKnown(dev: DeviceShell, keys: ResolvedKey[]): Promise<void> {
  const newest = keys
    .map((k) => ({k, api: keyAddedIn(k.code)}))
    .filter((x): x is {k: ResolvedKey; api: number} => x.api !== undefined)
    .sort((a, b) => b.api - a.api)[0]
  if (!newest) return
  const sdk = Number((await dev.text(['getprop', 'ro.build.version.sdk'])).trim())
  if (!Number.isInteger(sdk) || sdk <= 0 || sdk >= newest.api) return
  throw new UnsupportedError(
    `${newest.k.key} exists from API level ${newest.api}; ${dev.serial} runs API level ${sdk}, whose input keyevent would send KEYCODE_UNKNOWN and report success: nothing was sent`,
    {
      actions: ['Press a key this release has (docs/devices.md lists the keys and where they came in).'],
      details: {key: newest.k.key, code: newest.k.code, added_in_api: newest.api, device_api: sdk},
    }
  )
}

/** Sends one key event: the name as `KEYCODE_…` when given by name, else the number (keycodes.ts resolves both). */
export async function pressKey(dev: DeviceShell, key: string | number): Promise<void> {
  const resolved = resolveKey(key)
  await checkKeysKnown(dev, [resolved])
  const {word} = resolved
  await dev.action(['input', 'keyevent', word], `input keyevent ${word}`)
}

/**
 * Key names per `input keyevent` command: as many as fit in KEY_COMMAND_BYTES, so long runs (2000 cursor moves or
 * deletes: some 22 bytes each, quoted) are split to stay within adb's 4000-byte command.
 */
const KEY_COMMAND_BYTES = 3500

/** Several key events, in order, in as few `input keyevent` commands as the command length allows. */
export async function pressKeys(dev: DeviceShell, keys: Array<string | number>): Promise<void> {
  const resolved = keys.map((key) => resolveKey(key))
  await checkKeysKnown(dev, resolved)
  const codes = resolved.map((k) => k.word)
  let part: Array<string | number> = []
  let bytes = 0
  const send = async () => {
    if (part.length > 0) await dev.action(['input', 'keyevent', ...part], `input keyevent (${part.length} keys)`)
    part = []
    bytes = 0
  }
  for (const code of codes) {
    const size = (typeof code === 'number' ? String(code).length : Buffer.byteLength(shq(code))) + 1
    if (bytes + size > KEY_COMMAND_BYTES) await send()
    part.push(code)
    bytes += size
  }
  await send()
}

/** The modifier keys `input keycombination` is sent for each modifier: the left-hand one, as a keyboard has. */
const MODIFIER_KEY: Record<KeyModifier, string> = {
  ALT: 'KEYCODE_ALT_LEFT',
  CTRL: 'KEYCODE_CTRL_LEFT',
  SHIFT: 'KEYCODE_SHIFT_LEFT',
  META: 'KEYCODE_META_LEFT',
}

/**
 * KeyEvent meta state bits of a left-hand modifier held (`META_*_ON | META_*_LEFT_ON`, AOSP
 * frameworks/base/core/java/android/view/KeyEvent.java), as a keyboard's dispatcher stamps them on the key's events
 * and as InputShellCommand's keycombination stamps them (its MODIFIER map).
 */
export const MODIFIER_META: Record<KeyModifier, number> = {
  SHIFT: 0x01 | 0x40,
  ALT: 0x02 | 0x10,
  CTRL: 0x1000 | 0x2000,
  META: 0x10000 | 0x20000,
}

/** The API level whose `input` has `keycombination` (Android 13: InputShellCommand.runKeyCombination). */
export const KEY_COMBINATION_SDK = 33

/** What the keycombination script prints instead of sending, before Android 13: the marker, then the API level. */
const NO_KEY_COMBINATION = 'arc-no-keycombination:'

/**
 * One key with modifiers held, over plain ADB: `input keycombination MOD… KEY` (Android 13+). InputShellCommand's
 * sendKeyCombination sends every key-down first, each carrying the meta state of the modifiers before it, then the
 * key-ups, so the key's events say the modifiers are held. The release is asked in the same shell command (one round
 * trip: `getprop ro.build.version.sdk`, then a `case` on it). Before Android 13 `input` has no way to send a modifier
 * state (`input keyevent` stamps none, and a separate ALT press would only set a field's sticky state): nothing is
 * sent, and UNSUPPORTED with reason KEY_MODIFIERS_UNSUPPORTED; arc's on-device helper sends it on every release.
 */
export async function pressKeyCombination(dev: DeviceShell, modifiers: KeyModifier[], key: ResolvedKey): Promise<void> {
  await checkKeysKnown(dev, [key])
  const name = [...modifiers, key.label].join('+')
  const send = shellCommand(['input', 'keycombination', ...modifiers.map((m) => MODIFIER_KEY[m]), key.key])
  // API levels 33-999 take it; anything else (older, or no answer) prints the marker and the level it read.
  const script = `arc_sdk=$(getprop ro.build.version.sdk); case "$arc_sdk" in 3[3-9]|[4-9][0-9]|[1-9][0-9][0-9]) ${send} ;; *) echo ${NO_KEY_COMBINATION}"$arc_sdk" ;; esac`
  try {
    await dev.action([raw(script)], `input keycombination ${name}`)
  } catch (error) {
    const output = error instanceof DeviceCommandError ? String(error.details.output ?? '') : ''
    const marked = new RegExp(`${NO_KEY_COMBINATION}(\\d*)`).exec(output)
    if (!marked) throw error
    const sdk = Number(marked[1])
    const level = Number.isInteger(sdk) && sdk > 0 ? sdk : null
    throw new UnsupportedError(
      `${dev.serial} cannot press ${name} without arc's on-device helper: its \`input\` sends keys without modifiers before Android 13 (API ${KEY_COMBINATION_SDK}; this device: ${level ?? 'unknown'}): nothing was sent`,
      {
        actions: ['Use the helper (--helper auto or required): it sends modifiers on every release.'],
        details: {key: name, device_api: level, reason: 'KEY_MODIFIERS_UNSUPPORTED'},
      }
    )
  }
}

/**
 * How text is cut into `input text` arguments: at most TEXT_CHUNK characters each, and never with a literal
 * `%s` inside one (InputShellCommand turns every `%s` into a space), so `a%sb` goes as `a%` then `sb`. Spaces
 * become `%s`; a `%` before a space survives, because `%%s` types `% `.
 */
export function textCommands(text: string, chunk = TEXT_CHUNK): string[] {
  const pieces: string[] = []
  let start = 0
  for (let i = text.indexOf('%s'); i !== -1; i = text.indexOf('%s', i + 1)) {
    pieces.push(text.slice(start, i + 1))
    start = i + 1
  }
  pieces.push(text.slice(start))
  const out: string[] = []
  for (const piece of pieces)
    for (let i = 0; i < piece.length; i += chunk) out.push(piece.slice(i, i + chunk).replaceAll(' ', '%s'))
  return out.filter((p) => p !== '')
}

/** UNSUPPORTED for control characters and lone surrogates, which no typing path takes. */
export function refuseNeverTypable(text: string): void {
  const bad = neverTypable(text)
  if (bad.length === 0) return
  throw new UnsupportedError(
    `arc cannot type ${describeChars(bad)}: control characters are keys, not text, and a lone surrogate has no UTF-8; nothing was typed`,
    {
      actions: ['Split line breaks and tabs out into press-key ENTER / TAB calls.'],
      details: {characters: bad},
    }
  )
}

/** How inputText will type the text: `input` without asking the device, else `ime` after probing for ADBKeyBoard. */
/** How text reaches a field: `input text` (printable ASCII), or an input method's broadcast (ADBKeyBoard). */
export type TypingMethod = 'input' | 'ime'

/**
 * How inputText types `text`; fails with UNSUPPORTED, naming the characters, where nothing can type it (control
 * characters, or non-ASCII on a device without ADBKeyBoard). Probes the device only for text outside printable ASCII.
 */
export async function typingMethod(dev: DeviceShell, text: string): Promise<TypingMethod> {
  refuseNeverTypable(text)
  const bad = untypable(text)
  if (bad.length === 0) return 'input'
  if (!(await hasAdbKeyboard(dev))) throw noAdbKeyboard(bad)
  return 'ime'
}

/**
 * `input text` takes one argument, turns every `%s` into a space and can only type what the virtual keyboard map
 * has: printable ASCII, sent as textCommands cuts it, each argument quoted for the shell. Other text goes through
 * ADBKeyBoard (adb-keyboard.ts) where the device has it, else fails with UNSUPPORTED before a byte is typed.
 */
export async function inputText(dev: DeviceShell, text: string): Promise<void> {
  if (text === '') return
  refuseNeverTypable(text)
  const bad = untypable(text)
  if (bad.length > 0) return typeWithAdbKeyboard(dev, text, bad)
  for (const part of textCommands(text)) await dev.action(['input', 'text', part], 'input text')
}

const TEXT_CHUNK = 500

/** `cmd statusbar expand-notifications` (Android 8+); older devices get a swipe down from the top edge. */
export async function openNotifications(dev: DeviceShell): Promise<void> {
  await statusBar(dev, 'expand-notifications', 1)
}

/** `cmd statusbar expand-settings`; older devices get two swipes down from the top edge. */
export async function openQuickSettings(dev: DeviceShell): Promise<void> {
  await statusBar(dev, 'expand-settings', 2)
}

async function statusBar(dev: DeviceShell, command: string, fallbackSwipes: number): Promise<void> {
  const output = await dev.text(['cmd', 'statusbar', command])
  if (!isMissingCommand(output)) {
    if (/Exception|Error/i.test(output)) throw dev.failed(`cmd statusbar ${command}`, output)
    return
  }
  const {width, height} = await screenInfo(dev)
  const x = Math.round(width / 2)
  for (let i = 0; i < fallbackSwipes; i++) {
    await dev.action(['input', 'swipe', x, 0, x, Math.round(height * 0.6), 300], 'swipe down from the status bar')
  }
}
