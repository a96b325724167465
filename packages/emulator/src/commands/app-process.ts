/**
 * `app_process`: how a phone runs Java from a dex without installing anything
 * (`CLASSPATH=/data/local/tmp/x.dex app_process / some.Main args`, AOSP frameworks/base/cmds/app_process). The
 * virtual device runs no Java, so it knows one program: arc's on-device helper, started by its entry point
 * `arc.helper.Main` from a class path file that holds that class. It then answers the helper's protocol (framed
 * requests on stdin, responses on stdout; the helper's Frames.java and Server.java describe it) from its own state:
 * the `<displays>` document its `uiautomator dump --windows` would write (after the helper's wait for the screen to
 * settle after an input, Settle.java, against the device's accessibility event clock), its clipboard, its text fields, its input
 * event log. It reads the frames itself; nothing of arc's host side is used to answer.
 *
 * What a phone decides, this decides too: one UiAutomation client at a time (the helper's read fails with
 * UIAUTOMATION_BUSY while another holds it, and `uiautomator dump` fails while the helper holds it, until the helper
 * lets go after `--idle-ms`); a class path without the class fails as ART does; hidden APIs a release lacks
 * (`device.hiddenApisMissing`) answer UNSUPPORTED; a touch (`tap`, `double-tap`, `swipe`, `gesture`) while the
 * display sleeps or a screensaver shows answers DISPLAY_OFF and reaches nothing (touchable()). A tap, double tap or swipe is recorded as
 * the same input events `input tap` / `input swipe` record, so the scenario and the demo app react alike.
 */
import {readFile} from 'node:fs/promises'

import {solidPng} from '../png.js'
import {modifiersOf} from '../text-fields.js'
import type {VirtualDevice} from '../virtual-device.js'
import {sleep, untilAborted, type CommandContext} from './types.js'
import {windowsDocument} from './windows-dump.js'

const HELPER_CLASS = 'arc.helper.Main'
const STATUS_OK = 0
const STATUS_ERROR = 1
const STATUS_HELLO = 2
const MAX_REQUEST = 4 << 20
const KEYCODE_PASTE = 279
/** The first API level whose KeyEvent has KEYCODE_PASTE (the helper's Typist.PASTE_SDK). */
const PASTE_SDK = 24
/** The helper's Settle: a read after an input waits for this long without accessibility events (device ms)… */
const SETTLE_QUIET_MS = 500
/** …at most this long from the read's start, then reads anyway and says `unsettled`. */
const SETTLE_BOUND_MS = 3000
/** The helper's operations that send input to the app in front (Server.acts). */
const ACTS = new Set(['tap', 'double-tap', 'swipe', 'gesture', 'key', 'type', 'ime-action'])

const USAGE = 'Usage: app_process [java-options] cmd-dir start-class-name [options]\n'

class HelperError extends Error {
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

/** The class path file holds `descriptor` (a dex's string table holds every class it defines by its descriptor). */
async function holdsClass(device: VirtualDevice, classPath: string, cwd: string, className: string): Promise<boolean> {
  const descriptor = Buffer.from(`L${className.replaceAll('.', '/')};`)
  for (const entry of classPath.split(':')) {
    if (entry === '') continue
    const bytes = await readFile(device.files.hostPath(entry, cwd)).catch(() => undefined)
    if (bytes && bytes.subarray(0, 4).toString('latin1') === 'dex\n' && bytes.includes(descriptor)) return true
  }
  return false
}

export async function appProcess(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1)
  let classPath = ctx.env.CLASSPATH ?? ''
  let i = 0
  for (; i < args.length && (args[i] as string).startsWith('-'); i++) {
    const m = /^-Djava\.class\.path=(.*)$/.exec(args[i] as string)
    if (m) classPath = m[1] as string
  }
  const parentDir = args[i++]
  while (i < args.length && (args[i] as string).startsWith('--')) i++
  const className = args[i++]
  if (parentDir === undefined || className === undefined) {
    ctx.err(USAGE)
    return 1
  }
  if (className !== HELPER_CLASS || !(await holdsClass(ctx.device, classPath, ctx.cwd, className))) {
    // The shape of ART's failure to find the start class on the class path (not a capture).
    ctx.err(
      `Exception in thread "main" java.lang.ClassNotFoundException: Didn't find class "${className}" on path: DexPathList[[${classPath ? `dex file "${classPath}"` : ''}]]\n`
    )
    return 1
  }
  return new EmulatedHelper(ctx, args.slice(i)).run()
}

/** arc's helper, as the virtual device runs it. */
class EmulatedHelper {
  private idleMs = 2000
  private idleTimer?: NodeJS.Timeout
  /** Disconnects the helper's UiAutomation while it holds one. */
  private letGo?: () => void
  /** When (wall clock, performance.now()) its UiAutomation connected: it sees the events sent from then on. */
  private connectedAt = Infinity
  /** When (wall clock) its last input ended (Server.lastInput). */
  private lastInput = -Infinity

  constructor(
    private readonly ctx: CommandContext,
    private readonly args: string[]
  ) {}

  private get device(): VirtualDevice {
    return this.ctx.device
  }

  async run(): Promise<number> {
    for (let i = 0; i < this.args.length; i++) {
      const value = this.args[i + 1]
      if (this.args[i] === '--idle-ms' && value !== undefined && /^\d{1,6}$/.test(value) && Number(value) <= 600000) {
        this.idleMs = Number(value)
        i++
      } else {
        this.ctx.err(`arc-helper: unknown argument "${this.args[i]}"\n`)
        return 2
      }
    }
    // app_process starts a VM before main() runs (timing.vmStartMs).
    await this.device.delay(this.device.timing.vmStartMs, this.ctx.signal)
    if (this.ctx.signal.aborted) return 137
    // KEYCODE_PASTE exists from Android 7.0 (API 24): before it the helper names `paste` missing, as AndroidDevice does.
    const missing = [...this.device.hiddenApisMissing, ...(this.sdk() < PASTE_SDK ? ['paste'] : [])].sort().join(',')
    this.respond(
      0,
      STATUS_HELLO,
      Buffer.from(`arc-helper 1\t${this.device.properties.get('ro.build.version.sdk') ?? '34'}\t${missing}`)
    )
    let pending = Buffer.alloc(0)
    try {
      for await (const chunk of this.ctx.stdinChunks()) {
        pending = Buffer.concat([pending, chunk])
        while (pending.length >= 4) {
          const length = pending.readUInt32BE(0)
          if (length < 5 || length > MAX_REQUEST) return 1 // a broken stream: the helper exits
          if (pending.length < 4 + length) break
          const body = pending.subarray(4, 4 + length)
          pending = pending.subarray(4 + length)
          const request = readRequest(body)
          if (!request) return 1
          if (!(await this.handle(request.id, request.words))) return 0
        }
      }
      return 0
    } finally {
      clearTimeout(this.idleTimer)
      this.release()
    }
  }

  private respond(id: number, status: number, payload: Buffer): void {
    const head = Buffer.alloc(9)
    head.writeUInt32BE(payload.length + 5, 0)
    head.writeUInt32BE(id, 4)
    head[8] = status
    this.ctx.out(Buffer.concat([head, payload]))
  }

  /** Runs one request; false after `quit`. */
  private async handle(id: number, words: string[]): Promise<boolean> {
    clearTimeout(this.idleTimer)
    const [op, ...args] = words as [string, ...string[]]
    // A scripted fault on `arc-helper OP` (scenario faults, addFault): `hang` stops answering, as a helper stuck in
    // a hidden API would, until the client gives up; `error` answers FAILED with the fault's message.
    const fault = this.device.takeFault(['arc-helper', op])
    if (fault?.kind === 'error') {
      this.respond(id, STATUS_ERROR, Buffer.from(`FAILED\t${fault.message ?? `${op} failed`}`))
      return op !== 'quit'
    }
    if (fault) {
      await untilAborted(this.ctx.signal)
      return false
    }
    try {
      this.respond(id, STATUS_OK, await this.run1(op, args))
    } catch (error) {
      const e = error instanceof HelperError ? error : new HelperError('FAILED', String(error))
      this.respond(id, STATUS_ERROR, Buffer.from(`${e.code}\t${e.message}`))
    } finally {
      // Refused or not, it may have reached the app: the next read waits for the screen it changes (Settle).
      if (ACTS.has(op)) this.lastInput = performance.now()
    }
    if (this.letGo) {
      if (this.idleMs === 0) this.release()
      else this.idleTimer = setTimeout(() => this.release(), this.idleMs)
    }
    return op !== 'quit'
  }

  /**
   * While a secure lock screen shows, AOSP ClipboardService.getPrimaryClip answers no clip whatever the clipboard
   * holds (`|| isDeviceLocked(...)`, Android 10 and later), and the helper, seeing no clip on a locked device, refuses
   * the read (and a paste, which reads the clipboard first to put it back) rather than call the clipboard empty.
   */
  private clipboardReadable(): void {
    if (this.device.keyguardShowing && this.device.lock === 'secure')
      throw new HelperError(
        'UNSUPPORTED',
        'the device is locked: Android hides the clipboard until it is unlocked (ClipboardService answers no clip while KeyguardManager.isDeviceLocked), so it was not read and nothing was set; unlock the device first'
      )
  }

  /** The release's API level, as the helper's hello reports it. */
  private sdk(): number {
    return Number(this.device.properties.get('ro.build.version.sdk') ?? '34')
  }

  private release(): void {
    this.letGo?.()
    this.letGo = undefined
  }

  private needs(api: 'uiautomation' | 'input' | 'clipboard'): void {
    if (this.device.hiddenApisMissing.has(api))
      throw new HelperError('UNSUPPORTED', `this release lacks the ${api} API an app_process program uses`)
    if (api !== 'uiautomation' || this.letGo) return
    const letGo = this.device.holdUiAutomation('arc-helper')
    if (!letGo) {
      throw new HelperError(
        'UIAUTOMATION_BUSY',
        `another tool holds UiAutomation (uiautomator dump, Appium, uiautomator2, Maestro, monkey): java.lang.IllegalStateException: UiAutomationService already registered! (${this.device.uiAutomationHolder})`
      )
    }
    this.letGo = letGo
    this.connectedAt = performance.now()
    // The process going away takes its UiAutomation with it (linkToDeath in the service).
    this.ctx.signal.addEventListener('abort', () => this.release(), {once: true})
  }

  private async run1(op: string, args: string[]): Promise<Buffer> {
    const count = (n: number) => {
      if (args.length !== n) throw new HelperError('BAD_REQUEST', `${op} takes ${n} argument(s), got ${args.length}`)
    }
    const device = this.device
    device.helperRequests.push([op, ...args])
    switch (op) {
      case 'ping':
        count(0)
        return Buffer.from('pong')
      case 'dump': {
        if (args.length > 1) throw new HelperError('BAD_REQUEST', `dump takes 0 or 1 argument(s), got ${args.length}`)
        const since = args.length === 1 ? wholeNumber(args[0], 'dump since', 0, 600000) : undefined
        this.needs('uiautomation')
        const head = await this.settle(
          since === undefined ? this.lastInput : Math.max(this.lastInput, performance.now() - since)
        )
        if (head === undefined) return Buffer.alloc(0)
        return Buffer.from(head + windowsDocument(device))
      }
      case 'screenshot':
        return this.screenshot(args)
      case 'ime-action': {
        count(0)
        // AccessibilityAction.ACTION_IME_ENTER exists from Android 11 (API 30); the helper refuses it before.
        const sdk = this.sdk()
        if (sdk < 30)
          throw new HelperError(
            'UNSUPPORTED',
            `the editor action (AccessibilityAction.ACTION_IME_ENTER) needs Android 11 (API 30); this is API ${sdk}`
          )
        this.needs('uiautomation')
        // findFocus(FOCUS_INPUT): the field with input focus; a control the arrow keys moved to is not one.
        const focus = device.fields.focused(device.screen)
        if (!focus) throw new HelperError('FAILED', 'no field has input focus: tap a text field first')
        device.recordInput({type: 'editor-action', field: focus.index})
        return Buffer.alloc(0)
      }
      case 'clipboard-get': {
        count(0)
        this.needs('clipboard')
        this.clipboardReadable()
        const clip = device.clipboard
        if (clip === null) return Buffer.from([0])
        if (!('text' in clip)) return Buffer.from([2])
        return Buffer.concat([Buffer.from([1]), Buffer.from(clip.text)])
      }
      case 'clipboard-set':
        count(1)
        this.needs('clipboard')
        device.clipboard = {text: args[0] as string}
        return Buffer.alloc(0)
      case 'type': {
        count(1)
        if (args[0] === '') throw new HelperError('BAD_REQUEST', 'the text to type is empty')
        // KEYCODE_PASTE is API 24 (AOSP KeyEvent.java; Android 6.0 ends at KEYCODE_MEDIA_STEP_BACKWARD, 275): an
        // older phone's field takes the key as an unknown code and pastes nothing, so the helper refuses first.
        if (this.sdk() < PASTE_SDK)
          throw new HelperError(
            'UNSUPPORTED',
            `typing by paste needs KEYCODE_PASTE, which Android has from 7.0 (API ${PASTE_SDK}); this is API ${this.sdk()}: nothing was typed`
          )
        this.needs('clipboard')
        this.needs('input')
        this.clipboardReadable()
        const saved = device.clipboard
        device.clipboard = {text: args[0] as string}
        device.recordInput({type: 'paste', text: args[0] as string})
        device.clipboard = saved
        return Buffer.from('restored')
      }
      case 'key': {
        // `key CODE` or `key CODE META`: META is the KeyEvent meta state the key's events carry (the helper's
        // Server.java reads it before the code, Keys.press sends no event for the modifier keys themselves).
        if (args.length !== 1 && args.length !== 2)
          throw new HelperError('BAD_REQUEST', `key takes 1 or 2 arguments (key code, meta state), got ${args.length}`)
        this.needs('input')
        const meta = args.length === 2 ? wholeNumber(args[1], 'meta state', 0, 2147483647) : 0
        const code = /^\d{1,4}$/.test(args[0] as string) ? Number(args[0]) : NaN
        if (!(code <= 1000))
          throw new HelperError('BAD_REQUEST', `key code is "${args[0]}"; a whole number from 0 to 1000 is allowed`)
        // A field pastes on KEYCODE_PASTE only with no modifier held (TextView.doKeyDown: `event.hasNoModifiers()
        // && canPaste()`); with one it is a key like any other.
        if (
          code === KEYCODE_PASTE &&
          modifiersOf(meta) === 'none' &&
          this.sdk() >= PASTE_SDK &&
          device.clipboard &&
          'text' in device.clipboard
        )
          device.recordInput({type: 'paste', text: device.clipboard.text})
        else device.keyEvent(code, {meta})
        return Buffer.alloc(0)
      }
      case 'gesture':
        this.needs('input')
        await this.gesture(args)
        return Buffer.alloc(0)
      case 'tap': {
        count(2)
        const [x, y] = [coordinate(args[0], 'tap x'), coordinate(args[1], 'tap y')]
        this.touchable()
        device.recordInput({type: 'tap', x, y})
        return Buffer.alloc(0)
      }
      case 'double-tap': {
        count(2)
        const [x, y] = [coordinate(args[0], 'double-tap x'), coordinate(args[1], 'double-tap y')]
        this.touchable()
        device.recordInput({type: 'tap', x, y})
        // The helper's second tap comes DOUBLE_TAP_GAP_MS (100) after the first (Gesture.java).
        await device.delay(100, this.ctx.signal)
        if (!this.ctx.signal.aborted) device.recordInput({type: 'tap', x, y})
        return Buffer.alloc(0)
      }
      case 'swipe': {
        count(5)
        const [x1, y1, x2, y2] = [0, 1, 2, 3].map((i) =>
          coordinate(args[i], `swipe ${i % 2 ? 'y' : 'x'}${(i >> 1) + 1}`)
        )
        const durationMs = wholeNumber(args[4], 'swipe duration', 0, 60000)
        this.touchable()
        device.recordInput({type: 'swipe', x1: x1!, y1: y1!, x2: x2!, y2: y2!, durationMs})
        // The finger stays down for the duration; the helper answers once it is lifted.
        await device.delay(durationMs, this.ctx.signal)
        return Buffer.alloc(0)
      }
      case 'release': {
        count(0)
        const held = this.letGo !== undefined
        this.release()
        return Buffer.from(held ? 'released' : 'not-held')
      }
      case 'quit':
        count(0)
        return Buffer.alloc(0)
      default:
        throw new HelperError('BAD_REQUEST', `unknown operation "${op}"`)
    }
  }

  /**
   * The helper's Settle on the virtual device's event clock: after an input (`input`, wall clock; the helper's own,
   * or the host's `dump SINCE_MS`) less than SETTLE_BOUND_MS old, waits until SETTLE_QUIET_MS passed without an
   * accessibility event its UiAutomation saw (those since it connected) counted from the later of the two, at most
   * SETTLE_BOUND_MS; device ms, so timing.scale applies. The reply's head line: `settled` or `unsettled`, a tab, the
   * ms waited. Undefined when the client went away meanwhile.
   */
  private async settle(input: number): Promise<string | undefined> {
    const device = this.device
    const quiet = SETTLE_QUIET_MS * device.timing.scale
    const bound = SETTLE_BOUND_MS * device.timing.scale
    const start = performance.now()
    if (start - input >= bound) return 'settled\t0\n'
    const deadline = start + bound
    for (;;) {
      const event = device.lastAccessibilityEvent()
      const last = Math.max(input, event >= this.connectedAt ? event : -Infinity)
      const now = performance.now()
      const waited = Math.round(now - start)
      if (now - last >= quiet) return `settled\t${waited}\n`
      if (now >= deadline) return `unsettled\t${waited}\n`
      await sleep(Math.max(1, Math.min(last + quiet, deadline) - now), this.ctx.signal)
      if (this.ctx.signal.aborted) return undefined
    }
  }

  /**
   * `screenshot MAXW MAXH QUALITY [png|jpeg]`: UiAutomation.takeScreenshot of display 0, as the helper's
   * AndroidDevice.screenshot treats it: scaled by the one factor that fits MAXW x MAXH (0: no limit on that side),
   * never enlarged, each side Math.round'ed and at least 1, with createScaledBitmap's bilinear filter; then
   * Bitmap.compress as a PNG or a JPEG of QUALITY (bitmap-compress.ts). The pixels are the ones screencap gives: black
   * for a FLAG_SECURE window and a sleeping display, as the platform's capture is. A full-size PNG is the screen's
   * own PNG, untouched.
   */
  private async screenshot(args: string[]): Promise<Buffer> {
    if (args.length !== 3 && args.length !== 4)
      throw new HelperError('BAD_REQUEST', `screenshot takes 3 or 4 argument(s), got ${args.length}`)
    const number = (value: string, what: string, min: number, max: number) => {
      const n = /^\d{1,6}$/.test(value) ? Number(value) : NaN
      if (!(n >= min && n <= max))
        throw new HelperError('BAD_REQUEST', `${what} is "${value}"; a whole number from ${min} to ${max} is allowed`)
      return n
    }
    const maxWidth = number(args[0] as string, 'screenshot max width', 0, 100000)
    const maxHeight = number(args[1] as string, 'screenshot max height', 0, 100000)
    const quality = number(args[2] as string, 'screenshot quality', 1, 100)
    const format = args[3] ?? 'jpeg'
    if (format !== 'png' && format !== 'jpeg')
      throw new HelperError('BAD_REQUEST', `screenshot format is "${format}"; png or jpeg is allowed`)
    this.needs('uiautomation')
    const device = this.device
    const {width, height} = device.screen
    const png = device.capturesBlack ? solidPng(width, height, 0) : await device.screen.png()
    let k = 1
    if (maxWidth > 0 && width > maxWidth) k = Math.min(k, maxWidth / width)
    if (maxHeight > 0 && height > maxHeight) k = Math.min(k, maxHeight / height)
    if (k === 1 && format === 'png') return png
    const size =
      k < 1 ? {width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k))} : {width, height}
    // Without the canvas library's native binary the virtual device cannot encode: FAILED, as a phone's helper says
    // when Bitmap.compress fails, and arc falls back to screencap.
    const encoder = await import('../bitmap-compress.js').catch((error: unknown) => {
      throw new HelperError('FAILED', `${format.toUpperCase()} compression failed: ${String(error)}`)
    })
    return encoder.scaleAndCompress(png, size, format, quality)
  }

  /**
   * What the helper checks before any touch, after the request's words (Server.touch): the device must be
   * interactive, since the input dispatcher passes an injected touch to no window while it is not (AOSP
   * frameworks/base services/core/jni/com_android_server_input_InputManagerService.cpp,
   * NativeInputManager::interceptMotionBeforeQueueing: injected events get POLICY_FLAG_PASS_TO_USER only while
   * interactive), so it answers DISPLAY_OFF and records nothing. A release that refuses the shell's injection
   * (MIUI's "USB debugging (Security settings)" off) fails the first event, which the helper reports as UNSUPPORTED
   * (nothing was injected), with the SecurityException `input` prints there. While a screensaver shows the device
   * is interactive (AOSP PowerManagerInternal.isInteractive: AWAKE or DREAMING) but the dream's window takes the
   * touch and ends (DreamService.dispatchTouchEvent), so the helper asks IDreamManager.isDreaming too and answers
   * DISPLAY_OFF, the screensaver named.
   */
  private touchable(): void {
    this.needs('input')
    if (!this.device.awake)
      throw new HelperError(
        'DISPLAY_OFF',
        'the display is off (the device is not interactive): the touch would reach no window, so nothing was injected'
      )
    if (this.device.dreaming)
      throw new HelperError(
        'DISPLAY_OFF',
        'a screensaver shows (the device is dreaming): the touch would go to the dream, not the app, so nothing was injected'
      )
    if (!this.device.usbDebuggingSecurity)
      throw new HelperError(
        'UNSUPPORTED',
        'nothing was injected: injectInputEvent failed: java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.'
      )
  }

  /**
   * Plays finger paths at their real times as the input manager would receive them, recording each motion event; a
   * one-finger gesture that stays within touch slop is also the tap an app sees, one that travels is a swipe.
   */
  private async gesture(words: string[]): Promise<void> {
    if (words.length === 0 || words.length > 10)
      throw new HelperError('BAD_REQUEST', `a gesture has 1 to 10 paths, got ${words.length}`)
    const paths = words.map((word, index) => {
      const points = word.split(';').map((p) => p.split(',').map((v) => (/^-?\d+$/.test(v) ? Number(v) : NaN)))
      if (points.length < 2 || points.some((p) => p.length !== 3 || p.some((v) => Number.isNaN(v)))) {
        throw new HelperError('BAD_REQUEST', `path ${index} is "${word}"; a path is x,y,t;x,y,t with at least 2 points`)
      }
      for (let k = 1; k < points.length; k++) {
        if ((points[k]![2] as number) <= (points[k - 1]![2] as number))
          throw new HelperError('BAD_REQUEST', `path ${index} point ${k}: times must increase`)
      }
      return points as Array<[number, number, number]>
    })
    this.touchable()
    const times = [...new Set(paths.flatMap((p) => p.map((q) => q[2])))].sort((a, b) => a - b)
    const start = Date.now()
    const down: number[] = []
    const at = (f: number, t: number) => {
      const p = paths[f] as Array<[number, number, number]>
      let last = p[0] as [number, number, number]
      for (const q of p) {
        if (q[2] > t) {
          const k = (t - last[2]) / (q[2] - last[2])
          return {id: f, x: Math.round(last[0] + (q[0] - last[0]) * k), y: Math.round(last[1] + (q[1] - last[1]) * k)}
        }
        last = q
      }
      return {id: f, x: last[0], y: last[1]}
    }
    const event = (action: string, t: number) =>
      this.device.recordInput({type: 'touch', action, pointers: down.map((f) => at(f, t)), time: t})
    let last = 0
    for (const t of times) {
      await sleep(Math.max(0, start + t - Date.now()), this.ctx.signal)
      if (this.ctx.signal.aborted) {
        // The host's stream ended mid-gesture: on a phone arc's start command ignores the PTY's SIGHUP (`trap '' HUP`),
        // so the helper sees its input end and lifts the fingers still down with one ACTION_CANCEL stamped at the last
        // event (the helper's Server.java, play; Gesture.cancelAfter: only the pointers down), never an ACTION_UP.
        if (down.length > 0) event('CANCEL', last)
        return
      }
      last = t
      paths.forEach((p, f) => {
        if (p[0]![2] === t) {
          down.push(f)
          event(down.length === 1 ? 'DOWN' : 'POINTER_DOWN', t)
        }
      })
      if (paths.some((p, f) => down.includes(f) && p[0]![2] !== t && p.some((q) => q[2] === t))) event('MOVE', t)
      paths.forEach((p, f) => {
        if (p.at(-1)![2] !== t) return
        event(down.length === 1 ? 'UP' : 'POINTER_UP', t)
        down.splice(down.indexOf(f), 1)
      })
    }
    if (paths.length === 1) {
      const p = paths[0] as Array<[number, number, number]>
      const [x1, y1, t1] = p[0] as [number, number, number]
      const [x2, y2, t2] = p.at(-1) as [number, number, number]
      // Touch slop: 8 dp (ViewConfiguration.TOUCH_SLOP) at the virtual device's density.
      const slop = (8 * (this.device.wmDensity ?? this.device.screen.density)) / 160
      if (Math.hypot(x2 - x1, y2 - y1) <= slop) this.device.recordInput({type: 'tap', x: x1, y: y1})
      else
        this.device.recordInput({
          type: 'swipe',
          x1,
          y1,
          x2,
          y2,
          durationMs: t2 - t1,
          velocity: liftVelocity(p),
          liftInMs: 0,
        })
    }
  }
}

/**
 * How fast a finger moved (px/s) when it lifted, as the VelocityTracker an app asks at ACTION_UP sees it: 0 when it
 * had stood still for ASSUME_POINTER_STOPPED_TIME (40 ms) or more before lifting (AOSP frameworks/native
 * libs/input/VelocityTracker.cpp clears its history after such a pause), else its speed over its last move.
 */
export function liftVelocity(path: Array<[number, number, number]>): number {
  const [x, y, t] = path.at(-1) as [number, number, number]
  let k = path.length - 1
  while (k > 0 && path[k - 1]![0] === x && path[k - 1]![1] === y) k--
  if (k === 0 || t - path[k]![2] >= 40) return 0
  const [px, py, pt] = path[k - 1] as [number, number, number]
  const [qx, qy, qt] = path[k] as [number, number, number]
  return (Math.hypot(qx - px, qy - py) * 1000) / Math.max(1, qt - pt)
}

/** A whole number request word within a range, else BAD_REQUEST in the helper's words (Numbers.java). */
function wholeNumber(word: string | undefined, what: string, min: number, max: number): number {
  const n = word !== undefined && /^-?\d{1,12}$/.test(word) ? Number(word) : NaN
  if (!(n >= min && n <= max))
    throw new HelperError('BAD_REQUEST', `${what} is "${word ?? ''}"; a whole number from ${min} to ${max} is allowed`)
  return n
}

/** A touch's coordinate, as the helper takes it: a whole pixel from 0 to 100000. */
function coordinate(word: string | undefined, what: string): number {
  return wholeNumber(word, what, 0, 100000)
}

/** One request body: u32 id, u8 word count, then each word as u32 length and UTF-8; undefined when malformed. */
function readRequest(body: Buffer): {id: number; words: string[]} | undefined {
  if (body.length < 5) return undefined
  const id = body.readUInt32BE(0)
  const count = body[4] as number
  if (count === 0) return undefined
  const words: string[] = []
  let at = 5
  for (let i = 0; i < count; i++) {
    if (at + 4 > body.length) return undefined
    const n = body.readUInt32BE(at)
    at += 4
    if (at + n > body.length) return undefined
    const word = body.subarray(at, at + n)
    at += n
    const text = word.toString('utf8')
    if (!Buffer.from(text, 'utf8').equals(word)) return undefined // not UTF-8: the helper's decoder refuses it
    words.push(text)
  }
  return at === body.length ? {id, words} : undefined
}
