/**
 * The live device driver: an adb device reached through an adb server (local, remote, an STF farm's or
 * `arc emulate`). Each capability lives in its own module; this class holds the per-device state and puts every
 * input action through the device's queue.
 */
import type {
  AppFilter,
  AppInfo,
  CapabilityReport,
  Degrees,
  DeviceDriver,
  DeviceInfo,
  FileEntry,
  FileStat,
  FollowQuery,
  GestureMethod,
  GesturePoint,
  InstallOptions,
  KeyboardState,
  KeyModifier,
  LaunchOptions,
  LogEvent,
  LogQuery,
  LogResult,
  Point,
  PowerState,
  RotationState,
  ScreenCapture,
  ShellOutput,
  TransferWatch,
  TypingPace,
  WindowInfo,
  ScreenshotWant,
} from '../device-driver.js'
import type {Geometry} from './screen-geometry.js'
import {DeviceCommandError, InvalidInputError, UnsupportedError} from '../../errors/arc-error.js'
import {sleep} from '../../sleep.js'
import {untypable} from '../typable.js'
import {resolveKey} from '../keycodes.js'
import type {AdbServer} from './adb-client.js'
import * as appManage from './app-manage.js'
import * as apps from './apps.js'
import * as control from './device-control.js'
import {DeviceShell} from './device-shell.js'
import * as clipboard from './clipboard.js'
import {probe} from './doctor.js'
import * as files from './files.js'
import {gesture} from './gesture.js'
import {noteAction} from './action-marks.js'
import {gestureMs, gestureWords, HelperBackend, helperClipboard, helperLimit} from './helper-backend.js'
import {HelperFailure, runningHelperSession, type HelperMode, type HelperSession} from './helper-session.js'
import * as input from './input.js'
import {withDeviceLock} from '../device-lock.js'
import {clearLogs, followLogs} from './follow-logs.js'
import {readLogs} from './logs.js'
import {keyboardWindowShown} from '../keyboard-state.js'
import {parseInputShown} from './parse-input-method.js'
import * as screen from './screen.js'
import {treelessWindows} from '../../screen/window-metadata.js'
import {geometryFor, type GeometryMemory} from './screen-geometry.js'
import {screenRecord} from './screenrecord.js'
import {startActivity} from './start-activity.js'

/** The critical section's key: one per adb server (loopback names as one) and serial. */
export function lockKey(host: string, port: number, serial: string): string {
  return `${serverName(host, port)}/${serial}`
}

/** An adb server as a person means it: `localhost` and `127.0.0.1` are one (lockKey, DeviceDriver.adbServer). */
function serverName(host: string, port: number): string {
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host)
  return `${loopback ? '127.0.0.1' : host.toLowerCase()}:${port}`
}

/** What an AdbDriver is opened with. */
export interface AdbDriverOptions {
  /** Whether the on-device helper serves what it can (helper-backend.ts); default `off`. */
  helper?: HelperMode
  /** How long the helper keeps UiAutomation after a read (device-helper.ts helperHoldMs). */
  helperHoldMs?: number
  /**
   * The host runs many calls in one process (`arc batch`, `arc test`, `arc mcp serve`), so the helper's start is
   * paid once: touches go through it (AdbDriver.touchesViaHelper). Default false (a one-shot command).
   */
  resident?: boolean
}

/** The helper's gap between a double tap's two taps (Gesture.java DOUBLE_TAP_GAP_MS): its request lasts that long. */
const DOUBLE_TAP_GAP_MS = 100

/**
 * A point in whole pixels, as the helper's requests carry it: the pixel the point lies in (floor), so a point the
 * on-screen check passed (x < width) stays on the screen; rounding sent 1079.6 on a 1080-wide screen to 1080, where
 * no window is and the touch is dropped.
 */
/**
 * How long a held swipe's finger stays still before it lifts. A VelocityTracker that gets no movement for
 * ASSUME_POINTER_STOPPED_TIME (40 ms) takes the pointer as stopped and forgets its history (AOSP frameworks/native
 * libs/input/VelocityTracker.cpp), so the lift measures no speed and RecyclerView, AbsListView and ScrollView do not
 * fling (they fling from ACTION_UP at ViewConfiguration's minimum fling velocity or more).
 */
const HOLD_BEFORE_LIFT_MS = 100
/** A held swipe reports where the finger is at a 60 Hz touchscreen's pace, as the helper's own swipe does. */
const HELD_SWIPE_FRAME_MS = 16

/**
 * The helper's one-finger gesture path (`x,y,t;…`) for a held swipe: the finger along the straight line from `a` to
 * `b` over `ms`, a point per frame, then still at `b` until HOLD_BEFORE_LIFT_MS later, when it lifts.
 */
export function heldSwipeWord(a: {x: number; y: number}, b: {x: number; y: number}, ms: number): string {
  const points: string[] = [`${a.x},${a.y},0`]
  for (let t = HELD_SWIPE_FRAME_MS; t < ms; t += HELD_SWIPE_FRAME_MS) {
    const k = t / ms
    points.push(`${Math.round(a.x + (b.x - a.x) * k)},${Math.round(a.y + (b.y - a.y) * k)},${t}`)
  }
  points.push(`${b.x},${b.y},${Math.max(1, ms)}`, `${b.x},${b.y},${Math.max(1, ms) + HOLD_BEFORE_LIFT_MS}`)
  return points.join(';')
}

function whole(point: Point): {x: number; y: number} {
  return {x: Math.floor(point.x), y: Math.floor(point.y)}
}

/** The helper's answers that come before it injects anything (helper-session.ts lists its refusal codes). */
const REFUSED_BEFORE_ACTING = new Set(['BAD_REQUEST', 'UNSUPPORTED', 'UIAUTOMATION_BUSY'])

export class AdbDriver implements DeviceDriver {
  readonly serial: string
  readonly adbServer: string
  readonly shell: DeviceShell
  /** What the device showed of its uiautomator (`--windows`, `/dev/tty`), shared by this process's drivers of it. */
  private readonly dumpState: screen.DumpState
  /** The screen's size and rotation as last read, shared by this process's drivers of the device (screen-geometry.ts). */
  private readonly geometry: GeometryMemory
  /** The on-device helper next to ADB, per capability (helper-backend.ts); `off` unless the caller chose a mode. */
  readonly helper: HelperBackend
  /**
   * Whether this driver serves a resident host (`arc batch`, `arc test`, `arc mcp serve`: AdbDriverOptions.resident),
   * where the helper's start is paid once for many calls, so touches go through it (touchesViaHelper).
   */
  readonly resident: boolean
  /** This driver's last screen read, whose size, foreground and window manager a check between typed chunks reuses. */
  private lastCapture?: ScreenCapture

  constructor(
    readonly server: AdbServer,
    serial: string,
    options: AdbDriverOptions = {}
  ) {
    this.serial = serial
    this.adbServer = serverName(server.host, server.port)
    this.shell = new DeviceShell(server, serial)
    this.dumpState = screen.dumpStateFor(this.shell.key)
    this.geometry = geometryFor(this.shell.key)
    this.helper = new HelperBackend(this.shell, options.helper ?? 'off', options.helperHoldMs)
    this.resident = options.resident ?? false
  }

  /**
   * A request that changes the device (a paste, a gesture) sent to the helper: once it was sent, the helper may have
   * acted, whatever it answers after (a paste key injected but not confirmed within the dispatcher's wait is still
   * delivered), so that is a device error, never a fallback that would act twice. Only the refusals the helper gives
   * before it injects anything (a malformed or unsupported request, UiAutomation held elsewhere) let ADB try.
   */
  private async once(session: HelperSession, words: string[], extraMs = 0, touch?: string): Promise<Buffer> {
    try {
      return await session.request(words, helperLimit(this.shell, extraMs))
    } catch (error) {
      // The helper checks the display (and for a screensaver, its message says so) before it injects a touch:
      // refused, nothing was sent (as input.ts's gate).
      if (touch && error instanceof HelperFailure && error.code === 'DISPLAY_OFF')
        throw input.displayOff(this.serial, touch, error.message.startsWith('a screensaver shows'))
      if (error instanceof HelperFailure && !REFUSED_BEFORE_ACTING.has(error.code)) {
        throw new DeviceCommandError(
          `the on-device helper failed during \`${words[0]}\` on ${this.serial}, after it may have acted: ${error.message}`,
          {
            details: {serial: this.serial},
            actions: ['Read the screen to see whether it took effect before trying again.'],
          }
        )
      }
      throw error
    }
  }

  /** Aborted by close(): a call still waiting for the device leaves the queue (a cancelled tool call closes its driver). */
  private readonly closing = new AbortController()
  /** Paths whose last STAT through this driver found nothing, until it writes, makes or deletes anything (statFile). */
  private readonly statFoundNothing = new Set<string>()

  /**
   * The device's critical section (device-lock.ts), keyed by adb server and serial as a person means them:
   * `localhost` and `127.0.0.1` are one server.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return withDeviceLock(lockKey(this.server.host, this.server.port, this.serial), work, this.closing.signal)
  }

  /**
   * Input actions run one at a time per device, in the device's critical section. When one ends, failed or not (it
   * may have reached the app), the helper's next read waits for the screen it changed to settle (noteAction).
   */
  private act<T>(action: (dev: DeviceShell) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      try {
        return await action(this.shell)
      } finally {
        await noteAction(this.shell.key)
      }
    })
  }

  /** An action that can change the screen's size or rotation: what was remembered of them is forgotten when it ends. */
  private reshape<T>(action: (dev: DeviceShell) => Promise<T>): Promise<T> {
    return this.act(async (dev) => {
      try {
        return await action(dev)
      } finally {
        this.geometry.forget()
      }
    })
  }

  /** A read that learns the screen's geometry renews what is remembered of it. */
  private async renewing<T>(read: Promise<T>, started: number, geometry: (value: T) => Geometry): Promise<T> {
    const value = await read
    this.geometry.keep(started, geometry(value))
    return value
  }

  captureScreen(): Promise<ScreenCapture> {
    return this.capture()
  }

  /**
   * `known`: a window-manager reading just taken (windowInfoOrCapture), reused instead of read again. In the
   * critical section: Android runs one UiAutomation at a time, so two dumps never overlap.
   */
  private capture(known?: screen.WindowState): Promise<ScreenCapture> {
    return this.exclusive(() => {
      const started = this.geometry.begin()
      const dumper = (uiautomator: () => Promise<screen.Dump>) =>
        this.helper.serve('screen', (session) => this.helper.dump(session), uiautomator)
      const read = this.renewing(
        screen.captureScreen(this.shell, this.dumpState, known, dumper),
        started,
        (c) => c.screen
      )
      return read.then((capture) => (this.lastCapture = capture))
    })
  }

  /**
   * The screen as it is now, for a check between typed chunks (TypingPace.check), where that is cheap: the running
   * on-device helper's dump of every window (one request on its open stream, 5-40 ms on a phone; no shell, no
   * uiautomator), taken as it is, with the screen size, foreground and window manager of this driver's last read.
   * Not waited for to settle after the chunk arc sent (`dump` without SINCE_MS; the helper still waits after a touch
   * of its own less than 3 s old, Settle.java): `input text` returns once the app has handled every key
   * (InputShellCommand.injectKeyEvent injects with INJECT_INPUT_EVENT_MODE_WAIT_FOR_FINISH), so a focus the app moved
   * while handling them shows. Undefined where the helper is off, not running, did not serve this driver's last
   * read, or fails now: no check then (a failed check is no reason to stop typing).
   */
  private async quickCapture(): Promise<ScreenCapture | undefined> {
    const last = this.lastCapture
    const running = runningHelperSession(this.shell)
    if (!last || !running || this.helper.mode === 'off' || this.helper.used.get('screen')?.backend !== 'helper')
      return undefined
    try {
      const dump = await this.exclusive(async () => this.helper.dump(await running, {settle: false}))
      const listed = dump.hierarchy.listedWindows
      const allWindows = listed ? treelessWindows(listed).length === 0 : last.allWindows
      return {...last, xml: dump.xml, hierarchy: dump.hierarchy, allWindows}
    } catch (error) {
      if (error instanceof HelperFailure) return undefined
      throw error
    }
  }

  /** What served this driver's calls the helper could take; undefined with the helper off (ADB is the only way). */
  served(): Record<string, {by: 'helper' | 'adb'; ms: number; fallback?: string; settled?: false}> | undefined {
    if (this.helper.mode === 'off' || this.helper.used.size === 0) return undefined
    return Object.fromEntries(
      [...this.helper.used].map(([capability, use]) => [
        capability,
        {
          by: use.backend,
          ms: Math.round(use.ms),
          ...(use.fallback === undefined ? {} : {fallback: use.fallback}),
          ...(use.unsettledMs === undefined ? {} : {settled: false}),
        },
      ])
    )
  }

  /**
   * An image of the screen: through the helper where it runs (UiAutomation.takeScreenshot, scaled and encoded on the
   * device as `want` asks; in the critical section, as it holds UiAutomation), else the full-size PNG of
   * `screencap -p` (screen.ts), which the caller fits host-side.
   */
  screenshot(want?: ScreenshotWant): Promise<Buffer> {
    if (this.helper.mode === 'off') return screen.screenshot(this.shell)
    return this.exclusive(() =>
      this.helper.serve(
        'screenshot',
        (session) => this.helper.screenshot(session, want),
        () => screen.screenshot(this.shell)
      )
    )
  }

  /**
   * Screen size in the current orientation (the size in force, overrides included, turned by the rotation): as last
   * read in this process where nothing since can have changed it (screen-geometry.ts), else read (`fresh` always reads).
   */
  async screenSize(options: {fresh?: boolean} = {}): Promise<{width: number; height: number; remembered?: boolean}> {
    const known = options.fresh ? undefined : this.geometry.get()
    if (known) return {width: known.width, height: known.height, remembered: true}
    const started = this.geometry.begin()
    const {width, height} = await this.renewing(screen.screenInfo(this.shell), started, (g) => g)
    return {width, height}
  }

  async windowInfo(): Promise<WindowInfo> {
    return (await this.windowReading()).info
  }

  /** The dump alone when a capture is needed: the window manager's reading just taken goes with it, not read again. */
  async windowInfoOrCapture(
    needsDump: (info: WindowInfo) => boolean
  ): Promise<{info: WindowInfo; capture?: ScreenCapture}> {
    const {info, state} = await this.windowReading()
    return needsDump(info) ? {info, capture: await this.capture(state)} : {info}
  }

  private windowReading(): Promise<{info: WindowInfo; state: screen.WindowState}> {
    const started = this.geometry.begin()
    return this.renewing(screen.windowInfo(this.shell), started, (r) => r.info.screen)
  }

  /** `dumpsys input_method` and the window manager's list (`dumpsys window -a`, as windowInfo), together. */
  async keyboard(): Promise<KeyboardState> {
    const [inputMethod, {info}] = await Promise.all([
      this.shell.text(['dumpsys', 'input_method']),
      screen.windowInfo(this.shell),
    ])
    const inputShown = parseInputShown(inputMethod)
    const windowShown = keyboardWindowShown(info.windowManager)
    return {...(inputShown === undefined ? {} : {inputShown}), ...(windowShown === undefined ? {} : {windowShown})}
  }

  /**
   * Whether touches (tap, long press, double tap, one-finger swipe) go through the on-device helper: one framed
   * request on its open stream, no shell and no process on the device. Never with the helper off. In a resident host
   * its start is paid once for the many touches to come; elsewhere (a one-shot `arc tap`) only where a session
   * already runs on the device in this process (a read started it, as in `arc click`), since app_process's start
   * costs more than one `input tap` on a phone.
   */
  private touchesViaHelper(): boolean {
    if (this.helper.mode === 'off') return false
    return this.resident || runningHelperSession(this.shell) !== undefined
  }

  /**
   * A touch through the helper where touchesViaHelper says so (`words`: its request), else `viaAdb`, in the device's
   * critical section either way. The helper refuses a touch on a sleeping display before injecting (DISPLAY_OFF, as
   * input.ts's gate); a helper that could not serve before injecting lets ADB try (`auto`); one that failed after
   * it may have acted is a device error (once). `worthStarting`: this touch goes through the helper wherever its
   * mode allows, starting it if need be (a held swipe, which `input` cannot send).
   */
  private touch(
    words: Array<string | number>,
    what: string,
    extraMs: number,
    viaAdb: (dev: DeviceShell) => Promise<void>,
    worthStarting = false
  ): Promise<void> {
    if (worthStarting ? this.helper.mode === 'off' : !this.touchesViaHelper()) return this.act(viaAdb)
    return this.act((dev) =>
      this.helper.serve(
        'touch',
        async (session) => {
          // A release whose hello says it lacks the input API would refuse every touch: ADB at once, no request.
          if (session.hello.missing.includes('input'))
            throw new HelperFailure('UNSUPPORTED', 'this release lacks the input API the helper injects touches with')
          await this.once(session, words.map(String), extraMs, what)
        },
        () => viaAdb(dev)
      )
    )
  }

  tap(point: Point): Promise<void> {
    const {x, y} = whole(point)
    return this.touch(['tap', x, y], 'a tap', 0, (dev) => input.tap(dev, point))
  }

  /** A long press is a swipe that does not move, held for the duration (`input swipe` and the helper's `swipe`). */
  longPress(point: Point, durationMs: number): Promise<void> {
    const {x, y} = whole(point)
    const ms = Math.round(durationMs)
    return this.touch(['swipe', x, y, x, y, ms], 'a long press', ms, (dev) => input.longPress(dev, point, durationMs))
  }

  doubleTap(point: Point): Promise<void> {
    const {x, y} = whole(point)
    return this.touch(['double-tap', x, y], 'a double tap', DOUBLE_TAP_GAP_MS, (dev) => input.doubleTap(dev, point))
  }

  swipe(from: Point, to: Point, durationMs: number, options: {hold?: boolean} = {}): Promise<void> {
    const [a, b] = [whole(from), whole(to)]
    const ms = Math.round(durationMs)
    const viaAdb = (dev: DeviceShell) => input.swipe(dev, from, to, durationMs)
    if (!options.hold) return this.touch(['swipe', a.x, a.y, b.x, b.y, ms], 'a swipe', ms, viaAdb)
    // Worth the helper's start even in a one-shot command: `input swipe` cannot hold, and the list it flings may
    // still move when the next command reads the screen (or go past what the scroll was to show).
    return this.touch(['gesture', heldSwipeWord(a, b, ms)], 'a swipe', ms + HOLD_BEFORE_LIFT_MS, viaAdb, true)
  }

  /**
   * The focused field's editor action through the helper (`ime-action`: ACTION_IME_ENTER on the input focus,
   * Android 11+). Plain ADB has none (neither `input`, `cmd input` nor `ime` performs one), so without the helper it
   * is UNSUPPORTED with the reason and the ways left.
   */
  pressEditorAction(): Promise<void> {
    return this.act(() =>
      this.helper.serve(
        'editor-action',
        async (session) => {
          await this.once(session, ['ime-action'])
        },
        (why) =>
          Promise.reject(
            new UnsupportedError(
              `${this.serial} cannot perform an editor action (the keyboard's action key) without arc's on-device helper: ${why}`,
              {
                details: {serial: this.serial, helper: why},
                actions: [
                  'Use the helper (--helper auto; Android 11+), or tap the action key of the keyboard: it is an element of the keyboard window in screen-state.',
                  'With ADBKeyBoard as the current keyboard: arc shell -- am broadcast -a ADB_EDITOR_CODE --ei code 3 (2 GO, 3 SEARCH, 4 SEND, 5 NEXT, 6 DONE).',
                  '`press key ENTER` sends a key event, which a search or send field may ignore.',
                ],
              }
            )
          )
      )
    )
  }

  /**
   * Several fingers go through the helper (InputManager.injectInputEvent, which the shell may use where /dev/input
   * is closed to it), else `sendevent`; one finger stays on ADB's `input`.
   */
  gesture(paths: GesturePoint[][]): Promise<GestureMethod> {
    if (paths.length < 2) return this.act((dev) => gesture(dev, paths))
    return this.act((dev) =>
      this.helper.serve(
        'gesture',
        async (session): Promise<GestureMethod> => {
          await this.once(session, ['gesture', ...gestureWords(paths)], gestureMs(paths), 'a gesture')
          return 'inject'
        },
        () => gesture(dev, paths)
      )
    )
  }

  pressKey(key: string | number): Promise<void> {
    return this.act((dev) => input.pressKey(dev, key))
  }

  pressKeys(keys: Array<string | number>): Promise<void> {
    return this.act((dev) => input.pressKeys(dev, keys))
  }

  /**
   * A key with modifiers held: through the helper (`key CODE META`: the key's own events stamped with the modifiers'
   * meta state, on every release), else `input keycombination` (Android 13+), else UNSUPPORTED
   * (KEY_MODIFIERS_UNSUPPORTED). The helper is started for it where its mode allows: before Android 13 it is the
   * only way.
   */
  pressKeyWith(modifiers: KeyModifier[], key: string | number): Promise<void> {
    const resolved = resolveKey(key)
    const held = [...new Set(modifiers)]
    const meta = held.reduce((state, m) => state | input.MODIFIER_META[m], 0)
    return this.act((dev) =>
      this.helper.serve(
        'keys',
        async (session) => {
          if (session.hello.missing.includes('input'))
            throw new HelperFailure('UNSUPPORTED', 'this release lacks the input API the helper injects keys with')
          await this.once(session, ['key', String(resolved.code), String(meta)])
        },
        () => input.pressKeyCombination(dev, held, resolved)
      )
    )
  }

  /** Refuses, before anything is sent, text nothing can type: a paste through the helper where it runs, else input.ts. */
  async checkTypable(text: string): Promise<void> {
    if (this.pastes(text) && (await this.helperPastes())) return
    await input.typingMethod(this.shell, text)
  }

  /**
   * With `pace`, printable ASCII goes in chunks, each its own queued action, with the gap between them outside the
   * queue; other text is one call: a paste through the helper where it runs (the user's clipboard put back), else
   * ADBKeyBoard, since each call switches the keyboard there and back.
   */
  async inputText(text: string, pace?: TypingPace): Promise<void> {
    if (this.pastes(text)) {
      pace?.progress?.(`typing ${text.length} characters`)
      return this.act((dev) =>
        this.helper.serve(
          'typing',
          async (session) => {
            await this.once(session, ['type', text])
          },
          () => input.inputText(dev, text)
        )
      )
    }
    if (!pace) return this.act((dev) => input.inputText(dev, text))
    if (untypable(text).length > 0) {
      pace.progress?.(`typing ${text.length} characters through ADBKeyBoard`)
      return this.act((dev) => input.inputText(dev, text))
    }
    for (let i = 0; i < text.length; i += pace.chunk) {
      if (i > 0) {
        await sleep(pace.gapMs(), pace.signal)
        const now = pace.check && (await this.quickCapture())
        if (now) await pace.check?.(now)
      }
      pace.progress?.(`typing ${Math.min(i + pace.chunk, text.length)}/${text.length}`)
      const part = text.slice(i, i + pace.chunk)
      await this.act((dev) => input.inputText(dev, part))
      pace.sent?.(i / pace.chunk + 1)
    }
  }

  openNotifications(): Promise<void> {
    return this.act((dev) => input.openNotifications(dev))
  }

  openQuickSettings(): Promise<void> {
    return this.act((dev) => input.openQuickSettings(dev))
  }

  listApps(filter: AppFilter, user?: number): Promise<AppInfo[]> {
    return apps.listApps(this.shell, filter, user)
  }

  openApp(packageId: string, launch: LaunchOptions = {}): Promise<void> {
    const {activity} = launch
    if (activity === undefined && (launch.action !== undefined || launch.data !== undefined)) {
      throw new InvalidInputError('an intent action or data needs an activity to start', {
        details: {package_id: packageId},
      })
    }
    return this.reshape((dev) =>
      activity === undefined
        ? apps.openApp(dev, packageId, launch.extras, launch.user)
        : startActivity(dev, packageId, activity, launch)
    )
  }

  closeApp(packageId: string, user?: number): Promise<void> {
    return this.reshape((dev) => apps.closeApp(dev, packageId, user))
  }

  logs(query: LogQuery): Promise<LogResult> {
    return readLogs(this.shell, query)
  }

  /** Whether text goes to the helper's paste: typable text that `input text` cannot type, with the helper not off. */
  private pastes(text: string): boolean {
    if (this.helper.mode === 'off' || text === '') return false
    input.refuseNeverTypable(text)
    return untypable(text).length > 0
  }

  /** The helper runs here with what a paste needs (its clipboard and input); false where `auto` falls back. */
  private helperPastes(): Promise<boolean> {
    return this.helper.serve(
      'typing',
      async (session) => {
        // `paste`: a release without KEYCODE_PASTE (before Android 7.0), where a paste would type nothing.
        const missing = session.hello.missing.filter((api) => api === 'clipboard' || api === 'input' || api === 'paste')
        if (missing.length > 0)
          throw new HelperFailure('UNSUPPORTED', `this release lacks what a paste needs: ${missing.join(', ')}`)
        return true
      },
      async () => false
    )
  }

  /** Through the helper (the shell may read and write the clipboard from app_process); ADB alone refuses. */
  getClipboard(): Promise<string | null> {
    return this.helper.serve(
      'clipboard',
      (session) => helperClipboard(session, this.shell),
      (why) => clipboard.getClipboard(this.shell, this.helper.mode === 'off' ? undefined : why)
    )
  }

  setClipboard(text: string): Promise<void> {
    return this.helper.serve(
      'clipboard',
      async (session) => {
        await session.request(['clipboard-set', text], helperLimit(this.shell))
      },
      (why) => clipboard.setClipboard(this.shell, this.helper.mode === 'off' ? undefined : why)
    )
  }

  async statFile(path: string, options?: {sure?: boolean}): Promise<FileStat | undefined> {
    // adbd's STAT answers a path closed to the shell user as a missing one (zeros): asked to be sure, the shell says
    // which (files.ts confirmMissing: one `ls -ld`). A path this driver's STAT just found nothing at is not STAT'ed
    // again for that: the shell's answer is the newer one anyway.
    const stat = options?.sure && this.statFoundNothing.has(path) ? undefined : await files.statFile(this.shell, path)
    if (stat !== undefined) this.statFoundNothing.delete(path)
    else if (options?.sure) await files.confirmMissing(this.shell, path)
    else this.statFoundNothing.add(path)
    return stat
  }

  listDir(path: string): Promise<FileEntry[]> {
    return files.listDir(this.shell, path)
  }

  readFile(path: string, maxBytes?: number, transfer?: TransferWatch): Promise<Buffer> {
    return files.readFile(this.shell, path, maxBytes, transfer?.onBytes, transfer?.expectedBytes)
  }

  realPath(path: string): Promise<string | undefined> {
    return files.realPath(this.shell, path)
  }

  freeBytes(path: string): Promise<number | undefined> {
    return files.freeBytes(this.shell, path)
  }

  makeDirs(path: string): Promise<void> {
    this.statFoundNothing.clear()
    return files.makeDirs(this.shell, path)
  }

  writeFile(path: string, data: Buffer, transfer?: TransferWatch, mode?: number): Promise<void> {
    this.statFoundNothing.clear()
    return files.writeFile(this.shell, path, data, transfer?.onBytes, mode)
  }

  async withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
    const release = await files.lockFile(this.shell, path)
    try {
      return await work()
    } finally {
      release?.()
    }
  }

  deleteFile(path: string): Promise<void> {
    this.statFoundNothing.clear()
    return files.deleteFile(this.shell, path)
  }

  probeCapabilities(): Promise<CapabilityReport> {
    // The ui-dump row is uiautomator's own; the helper's rows say what it adds (doctor.ts).
    return probe(this.shell, () => screen.captureScreen(this.shell, this.dumpState), this.helper)
  }

  followLogs(query: FollowQuery, onLine: (event: LogEvent) => void, signal: AbortSignal): Promise<void> {
    return followLogs(this.shell, query, onLine, signal)
  }

  clearLogs(): Promise<void> {
    return this.act((dev) => clearLogs(dev))
  }

  installApp(apkPath: string, options: InstallOptions): Promise<void> {
    return this.reshape((dev) => appManage.installApp(dev, apkPath, options))
  }

  uninstallApp(packageId: string, keepData: boolean, user?: number): Promise<void> {
    return this.reshape((dev) => appManage.uninstallApp(dev, packageId, keepData, user))
  }

  clearAppData(packageId: string, user?: number): Promise<void> {
    return this.reshape((dev) => appManage.clearAppData(dev, packageId, user))
  }

  openUrl(url: string): Promise<void> {
    return this.reshape((dev) => appManage.openUrl(dev, url))
  }

  setPermission(packageId: string, permission: string, granted: boolean, user?: number): Promise<void> {
    return this.act((dev) => appManage.setPermission(dev, packageId, permission, granted, user))
  }

  deviceInfo(): Promise<DeviceInfo> {
    return control.deviceInfo(this.shell)
  }

  rotation(): Promise<RotationState> {
    return control.rotation(this.shell)
  }

  displayAwake(): Promise<boolean | undefined> {
    return control.displayAwake(this.shell)
  }

  setRotation(target: Degrees | 'auto'): Promise<void> {
    return this.reshape((dev) => control.setRotation(dev, target))
  }

  wake(): Promise<PowerState> {
    return this.reshape((dev) => control.wake(dev))
  }

  unlock(): Promise<PowerState> {
    return this.reshape((dev) => control.unlock(dev))
  }

  /** Not queued: a passthrough command may be a read, and may run long. */
  async runCommand(argv: string[], timeoutMs?: number): Promise<ShellOutput> {
    try {
      return await control.passthrough(this.shell, argv, timeoutMs)
    } finally {
      // `wm size`, `wm density`, `settings put system user_rotation`, `am start`: anything may reshape the screen.
      this.geometry.forget()
    }
  }

  /** Not queued: it runs for as long as the recording, and input actions must go on meanwhile. */
  screenRecord(timeLimitSeconds: number, signal?: AbortSignal): Promise<Buffer> {
    return screenRecord(this.shell, timeLimitSeconds, signal)
  }

  /** Ends the calls still running, then puts back what a cut-off action changed on the device (AdbServer.shutdown). */
  async close(): Promise<void> {
    this.closing.abort()
    await this.server.shutdown()
  }
}
