/** The input capability: touches, gestures, keys and text, as a finger and a keyboard would send them. */
import type {ScreenCapture} from './screen.js'

/** A point in device pixels, in the current orientation (the dump's bounds' space). */
export interface Point {
  x: number
  y: number
}

/** One point of a finger's path: device pixels, and milliseconds from the start of the gesture. */
export interface GesturePoint {
  x: number
  y: number
  time: number
}

/**
 * How a gesture reached the device: several fingers via `sendevent`, or via `inject` (InputManager.injectInputEvent
 * in arc's on-device helper), one via `input motionevent` or swipes.
 */
export type GestureMethod = 'sendevent' | 'motionevent' | 'swipe' | 'inject'

/** How a person's typing is paced: text the device types key by key goes in chunks, with a gap between them. */
export interface TypingPace {
  /** Characters per chunk. */
  chunk: number
  /** The gap before each chunk after the first, in milliseconds (asked anew each time). */
  gapMs(): number
  /** Ends the typing between chunks (the gap's wait throws the cancellation). */
  signal?: AbortSignal
  /** Told before each chunk (`typing 20/45`), or once for text that goes in one piece. */
  progress?(message: string): void
  /** Told after each chunk went: how many chunks went so far. */
  sent?(chunks: number): void
  /**
   * Asked before each chunk after the first (after its gap) with the screen as it is then, only where the device
   * has a cheap read of it (arc's on-device helper running: one request, no shell, no wait for the screen to
   * settle); elsewhere never. Throws to stop the typing: nothing more is sent.
   */
  check?(screen: ScreenCapture): void | Promise<void>
}

/** A modifier key held while another key is pressed (its left-hand key: ALT is KEYCODE_ALT_LEFT). */
export type KeyModifier = 'ALT' | 'CTRL' | 'SHIFT' | 'META'

export interface InputCapability {
  tap(point: Point): Promise<void>
  longPress(point: Point, durationMs: number): Promise<void>
  doubleTap(point: Point): Promise<void>
  /**
   * One finger from `from` to `to` over `durationMs`. Lifted while it moves, as `input swipe` lifts it, a scrolling
   * list takes the finger's speed and flings on by itself for up to a few seconds. `hold`: the finger stops and
   * stays still before it lifts, so the content moves as far as the finger took it and is at rest when the swipe
   * resolves (arc's scrolls: a read right after one sees where it stopped, and a touch right after it is not taken
   * by a list still moving). Where the device cannot hold (plain ADB), the swipe is `input swipe`'s, and the next
   * `uiautomator dump` waits for the list to come to rest.
   */
  swipe(from: Point, to: Point, durationMs: number, options?: {hold?: boolean}): Promise<void>
  /**
   * Plays finger paths (each at least 2 points, times increasing) as one gesture; resolves to the way it was
   * sent. Several paths need a device whose shell may write /dev/input (UNSUPPORTED otherwise).
   */
  gesture(paths: GesturePoint[][]): Promise<GestureMethod>
  /** Sends one key event: an Android keycode name (`KEYCODE_BACK`, `BACK`) or number. */
  pressKey(key: string | number): Promise<void>
  /**
   * Sends several key events in one device command (`input keyevent K1 K2 …`, split only when very long), in
   * order: cursor moves and deletes without one round trip per key.
   */
  pressKeys(keys: Array<string | number>): Promise<void>
  /**
   * Sends one key with modifiers held (ALT+DPAD_DOWN): the key's events carry the modifiers' meta state, as a
   * hardware keyboard's do. Through arc's on-device helper on every release (the key alone, stamped with the state:
   * no event for the modifier key); over plain ADB from Android 13 (`input keycombination`). Elsewhere UNSUPPORTED
   * (details.reason KEY_MODIFIERS_UNSUPPORTED), nothing sent.
   */
  pressKeyWith(modifiers: KeyModifier[], key: string | number): Promise<void>
  /**
   * Fails with UNSUPPORTED, naming the characters, where this device cannot type `text` (control characters;
   * over ADB, non-ASCII without ADBKeyBoard), and sends nothing: a typing tool asks before it touches the field.
   * Over ADB it asks the device (one probe) only for text outside printable ASCII.
   */
  checkTypable(text: string): Promise<void>
  /**
   * Types text into the focused field at its cursor. Over ADB: printable ASCII with `input text` (spaces and a
   * literal `%s` arrive as typed), paced by `pace` when given; anything else in one piece through ADBKeyBoard,
   * switched to for the call and the keyboard before it restored, also on failure. What checkTypable refuses fails
   * the same way, before anything is sent.
   */
  inputText(text: string, pace?: TypingPace): Promise<void>
  /**
   * Performs the focused text field's editor action, what the keyboard's action key does (search, send, go, done:
   * the field's `imeOptions`), which KEYCODE_ENTER is not (a TextView hands ENTER to its listener as IME_NULL). Over
   * ADB there is no way: arc's on-device helper does it as an accessibility service would
   * (AccessibilityAction.ACTION_IME_ENTER, Android 11+); elsewhere UNSUPPORTED, naming why.
   */
  pressEditorAction(): Promise<void>
}
