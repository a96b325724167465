/**
 * Text outside printable ASCII, typed through ADBKeyBoard (github.com/senzhk/ADBKeyBoard), an input method whose
 * service registers a broadcast receiver while it runs: `ADB_INPUT_B64` with a `msg` extra of base64 UTF-8 is
 * committed into the focused field (since October 2018; `ADB_INPUT_TEXT` takes the text itself, which may not
 * pass through `am` intact outside ASCII from Android 8 on, so arc sends base64). Its receiver lives only while it is the current input method, so arc
 * switches to it for the call (`ime enable`/`ime set`), waits until the input method manager has bound it, sends
 * the broadcasts, and sets the keyboard that was current back, also when something failed.
 */
import {CancelledError, DeviceCommandError, UnsupportedError} from '../../errors/arc-error.js'
import {sleep} from '../../sleep.js'
import {describeChars} from '../typable.js'
import type {DeviceShell} from './device-shell.js'

export const ADB_KEYBOARD = 'com.android.adbkeyboard/.AdbIME'
const ADB_KEYBOARD_PACKAGE = 'com.android.adbkeyboard'
/** Where to get it: the project's releases (v2.5-dev registers its receiver exported, which Android 16 needs). */
export const ADB_KEYBOARD_URL = 'https://github.com/senzhk/ADBKeyBoard/releases'

/** UTF-8 bytes per broadcast: their base64 (a third longer) keeps each command well within adb's 4000 bytes. */
const CHUNK_BYTES = 1500
/** How long the input method may take to start after `ime set`, and how often arc looks. */
const BIND_TIMEOUT_MS = 5000
const BIND_POLL_MS = 100

/** `pkg/.Cls` and `pkg/pkg.Cls` name the same input method. */
function fullId(id: string): string {
  const slash = id.indexOf('/')
  if (slash < 0) return id
  const pkg = id.slice(0, slash)
  const cls = id.slice(slash + 1)
  return `${pkg}/${cls.startsWith('.') ? pkg + cls : cls}`
}

export const isAdbKeyboard = (id: string): boolean => fullId(id) === fullId(ADB_KEYBOARD)

/** The input method ids `ime list -s` prints, one a line. */
export function imeIds(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => /^[A-Za-z][\w.]*\/[\w.$]+$/.test(line))
}

/**
 * Whether `dumpsys input_method` shows ADBKeyBoard bound: its service line `mCurId=… mHaveConnection=true
 * mBoundToMethod=true` (Android 7-16 print it; its `mBoundToMethod` is set once the service connected, after its
 * onCreate registered the receiver). A dump without that line is taken at its `mCurMethodId=`.
 */
export function adbKeyboardBound(dump: string): boolean {
  const service = /^\s*mCurId=(\S+)(.*)$/m.exec(dump)
  if (service) return isAdbKeyboard(service[1] as string) && !/mBoundToMethod=(?!true\b)/.test(service[2] as string)
  const current = /^\s*mCurMethodId=(\S+)\s*$/m.exec(dump)
  return current !== null && isAdbKeyboard(current[1] as string)
}

/** The text as base64 of its UTF-8, cut between code points into pieces of at most `maxBytes` bytes. */
export function base64Chunks(text: string, maxBytes = CHUNK_BYTES): string[] {
  const pieces: string[] = []
  let piece = ''
  let bytes = 0
  for (const ch of text) {
    const n = Buffer.byteLength(ch)
    if (bytes + n > maxBytes && piece !== '') {
      pieces.push(piece)
      piece = ''
      bytes = 0
    }
    piece += ch
    bytes += n
  }
  if (piece !== '') pieces.push(piece)
  return pieces.map((p) => Buffer.from(p, 'utf8').toString('base64'))
}

/** The probe: whether the device has ADBKeyBoard among its input methods, enabled or not (`ime list -a -s`). */
export async function hasAdbKeyboard(dev: DeviceShell): Promise<boolean> {
  return imeIds(await dev.text(['ime', 'list', '-a', '-s'])).some(isAdbKeyboard)
}

/** UNSUPPORTED for text outside printable ASCII on a device without ADBKeyBoard. */
export function noAdbKeyboard(chars: string[]): UnsupportedError {
  return new UnsupportedError(
    `\`input text\` cannot type ${describeChars(chars)} (it types printable ASCII only), and this device has no ADBKeyBoard (${ADB_KEYBOARD}) to type it; nothing was typed`,
    {
      actions: [
        `Install ADBKeyBoard (an APK from ${ADB_KEYBOARD_URL}) with: arc app install keyboardservice-debug.apk; arc then switches to it for such text and back.`,
      ],
      details: {characters: chars, input_method: ADB_KEYBOARD},
    }
  )
}

/** Runs `ime VERB ADBKeyBoard` and fails unless it printed the word of success (`enabled`, `selected`, `disabled`). */
async function ime(dev: DeviceShell, verb: 'enable' | 'set' | 'disable', id: string): Promise<void> {
  const output = await dev.text(['ime', verb, id])
  // ime echoes the id (`Input method ID selected for user #0`), the device's own for the keyboard set back, and a
  // name like com.terror.keys holds "error": only ime's words around it count.
  const said = output.replaceAll(id, '')
  const done = {enable: /\benabled\b/, set: /\bselected\b/, disable: /\bdisabled\b/}[verb]
  if (!done.test(said) || /Unknown|cannot|Exception|Error/i.test(said)) throw dev.failed(`ime ${verb} ${id}`, output)
}

async function untilBound(dev: DeviceShell): Promise<void> {
  const deadline = Date.now() + BIND_TIMEOUT_MS
  while (!adbKeyboardBound(await dev.text(['dumpsys', 'input_method']))) {
    stopIfClosing(dev)
    if (Date.now() >= deadline) {
      throw new DeviceCommandError(
        `ADBKeyBoard was selected on ${dev.serial} but did not start within ${BIND_TIMEOUT_MS / 1000} s (dumpsys input_method does not show it bound); nothing was typed`,
        {
          actions: [
            'Check that a text field has focus, and that ADBKeyBoard starts: adb shell ime set ' + ADB_KEYBOARD,
          ],
        }
      )
    }
    await sleep(BIND_POLL_MS)
  }
}

/**
 * Stops a typing call whose driver is closing (Ctrl-C, the deadline): its keyboard is being set back, so it must
 * neither wait on for ADBKeyBoard nor send it text after the call has ended.
 */
function stopIfClosing(dev: DeviceShell): void {
  if (dev.server.shuttingDown)
    throw new CancelledError('typing was cut off; the keyboard is being set back, and nothing more is sent')
}

/** Sends the text as `ADB_INPUT_B64` broadcasts to ADBKeyBoard alone, each awaited until `am` says it completed. */
async function broadcast(dev: DeviceShell, text: string): Promise<void> {
  for (const msg of base64Chunks(text)) {
    stopIfClosing(dev)
    const output = await dev.text([
      'am',
      'broadcast',
      '-a',
      'ADB_INPUT_B64',
      '-p',
      ADB_KEYBOARD_PACKAGE,
      '--es',
      'msg',
      msg,
    ])
    if (!/^Broadcast completed: result=-?\d+/m.test(output)) throw dev.failed('am broadcast -a ADB_INPUT_B64', output)
  }
}

/** Sets the keyboard that was current back and disables ADBKeyBoard where arc enabled it: both tried, the first failure thrown. */
async function restore(dev: DeviceShell, previous: string, disable: boolean): Promise<void> {
  const steps = [
    () =>
      /^[A-Za-z][\w.]*\/[\w.$]+$/.test(previous)
        ? ime(dev, 'set', previous)
        : dev.text(['settings', 'delete', 'secure', 'default_input_method']),
    ...(disable ? [() => ime(dev, 'disable', ADB_KEYBOARD)] : []),
  ]
  const failures: unknown[] = []
  for (const step of steps) await step().catch((error: unknown) => failures.push(error))
  if (failures.length > 0) throw failures[0]
}

/**
 * Types `text` (anything but control characters and lone surrogates: the caller checked) through ADBKeyBoard:
 * UNSUPPORTED after the probe alone where the device has none.
 */
export async function typeWithAdbKeyboard(dev: DeviceShell, text: string, chars: string[]): Promise<void> {
  if (!(await hasAdbKeyboard(dev))) throw noAdbKeyboard(chars)
  const previous = (await dev.text(['settings', 'get', 'secure', 'default_input_method'])).trim()
  if (isAdbKeyboard(previous)) return broadcast(dev, text)
  const enable = !imeIds(await dev.text(['ime', 'list', '-s'])).some(isAdbKeyboard)
  // One restore, whoever runs it first: this function, or closing the driver when the call is cut off (Ctrl-C, the
  // command's deadline) while ADBKeyBoard is selected, so the device is never left on it.
  // A put-back whoever starts it, so a restore begun before the driver closed still sends its later steps after.
  let restoring: Promise<void> | undefined
  const putBack = dev.server.asPutBack(() => (restoring ??= restore(dev, previous, enable)))
  const unregister = dev.server.untilClosed(putBack)
  let failure: unknown
  try {
    if (enable) await ime(dev, 'enable', ADB_KEYBOARD)
    stopIfClosing(dev)
    await ime(dev, 'set', ADB_KEYBOARD)
    await untilBound(dev)
    await broadcast(dev, text)
  } catch (error) {
    failure = error
  }
  try {
    await putBack()
    unregister()
  } catch (error) {
    unregister()
    const what = failure === undefined ? 'the text was sent, but' : `typing failed (${(failure as Error).message}) and`
    throw new DeviceCommandError(
      `${what} the keyboard could not be set back to ${previous} on ${dev.serial}: ${(error as Error).message}`,
      {
        actions: [`Set it back by hand: adb -s ${dev.serial} shell ime set ${previous}`],
        cause: failure ?? error,
      }
    )
  }
  if (failure !== undefined) throw failure
}
