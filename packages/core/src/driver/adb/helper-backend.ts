/**
 * What the on-device helper serves next to the ADB path, capability by capability, and the fallback for each
 * (docs/devices.md, "The on-device helper"):
 *
 * - screen: the hierarchy of every window through UiAutomation; after an action it waits for the screen to settle
 *   (the helper's Settle: 500 ms without accessibility events, at most 3 s, then it reads anyway and says so), else
 *   it reads at once (an animated screen reads like any other); else `uiautomator dump`;
 * - clipboard: get and set (ADB has no way); else UNSUPPORTED as before;
 * - input: gestures of several fingers (InputManager.injectInputEvent, which the shell may use where /dev/input is
 *   closed to it); else `sendevent`; text outside printable ASCII by clipboard and paste, the user's clipboard put
 *   back; else ADBKeyBoard;
 * - touch: taps, long presses, double taps and one-finger swipes (the helper's `tap`, `double-tap`, `swipe`), where
 *   AdbDriver.touchesViaHelper says so; else `input tap` / `input swipe` behind input.ts's display check.
 *
 * The mode (`adb.helper` in the config, ARC_HELPER, `--helper`): `auto` uses the helper where it starts and serves,
 * and ADB for the capability where not; `off` never starts it; `required` fails where it cannot serve, naming why.
 * What it serves follows from what its start costs against what it saves. Reads go through it in every host (a
 * read: app_process's VM start against uiautomator's VM start plus its idle wait of 1 s or more), and what ADB
 * cannot do at all. Touches go through it in resident hosts (`arc batch`, `arc test`, `arc mcp serve`:
 * AdbDriverOptions.resident), where its start is paid once and each touch is then one framed request on its open
 * stream (a few ms on a phone, against some 200 ms for `adb shell input tap`), and in any process where a session
 * already runs on the device (a one-shot `arc click` whose read started it); a one-shot `arc tap` keeps `input
 * tap`, since app_process's start costs more than one `input tap`. The helper checks the display before any touch
 * and refuses it with DISPLAY_OFF, nothing injected, as input.ts's gate does. Keys and ASCII text stay on ADB.
 */
import {UnsupportedError} from '../../errors/arc-error.js'
import {checkJpeg, checkPng} from '../../png.js'
import type {ScreenshotWant} from '../capabilities/screen.js'
import {DEFAULT_HELPER_HOLD_MS} from '../device-helper.js'
import {parseUiDump} from '../../screen/parse-ui-dump.js'
import {msSinceAction} from './action-marks.js'
import type {DeviceShell} from './device-shell.js'
import {
  HelperFailure,
  helperSession,
  runningHelperSession,
  type HelperMode,
  type HelperSession,
} from './helper-session.js'
import type {Dump} from './screen.js'

/** Which backend served the last call of a capability, how long it took, and why the helper did not serve. */
export interface BackendUse {
  backend: 'helper' | 'adb'
  ms: number
  /** Why the helper did not serve (its start failed, a missing API, UiAutomation held elsewhere). */
  fallback?: string
  /** A read whose screen did not settle within the helper's bound (a video, a spinner): read anyway, this late. */
  unsettledMs?: number
}

/** How long the helper's read may wait for the screen to settle (the helper's Settle.BOUND_MS), past its own time. */
const SETTLE_BOUND_MS = 3000

/** What each capability's last call used, per device, for `arc doctor` and the benches. */
const lastUse = new Map<string, Map<string, BackendUse>>()

export function backendUses(dev: DeviceShell): Record<string, BackendUse> {
  return Object.fromEntries(lastUse.get(dev.key) ?? [])
}

/**
 * Keeps what served the call, and with DEBUG=arc* says it on stderr (`arc: screen on emu-1 by the helper in 41 ms`,
 * or by ADB and why the helper did not serve), so a one-shot command shows its choice.
 */
function remember(dev: DeviceShell, capability: string, use: BackendUse, used?: Map<string, BackendUse>): void {
  used?.set(capability, use)
  let uses = lastUse.get(dev.key)
  if (!uses) lastUse.set(dev.key, (uses = new Map()))
  uses.set(capability, use)
  if (/(^|,)\s*arc/.test(process.env.DEBUG ?? '')) {
    const by = use.backend === 'helper' ? 'the on-device helper' : 'ADB'
    const why = use.fallback ? ` (the helper did not serve: ${use.fallback.replace(/\s+/g, ' ').slice(0, 200)})` : ''
    process.stderr.write(`arc: ${capability} on ${dev.serial} by ${by} in ${Math.round(use.ms)} ms${why}\n`)
  }
}

/** The time limit for one helper request: the adb call's own, plus what a gesture itself lasts. */
function limit(dev: DeviceShell, extraMs = 0): number {
  return dev.server.timeoutMs + extraMs
}

export class HelperBackend {
  /** What served each capability in this backend's life (one driver: one tool call, one batch line). */
  readonly used = new Map<string, BackendUse>()
  /** Set by a read whose screen did not settle (the ms the helper waited), for serve() to keep with its use. */
  private unsettled?: number

  constructor(
    private readonly dev: DeviceShell,
    readonly mode: HelperMode,
    /** How long the helper keeps UiAutomation after a read (0: it lets go at once); set when it starts. */
    readonly holdMs = DEFAULT_HELPER_HOLD_MS
  ) {}

  /** The device's helper session, started with this backend's hold when none runs yet. */
  session(): Promise<HelperSession> {
    return helperSession(this.dev, this.holdMs)
  }

  /**
   * Runs `viaHelper` on the helper, else `viaAdb`: where the mode is `off`, or (`auto`) the helper could not serve
   * for any reason. `required` turns that reason into UNSUPPORTED naming it. Records which served and how long.
   */
  async serve<T>(
    capability: string,
    viaHelper: (session: HelperSession) => Promise<T>,
    viaAdb: (why: string) => Promise<T>
  ): Promise<T> {
    const began = performance.now()
    let why = 'the helper is off (adb.helper, ARC_HELPER or --helper)'
    // A request goes over the helper's open stream, not a new connection: a driver closed under the call (a cancelled
    // element action between its read and its tap) must refuse it here, as its AdbServer refuses any new call.
    this.dev.server.checkOpen(capability, this.dev.serial)
    if (this.mode !== 'off') {
      try {
        const session = await this.session()
        // Asked again: the wait for a start another driver began can outlast this driver (closed meanwhile).
        this.dev.server.checkOpen(capability, this.dev.serial)
        this.unsettled = undefined
        const value = await viaHelper(session)
        const unsettled = this.unsettled === undefined ? {} : {unsettledMs: this.unsettled}
        remember(this.dev, capability, {backend: 'helper', ms: performance.now() - began, ...unsettled}, this.used)
        return value
      } catch (error) {
        if (!(error instanceof HelperFailure)) throw error
        if (error.code === 'BAD_REQUEST') throw new UnsupportedError(`the helper refused the request: ${error.message}`)
        why = `${error.code}: ${error.message}`
        if (this.mode === 'required') {
          throw new UnsupportedError(
            `the on-device helper is required (helper mode \`required\`) but could not serve ${capability} on ${this.dev.serial}: ${error.message}`,
            {
              details: {serial: this.dev.serial, capability, helper: error.code},
              actions: [
                'Run `arc doctor` to see what the helper needs on this device, or use --helper auto to fall back to ADB.',
              ],
            }
          )
        }
        // A helper still holding UiAutomation would make uiautomator's dump die: let go before the fallback.
        await this.releaseUiAutomation()
      }
    }
    const started = performance.now()
    const value = await viaAdb(why)
    remember(
      this.dev,
      capability,
      {
        backend: 'adb',
        ms: performance.now() - started,
        ...(this.mode === 'off' ? {} : {fallback: why}),
      },
      this.used
    )
    return value
  }

  /** Only a helper still running is asked (one that ended let go with its process); none is started for it. */
  private async releaseUiAutomation(): Promise<void> {
    try {
      const running = runningHelperSession(this.dev)
      if (!running) return
      const session = await running
      if (!session.alive) return
      await session.request(['release'], limit(this.dev))
    } catch {
      // not running, or gone: it holds nothing
    }
  }

  /**
   * An image of display 0 taken and encoded on the device: a full-size PNG (`screenshot 0 0 100 png`) unless `want`
   * asks for less, then scaled there to fit a box of maxSize on each side (the long side at most maxSize, aspect
   * kept, never enlarged: AndroidDevice.screenshot) and/or a JPEG of that quality, so a phone sends the small image
   * over USB. A reply that is not a whole image of the format asked is a failure the caller falls back from, never an
   * image passed on.
   */
  async screenshot(session: HelperSession, want: ScreenshotWant = {}): Promise<Buffer> {
    const box = want.maxSize && want.maxSize > 0 ? String(Math.round(want.maxSize)) : '0'
    const format = want.format === 'jpeg' ? 'jpeg' : 'png'
    const quality = format === 'jpeg' ? String(want.quality ?? 90) : '100'
    const image = await session.request(['screenshot', box, box, quality, format], limit(this.dev))
    if (format === 'jpeg') {
      const jpeg = checkJpeg(image)
      if ('problem' in jpeg)
        throw new HelperFailure('FAILED', `the helper's screenshot is not a readable JPEG: ${jpeg.problem}`)
      return image
    }
    const structure = checkPng(image)
    if ('problem' in structure)
      throw new HelperFailure('FAILED', `the helper's screenshot is not a readable PNG: ${structure.problem}`)
    return image.subarray(0, structure.end)
  }

  /**
   * The hierarchy of every window (the `<displays>` document), parsed, once the screen settled after the last
   * action: `dump SINCE_MS` tells the helper how long ago arc's last action on the device ended, in this process or
   * another (action-marks.ts; it knows its own touches, not `input`, `am start` or another process's), and it waits for 500 ms without accessibility events from then, at most 3 s
   * (the helper's Settle). Its reply starts with `settled` or `unsettled`, a tab and the ms it waited, on a line.
   * `settle: false` leaves arc's action out (no SINCE_MS): the helper then waits only after an input of its own.
   */
  async dump(session: HelperSession, {settle = true}: {settle?: boolean} = {}): Promise<Dump> {
    const words = ['dump']
    const since = settle ? msSinceAction(this.dev.key) : undefined
    if (since !== undefined) words.push(String(since))
    const reply = (await session.request(words, limit(this.dev, SETTLE_BOUND_MS))).toString('utf8')
    const cut = reply.indexOf('\n')
    const [state, waited] = reply.slice(0, Math.max(0, cut)).split('\t')
    if ((state !== 'settled' && state !== 'unsettled') || !/^\d{1,9}$/.test(waited ?? ''))
      throw new HelperFailure(
        'FAILED',
        `the helper's dump does not start with its settle line: ${JSON.stringify(reply.slice(0, 40))}`
      )
    if (state === 'unsettled') this.unsettled = Number(waited)
    const xml = reply.slice(cut + 1)
    return {xml, hierarchy: parseUiDump(xml, `the helper's dump on ${this.dev.serial}`)}
  }
}

/** The clipboard as the helper reads it: null when empty; UNSUPPORTED-worthy failure when it holds no text. */
export async function helperClipboard(session: HelperSession, dev: DeviceShell): Promise<string | null> {
  const payload = await session.request(['clipboard-get'], limit(dev))
  if (payload[0] === 0) return null
  if (payload[0] === 2)
    throw new UnsupportedError(
      `the clipboard of ${dev.serial} holds something other than text (an image, a link to content)`
    )
  return payload.subarray(1).toString('utf8')
}

/** Paths as the helper's `gesture` words: `x,y,t;x,y,t`, the pixel each point lies in (floor) and milliseconds. */
export function gestureWords(paths: Array<Array<{x: number; y: number; time: number}>>): string[] {
  return paths.map((path) => path.map((p) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.round(p.time)}`).join(';'))
}

export function gestureMs(paths: Array<Array<{time: number}>>): number {
  return Math.max(0, ...paths.map((path) => path.at(-1)?.time ?? 0))
}

export {limit as helperLimit}
