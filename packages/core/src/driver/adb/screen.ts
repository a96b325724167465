/**
 * Observing the screen over ADB: the uiautomator dump (all windows where the device can), screen size with
 * overrides, density, rotation, the foreground app and the window list, captured together; and PNG screenshots.
 */
import {randomBytes} from 'node:crypto'
import {setTimeout as sleep} from 'node:timers/promises'

import {InvalidDumpError, ScreenNotIdleError, UiAutomationBusyError} from '../../errors/arc-error.js'
import {parseUiDump, sliceDump} from '../../screen/parse-ui-dump.js'
import type {UiHierarchy} from '../../screen/ui-node.js'
import {missingWindows, treelessWindows} from '../../screen/window-metadata.js'
import type {Foreground, ScreenCapture, WindowInfo, WindowManagerState} from '../device-driver.js'
import type {OutputLimit} from './adb-client.js'
import type {DeviceShell} from './device-shell.js'
import {focusSection, parseForeground, parseRotation} from './parse-dumpsys.js'
import {parseWindowManager} from './parse-windows.js'
import {parseDisplayMetrics, type DisplayMetrics, displayBlock} from './parse-display.js'
import {currentSize, parseWmDensity, parseWmSize} from './parse-wm.js'
import {readScreencapPng} from './png-repair.js'
import {displayZeroPhysicalId, severalDisplays, warnsOfSeveralDisplays} from './screencap-display.js'
import {raw} from './shell-quote.js'
import {windowSection} from './window-sections.js'

/** uiautomator failures that pass when tried again a moment later (adb.md §3.2, §4.3). */
const TRANSIENT = /could not get idle state|null root node|already registered|Killed|NullPointerException|is empty/i
/** DumpCommand's answer when the screen sent accessibility events for its whole idle timeout (10 s on a phone). */
const NOT_IDLE = /could not get idle state/i
/** UiAutomation's refusal of a second client (AOSP UiAutomationManager), where a build prints it. */
const ALREADY_REGISTERED = /already registered/i
/** How long a read waits for another UiAutomation client to let go (a dump elsewhere holds it for 1-3 s). */
const BUSY_WAIT_MS = 3000
/** The tools that hold UiAutomation while they run: named in the error, so the user knows what to stop. */
export const UI_AUTOMATION_HOLDERS = [
  "Appium's UiAutomator2 server (io.appium.uiautomator2.server)",
  'uiautomator2 / ATX (u2.jar or com.github.uiautomator)',
  'Maestro (dev.mobile.maestro)',
  'a monkey such as Fastbot, or a `uiautomator runtest`',
  "another `uiautomator dump` (another arc, an IDE's layout inspector)",
]
/** Output showing `/dev/tty` is unusable on this device (no controlling terminal). */
const NO_TTY =
  /\/dev\/tty.*(No such|Permission denied|not open|failed|ENXIO)|(No such device|could not open).*\/dev\/tty/i
/** uiautomator's closing message alone: it reported a dump but wrote no XML. */
const WROTE_NOTHING = /^[^<]*UI hier\w+ dumped to: [^<]*$/
/** A `<displays>` document without a display: every display the `--windows` dumper was given had no window. */
const NO_DISPLAY = /<displays\s*(\/>|>\s*<\/displays>)/
const DUMP_ATTEMPTS = 3
/** The advice where a live device printed no dump at all (not the advice for a file arc was given). */
const RETRY_OR_DOCTOR =
  "Try again in a moment; if it keeps failing, `arc doctor` shows what this device's uiautomator supports."
const RETRY_DELAY_MS = 250

export interface DumpState {
  /** False once the device showed that `--windows` breaks its uiautomator, or gave nothing with it WINDOWS_MISSES times. */
  windowsFlag: boolean
  /** Dumps in a row `--windows` gave nothing usable for (no XML, no window, no tree); at WINDOWS_MISSES the flag is dropped. */
  windowsMisses?: number
  /** False once the device showed that `/dev/tty` cannot be written; then arc dumps to a fresh file. */
  tty: boolean
}

/** After this many dumps in a row `--windows` gave nothing usable for, arc stops asking the device for it. */
const WINDOWS_MISSES = 2

/**
 * What each device showed of its uiautomator, for the life of this process (an MCP server, a batch), one per device
 * per adb server, so a device is not asked twice per read for what it cannot do. A memory gone stale (another device
 * under the same serial) costs no correctness: the plain dump and `/dev/tty`'s file route read every device.
 */
const dumpStates = new Map<string, DumpState>()

export function dumpStateFor(key: string): DumpState {
  let state = dumpStates.get(key)
  if (!state) dumpStates.set(key, (state = {windowsFlag: true, tty: true}))
  return state
}

export interface Dump {
  xml: string
  hierarchy: UiHierarchy
}

/**
 * Dumps the UI hierarchy. `uiautomator dump --windows /dev/tty` writes every window's XML straight to the
 * shell stream, so no file is involved and nothing stale can be read; where `/dev/tty` does not work a new
 * uniquely named file is dumped, read and deleted. Devices whose uiautomator predates `--windows` ignore it and
 * write the active window's `<hierarchy>`; those that know it write the `<displays>` form, every window with its
 * accessibility metadata (displays-dump.ts).
 *
 * Where `--windows` gives nothing usable, the same dump is asked again without it: the `--windows` dumper writes no
 * XML at all when the accessibility layer hands it an empty window list yet reports the dump done (AOSP
 * dumpWindowsToFile returns early), an empty `<displays />` when every display it was handed had no window, and
 * windows without trees when their roots were not ready; the plain dump still works there. Where a plain dump to
 * `/dev/tty` also wrote nothing, the tty is what fails, and the dump goes to a file. Transient failures (null root
 * node…) are tried DUMP_ATTEMPTS times in all. Two failures have errors of their own: a screen that never went idle
 * (SCREEN_NOT_IDLE; tried again only while another try of that length fits in the device call's time limit, since
 * each waited out uiautomator's idle timeout), and UiAutomation held by another client (UI_AUTOMATION_BUSY, after at
 * most BUSY_WAIT_MS of tries), found from the crash log where the dump died without a word.
 */
async function dumpHierarchy(dev: DeviceShell, state: DumpState): Promise<Dump> {
  const what = `uiautomator dump on ${dev.serial}`
  let windows = state.windowsFlag
  let tries = 0
  const started = Date.now()
  for (;;) {
    const flags = windows ? ['--windows'] : []
    const attemptStart = Date.now()
    const {output, exitCode} = state.tty
      ? await ttyDump(dev, flags)
      : {output: await dumpViaFile(dev, flags), exitCode: 0}
    const attemptMs = Date.now() - attemptStart
    let gaveNothing = WROTE_NOTHING.test(output)
    let failure: InvalidDumpError
    try {
      const xml = sliceDump(output, what, RETRY_OR_DOCTOR)
      if (NO_DISPLAY.test(xml)) {
        gaveNothing = true
        throw new InvalidDumpError(`uiautomator dump --windows on ${dev.serial} listed no window (an empty <displays>)`)
      }
      if (!xml.endsWith('</hierarchy>') && !xml.endsWith('</displays>')) {
        await dev.server.assertAttached(dev.serial, 'uiautomator dump')
        throw new InvalidDumpError(`${what} was cut short (no </hierarchy> or </displays> at its end)`)
      }
      const hierarchy = parseUiDump(xml, what)
      if (hierarchy.listedWindows && hierarchy.windows.length === 0) {
        gaveNothing = true
        throw new InvalidDumpError(
          `uiautomator dump --windows on ${dev.serial} listed windows but none of their content`
        )
      }
      // Only misses in a row stop the flag: a lock screen or a transition now and then must not cost it for good.
      if (hierarchy.listedWindows) state.windowsMisses = 0
      return {xml, hierarchy}
    } catch (error) {
      if (!(error instanceof InvalidDumpError)) throw error
      failure = error
    }
    if (NOT_IDLE.test(output)) {
      // uiautomator waited its whole idle timeout: another try costs as long again. Tried again only while a try as
      // long as this one still fits in the device call's time limit, so an animated screen ends in one clear error.
      const delay = RETRY_DELAY_MS * (tries + 1)
      if (++tries >= DUMP_ATTEMPTS || Date.now() - started + delay + attemptMs > dev.server.timeoutMs)
        throw notIdle(dev, attemptMs, tries)
      await sleep(delay)
      continue
    }
    const died = exitCode !== 0 && output.trim() === ''
    if (
      ALREADY_REGISTERED.test(output) ||
      ((died || output.trim() === '' || /^\s*Killed\s*$/.test(output)) && (await uiAutomationTaken(dev)))
    ) {
      // Another client holds UiAutomation: one held by a dump elsewhere lets go within seconds; a tool (Appium,
      // uiautomator2, Maestro) holds it for its whole session, so waiting longer than BUSY_WAIT_MS only burns time.
      const delay = RETRY_DELAY_MS * 2 * (tries + 1)
      if (Date.now() - started + delay > Math.min(BUSY_WAIT_MS, dev.server.timeoutMs / 2)) throw busy(dev)
      tries++
      await sleep(delay)
      continue
    }
    if (state.tty && NO_TTY.test(output)) {
      state.tty = false
    } else if (windows && /--windows|Unknown option|usage:/i.test(output)) {
      state.windowsFlag = windows = false
    } else if (gaveNothing && windows) {
      windows = false
      state.windowsMisses = (state.windowsMisses ?? 0) + 1
      if (state.windowsMisses >= WINDOWS_MISSES) state.windowsFlag = false
    } else if (gaveNothing && state.tty) {
      state.tty = false
    } else if (gaveNothing || (!TRANSIENT.test(output) && !TRANSIENT.test(failure.message) && output.trim() !== '')) {
      throw failure
    } else {
      if (++tries >= DUMP_ATTEMPTS) throw failure
      await sleep(RETRY_DELAY_MS * tries)
    }
  }
}

async function ttyDump(dev: DeviceShell, flags: string[]): Promise<{output: string; exitCode: number}> {
  const {output, exitCode} = await dev.run(['uiautomator', 'dump', ...flags, '/dev/tty'], undefined, dumpLimit(dev))
  return {output: output.toString('utf8'), exitCode}
}

/** A crash this recent (seconds, device clock) counts as the dump that just died. */
const CRASH_WINDOW_S = 30

/**
 * Whether the dump that just died without a word was refused UiAutomation: a second client dies at connect with
 * `IllegalStateException: UiAutomationService …already registered!`, which app_process writes only to the crash
 * log (AOSP RuntimeInit: `FATAL EXCEPTION: main`, then SIGKILL), so the terminal shows nothing. One device command
 * reads the device's clock (`date +%s`) and the crash buffer's last lines with their epoch times (`-v epoch`,
 * Android 7+), so an old crash from another day is not taken for this one.
 */
async function uiAutomationTaken(dev: DeviceShell): Promise<boolean> {
  const text = await dev
    .text(['date', '+%s', raw(';'), 'logcat', '-d', '-b', 'crash', '-v', 'epoch', '-t', 60])
    .catch(() => '')
  const now = Number(/^\s*(\d+)\s*$/m.exec(text)?.[1])
  if (!Number.isFinite(now)) return false
  return text.split(/\r?\n/).some((line) => {
    const m = /^\s*(\d+)\.\d+\s+\d+\s+\d+\s+E\s+AndroidRuntime\s*:.*already registered!/.exec(line)
    return m !== null && Number(m[1]) >= now - CRASH_WINDOW_S
  })
}

function busy(dev: DeviceShell): UiAutomationBusyError {
  return new UiAutomationBusyError(
    `another tool holds UiAutomation on ${dev.serial}, so its screen cannot be read: Android lets one UiAutomation client connect at a time, and uiautomator dump died with "UiAutomationService … already registered!" for ${BUSY_WAIT_MS / 1000} s of tries. Usual holders: ${UI_AUTOMATION_HOLDERS.join('; ')}`,
    {
      details: {serial: dev.serial, holders: UI_AUTOMATION_HOLDERS},
      actions: [
        "Stop the other tool's session (an Appium session, a uiautomator2 `d.uiautomator.stop()`, a Maestro run), or force-stop its server, e.g. `adb shell am force-stop io.appium.uiautomator2.server`.",
        'If arc itself is reading the screen in another process, wait for it to finish.',
      ],
    }
  )
}

function notIdle(dev: DeviceShell, attemptMs: number, tries: number): ScreenNotIdleError {
  return new ScreenNotIdleError(
    `the screen of ${dev.serial} never went idle: uiautomator dump waits for a second without accessibility events (up to 10 s on a phone) and gave up after ${(attemptMs / 1000).toFixed(1)} s (\`ERROR: could not get idle state.\`, ${tries} ${tries === 1 ? 'try' : 'tries'}). A playing video, an animation or a spinner keeps the screen busy`,
    {
      details: {serial: dev.serial, tries},
      actions: [
        'Pause the video or wait for the animation to end, then read again.',
        '`arc screenshot` still captures an animated screen.',
      ],
    }
  )
}

/**
 * The most arc reads of one hierarchy dump: the largest real screen in the captures dumps to about 100 kB and a
 * 50,000-node list to some 20 MB; past this the read stops (the device command is ended) and the capture fails
 * with INVALID_DUMP at once, instead of holding the rest in memory.
 */
export const DUMP_MAX_BYTES = 32 * 1024 * 1024

function dumpLimit(dev: DeviceShell, maxBytes = DUMP_MAX_BYTES): OutputLimit {
  return {
    maxBytes,
    error: () =>
      new InvalidDumpError(
        `the uiautomator dump on ${dev.serial} is over ${maxBytes} bytes, arc's limit for one screen: arc stopped reading it`,
        {
          details: {serial: dev.serial, max_bytes: maxBytes},
          actions: [
            'Leave the screen with the huge list (or collapse it) and read again; `arc screenshot` still shows it.',
          ],
        }
      ),
  }
}

async function dumpViaFile(dev: DeviceShell, flags: string[]): Promise<string> {
  const file = `/data/local/tmp/arc-dump-${randomBytes(6).toString('hex')}.xml`
  await dev.text(['rm', '-f', file])
  // Removed here, or by the driver's close where the read is cut off.
  const cleanup = dev.server.cleanupIfCut(() => dev.text(['rm', '-f', file]))
  try {
    const log = await dev.text(['uiautomator', 'dump', ...flags, file])
    const xml = await dev.text(['cat', file, raw('2>/dev/null')], undefined, dumpLimit(dev))
    return xml.includes('<hierarchy') || xml.includes('<displays') ? xml : `${log}\n${xml}`
  } finally {
    await cleanup.run()
  }
}

/** One reading of the window manager: what `windowInfo()` reports, and what a capture combines with its dump. */
export interface WindowState {
  rotation?: 0 | 1 | 2 | 3
  foreground: Foreground
  /** The window manager said which app has focus (an app, or `mFocusedApp=null`: none); else ask the activities. */
  focusAnswered: boolean
  windowManager: WindowManagerState
  metrics: DisplayMetrics
  /** The policy's `mAwake=` (false: the display sleeps); undefined where the whole dump had no policy section. */
  awake?: boolean
}

/**
 * The window policy's word on the display: `    mAwake=true|false`, printed by every release in the captures (Android
 * 7.1 to 13). Up to Android 9 it sits in the policy section (glued to the next field on 9:
 * `mAwake=truemScreenOnEarly=true`); from Android 10 in the displays section, in each display's `DisplayPolicy` (so
 * display 0's block is read).
 */
export function parseAwake(section: string | undefined): boolean | undefined {
  const value = /^\s*mAwake=(true|false)/m.exec(section ?? '')?.[1]
  return value === undefined ? undefined : value === 'true'
}

/**
 * The size (natural orientation) and density in force: from the `init=`/`base=` line of `dumpsys window displays`,
 * which every Android version in the captures prints; `wm size` / `wm density` only when it does not.
 */
async function displayMetrics(dev: DeviceShell, displays: string): Promise<DisplayMetrics> {
  const metrics = parseDisplayMetrics(displays)
  if (metrics) return metrics
  const [size, density] = await Promise.all([dev.text(['wm', 'size']), dev.text(['wm', 'density'])])
  return {size: parseWmSize(size), density: parseWmDensity(density)}
}

/**
 * The `displays` and `windows` sections of the window manager, from ONE device command: `dumpsys window -a` prints
 * every section from one dump (window-sections.ts), so the two are one moment and cost one process and one
 * window-manager dump instead of two. Fallback: only when that output lacks either section (a vendor build that
 * prints the whole dump differently, or answers it with an error) are `dumpsys window displays` and
 * `dumpsys window windows` asked separately, as before.
 */
async function windowDumps(dev: DeviceShell): Promise<{displays: string; windows: string; policy?: string}> {
  const full = await dev.text(['dumpsys', 'window', '-a'])
  const displays = windowSection(full, 'displays')
  const windows = windowSection(full, 'windows')
  if (displays !== undefined && windows !== undefined) return {displays, windows, policy: windowSection(full, 'policy')}
  const [aloneDisplays, aloneWindows] = await Promise.all([
    dev.text(['dumpsys', 'window', 'displays']),
    dev.text(['dumpsys', 'window', 'windows']),
  ])
  return {displays: aloneDisplays, windows: aloneWindows}
}

/**
 * Rotation, size, density, foreground and the window manager's window list from the `displays` and `windows`
 * sections of one `dumpsys window -a` (windowDumps). The foreground is the window manager's word alone: a capture
 * completes it with `withForeground` where that word is missing.
 */
async function windowState(dev: DeviceShell): Promise<WindowState> {
  const {displays, windows, policy} = await windowDumps(dev)
  const windowManager = parseWindowManager(windows, displays)
  const rotation = parseRotation(displays) ?? parseRotation(windows)
  const awake = parseAwake(policy) ?? parseAwake(displayBlock(displays, 0) ?? displays)
  return {
    rotation,
    ...focusReading(displays, windows),
    windowManager,
    metrics: await displayMetrics(dev, displays),
    ...(awake === undefined ? {} : {awake}),
  }
}

/** The window manager's word on the focused app, from its displays and windows sections. */
function focusReading(displays: string, windows: string): Pick<WindowState, 'foreground' | 'focusAnswered'> {
  const lookup = focusSection(displays, windows)
  const foreground = parseForeground(lookup)
  // `mFocusedApp=null` is the window manager's answer that no app has focus (a transition, a lock screen, a device
  // showing no app). Android 10+ print the line once per display: without display 0's block, it counts only when
  // every display says null.
  const focusedApps = [...lookup.matchAll(/mFocusedApp=(\S*)/g)].map((m) => m[1])
  return {
    foreground,
    focusAnswered:
      foreground.package !== undefined || (focusedApps.length > 0 && focusedApps.every((v) => v === 'null')),
  }
}

/**
 * The app in front without a dump or the whole window dump: `dumpsys window displays`, which holds the focus lines
 * from Android 10; `dumpsys window windows` (where they close the list up to 9) only when it has none; and, as a
 * capture does, `dumpsys activity activities` only where the window manager gave no answer.
 */
export async function foregroundApp(dev: DeviceShell): Promise<Foreground> {
  const displays = await dev.text(['dumpsys', 'window', 'displays'])
  const windows = /mFocusedApp|mCurrentFocus/.test(displays) ? '' : await dev.text(['dumpsys', 'window', 'windows'])
  const reading = focusReading(displays, windows)
  return (await withForeground(dev, reading)).foreground
}

/**
 * The window manager's view without a dump (plain scroll): one device command, `dumpsys window -a` (`wm size`,
 * `wm density` only where the displays section shows no size). Also returns the reading itself, which
 * `captureScreen` can reuse instead of reading the window manager again.
 */
export async function windowInfo(dev: DeviceShell): Promise<{info: WindowInfo; state: WindowState}> {
  const state = await windowState(dev)
  const {rotation = 0, metrics, windowManager} = state
  const {width, height} = currentSize(metrics.size, rotation)
  const info = {
    screen: {width, height, density: metrics.density, rotation},
    ...(windowManager.windows.length > 0 ? {windowManager} : {}),
  }
  return {info, state}
}

/**
 * The display's rotation, given `dumpsys window displays`: Android 10+ print it there (`mCurrentRotation=`);
 * Android 7-9 do not (their displays section has sizes only), and print it at the end of
 * `dumpsys window windows` (`mRotation=1 mAltOrientation=false`), which is then asked. Undefined when neither shows it.
 */
export async function displayRotation(dev: DeviceShell, displays: string): Promise<0 | 1 | 2 | 3 | undefined> {
  return parseRotation(displays) ?? parseRotation(await dev.text(['dumpsys', 'window', 'windows']))
}

/**
 * Screen size in the current orientation and rotation, without a dump (the on-screen checks need only these):
 * one `dumpsys window displays` (plus `dumpsys window windows` on Android 7-9, for the rotation), and `wm size`
 * where it shows no size.
 */
export async function screenInfo(dev: DeviceShell): Promise<{width: number; height: number; rotation: 0 | 1 | 2 | 3}> {
  const displays = await dev.text(['dumpsys', 'window', 'displays'])
  const rotation = (await displayRotation(dev, displays)) ?? 0
  const natural = parseDisplayMetrics(displays)?.size ?? parseWmSize(await dev.text(['wm', 'size']))
  return {...currentSize(natural, rotation), rotation}
}

/**
 * One observation: the dump in parallel with the window manager's one read, `dumpsys window -a` (two device
 * commands on every Android version in the captures; `wm size` and `wm density` join only where the displays
 * section lacks a size, the two separate window reads only where the whole dump lacks a section). Given `known`, a
 * reading `windowInfo` made moments before, the window manager is not read again: the dump alone (and
 * `dumpsys activity activities` where that reading gave no answer on the focused app). `dumper` chooses where the
 * hierarchy comes from: uiautomator's dump, or the on-device helper's with uiautomator's as its fallback.
 */
export async function captureScreen(
  dev: DeviceShell,
  state: DumpState,
  known?: WindowState,
  dumper: (uiautomator: () => Promise<Dump>) => Promise<Dump> = (uiautomator) => uiautomator()
): Promise<ScreenCapture> {
  const [dump, window] = await Promise.all([
    dumper(() => dumpHierarchy(dev, state)),
    withForeground(dev, known ?? windowState(dev)),
  ])
  const rotation = window.rotation ?? dump.hierarchy.rotation
  const {windowManager} = window
  const {width, height} = currentSize(window.metrics.size, rotation)
  return {
    xml: dump.xml,
    hierarchy: dump.hierarchy,
    screen: {width, height, density: window.metrics.density, rotation},
    foreground: window.foreground,
    allWindows: dump.hierarchy.listedWindows
      ? treelessWindows(dump.hierarchy.listedWindows).length === 0
      : windowManager.windows.length > 0
        ? missingWindows(dump.hierarchy.windows, windowManager, {width, height}).length === 0
        : dump.hierarchy.windows.length > 1,
    ...(windowManager.windows.length > 0 ? {windowManager} : {}),
    ...(window.awake === false ? {displayOff: true} : {}),
  }
}

/**
 * A window-manager reading with the foreground's last resort, `dumpsys activity activities`, asked only where the
 * window manager names no app arc can read and does not say `mFocusedApp=null` on every display.
 */
async function withForeground<T extends Pick<WindowState, 'foreground' | 'focusAnswered'>>(
  dev: DeviceShell,
  reading: T | Promise<T>
): Promise<T> {
  const known = await reading
  if (known.focusAnswered) return known
  return {
    ...known,
    foreground: parseForeground(await dev.text(['dumpsys', 'activity', 'activities'])),
    focusAnswered: true,
  }
}

/**
 * A PNG of display 0, the screen the dump describes. Where screencap warned that it chose among several displays,
 * display 0 is captured again by its physical id (screencap-display.ts), and on later calls looked up first.
 */
export async function screenshot(dev: DeviceShell): Promise<Buffer> {
  if (severalDisplays.has(dev.key)) {
    const id = displayZeroPhysicalId(await dev.text(['dumpsys', 'display']))
    if (id !== undefined) return capture(dev, id)
  }
  const {output} = await dev.run(['screencap', '-p'])
  const {png} = readScreencapPng(output, dev.serial)
  if (!warnsOfSeveralDisplays(output)) return png
  severalDisplays.add(dev.key)
  const id = displayZeroPhysicalId(await dev.text(['dumpsys', 'display']))
  return id === undefined ? png : capture(dev, id)
}

async function capture(dev: DeviceShell, displayId: string): Promise<Buffer> {
  const {output} = await dev.run(['screencap', '-p', '-d', displayId])
  return readScreencapPng(output, dev.serial).png
}
