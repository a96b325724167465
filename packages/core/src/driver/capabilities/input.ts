/** The input capability: touches, gestures, keys and text, as a finger and a keyboard would send them. */

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

/** How a gesture reached the device: several fingers via `sendevent`, one via `input motionevent` or swipes. */
export type GestureMethod = 'sendevent' | 'motionevent' | 'swipe'

/** How text reaches a field: `input text` (printable ASCII), or an input method's broadcast (ADBKeyBoard). */
export type TypingMethod = 'input' | 'ime'

export interface InputCapability {
  tap(point: Point): Promise<void>
  longPress(point: Point, durationMs: number): Promise<void>
  doubleTap(point: Point): Promise<void>
  swipe(from: Point, to: Point, durationMs: number): Promise<void>
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
   * How inputText types `text`: `input` (printable ASCII, `input text`) or `ime` (other text, through ADBKeyBoard's
   * broadcast). Fails with UNSUPPORTED, naming the characters, where nothing can type it: control characters, or
   * non-ASCII on a device without ADBKeyBoard. Asks the device (one probe) only for text outside printable ASCII.
   */
  typingMethod(text: string): Promise<TypingMethod>
  /**
   * Types text into the focused field at its cursor: printable ASCII with `input text` (spaces and a literal `%s`
   * arrive as typed), anything else through ADBKeyBoard, switched to for the call and the keyboard before it
   * restored, also on failure. What typingMethod refuses fails the same way, before anything is sent.
   */
  inputText(text: string): Promise<void>
}
