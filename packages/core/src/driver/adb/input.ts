/**
 * Touch, keys and text over `input` (adb.md §3.7), and the status bar panels. Every function here runs inside
 * the device's input queue (input-queue.ts), so actions from concurrent callers never interleave.
 */
import {UnsupportedError} from '../../errors/arc-error.js'
import type {Point} from '../device-driver.js'
import {resolveKey} from '../keycodes.js'
import {isMissingCommand, type DeviceShell} from './device-shell.js'
import {raw} from './shell-quote.js'
import {screenInfo} from './screen.js'

export async function tap(dev: DeviceShell, {x, y}: Point): Promise<void> {
  await dev.action(['input', 'tap', x, y], `input tap ${x} ${y}`)
}

/** A long press is a swipe that does not move, held for the duration (the `input` way; mobile-mcp does the same). */
export async function longPress(dev: DeviceShell, {x, y}: Point, durationMs: number): Promise<void> {
  await dev.action(['input', 'swipe', x, y, x, y, durationMs], `long press at (${x}, ${y})`)
}

/**
 * Two taps in one shell command, so only the device-side gap separates them. On Android 12+ `input` runs inside
 * system_server and the taps land well within the double-tap timeout; on Android ≤ 11 each `input` starts a VM
 * (0.3-1 s), so apps may see two single taps (docs/devices.md).
 */
export async function doubleTap(dev: DeviceShell, {x, y}: Point): Promise<void> {
  await dev.action(['input', 'tap', x, y, raw(';'), 'input', 'tap', x, y], `double tap at (${x}, ${y})`)
}

export async function swipe(dev: DeviceShell, from: Point, to: Point, durationMs: number): Promise<void> {
  await dev.action(['input', 'swipe', from.x, from.y, to.x, to.y, durationMs], `swipe from (${from.x}, ${from.y})`)
}

/** Sends one key event: the name as `KEYCODE_…` when given by name, else the number (keycodes.ts resolves both). */
export async function pressKey(dev: DeviceShell, key: string | number): Promise<void> {
  const {word} = resolveKey(key)
  await dev.action(['input', 'keyevent', word], `input keyevent ${word}`)
}

/**
 * `input text` takes one argument, turns every `%s` into a space and can only type what the virtual keyboard map
 * has: printable ASCII. arc sends spaces as `%s`, quotes the whole argument for the shell, refuses text it cannot
 * type faithfully (non-ASCII, control characters, a literal `%s`) with UNSUPPORTED, and sends long text in chunks.
 */
export async function inputText(dev: DeviceShell, text: string): Promise<void> {
  if (text === '') return
  const bad = [...text].find((ch) => ch < ' ' || ch > '~')
  if (bad !== undefined) {
    const code = `U+${(bad.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`
    throw new UnsupportedError(`\`input text\` cannot type ${code} (${JSON.stringify(bad)}): only printable ASCII goes through adb input`, {
      actions: ['Type non-ASCII text with an IME such as ADBKeyBoard, or split newlines into press-key ENTER calls.'],
    })
  }
  if (text.includes('%s')) {
    throw new UnsupportedError('`input text` turns "%s" into a space, so a literal "%s" cannot be typed in one call', {
      actions: ['Type "%" and "s" in separate calls.'],
    })
  }
  for (let i = 0; i < text.length; i += TEXT_CHUNK) {
    const chunk = text.slice(i, i + TEXT_CHUNK).replaceAll(' ', '%s')
    await dev.action(['input', 'text', chunk], 'input text')
  }
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
