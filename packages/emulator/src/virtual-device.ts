import {EventEmitter} from 'node:events'
import {mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import type {Socket} from 'node:net'

import {fullActivity, shortActivity} from './activity-names.js'
import {DeviceFiles} from './device-files.js'
import {withoutKeyboard} from './top-level-windows.js'
import {keyCode, keyName} from './keycodes.js'
import {FileLocks} from './file-locks.js'
import {defaultLog, parseLogEntry, type LogEntry} from './logcat-buffer.js'
import type {
  ActivitySpec,
  DeviceScenario,
  FaultSpec,
  LogEntrySpec,
  PackageSpec,
  PROFILES,
  SWIPE_DIRECTIONS,
  TransitionSpec,
} from './scenario.js'
import {sleep} from './sleep.js'
import {laidOutAt, loadScreen, packagesInDump, type LoadedScreen} from './snapshot-screen.js'
import {ADB_KEYBOARD_PACKAGE, InputMethods} from './input-methods.js'
import {TextFields} from './text-fields.js'
import type {LiveApp, LiveAppInput} from './live-app.js'
import {contains, isKeyboardRoot, isTextEditor, type ScreenNode} from './screen-dump.js'
import {windowUnder} from './touch.js'

/**
 * `no permissions` is a USB device a Linux host may not open (no udev rule): the server lists it under a longer
 * name (`NO_PERMISSIONS_STATE` in host-protocol.ts) and refuses every service on it.
 */
export type AdbState = 'device' | 'offline' | 'unauthorized' | 'no permissions'

/**
 * An input the device received through `input …` or `cmd statusbar …`, in device pixels; `commit` and `clear-text`
 * are ADBKeyBoard's (an `am broadcast` it received while it was the bound input method).
 */
export type InputEvent =
  | {type: 'tap'; x: number; y: number}
  | {
      type: 'swipe'
      x1: number
      y1: number
      x2: number
      y2: number
      durationMs: number
      /** px/s along the path when the finger lifted (default: the path over durationMs, at an even pace). */
      velocity?: number
      /** Device ms from this event until the finger lifts (default durationMs: recorded as it went down). */
      liftInMs?: number
    }
  | {type: 'draganddrop'; x1: number; y1: number; x2: number; y2: number; durationMs: number}
  /**
   * A key press; `meta` is its KeyEvent meta state when it is not 0 (`input keycombination` sends each key with the
   * modifiers pressed before it, arc's helper a `key CODE META`).
   */
  | {type: 'keyevent'; code: number; name: string; longpress?: boolean; doubletap?: boolean; meta?: number}
  | {type: 'text'; text: string}
  | {type: 'commit'; text: string}
  | {type: 'clear-text'}
  | {type: 'motionevent'; action: string; x: number; y: number}
  | {type: 'statusbar'; action: string}
  | {type: 'sendevent'; device: string; evType: number; code: number; value: number}
  /** A paste (KEYCODE_PASTE) of the clipboard's text into the focused field, by an app_process helper. */
  | {type: 'paste'; text: string}
  /** The focused field's editor action (AccessibilityAction.ACTION_IME_ENTER by an app_process helper): its node. */
  | {type: 'editor-action'; field: number}
  /** One injected motion event (InputManager.injectInputEvent): action name, and every finger down in it. */
  | {type: 'touch'; action: string; pointers: Array<{id: number; x: number; y: number}>; time: number}

type SwipeDirection = (typeof SWIPE_DIRECTIONS)[number]

export interface InstalledPackage {
  name: string
  system: boolean
  versionCode: number
  /** Null: the manifest declares none. */
  versionName: string | null
  /** A system app updated over its factory copy: that copy's version name (listed as a hidden system package). */
  factoryVersionName?: string
  /** Launcher activity, fully qualified or `.Short`; undefined when the app has none. */
  launcher?: string
  /** Further launcher activities, listed after `launcher`: with any, resolve-activity answers the chooser. */
  moreLaunchers?: string[]
  /** The scenario screen shown when it is launched. */
  screen?: string
  /** Activities besides the launchers (and those the screens name) that `am start -n` knows. */
  activities?: ActivitySpec[]
  /** Runtime permissions the app declares, and those granted now (to the owner, user 0). */
  permissions?: string[]
  granted?: Set<string>
  /**
   * Runtime permissions granted to the app's copy in other users: Android keeps runtime permission state per user
   * (AOSP PermissionManagerService: `pm grant --user N` changes user N's alone). Use grantsOf().
   */
  grantedByUser?: Map<number, Set<string>>
  /** URL prefixes the app opens (am start -a VIEW -d URL). */
  links?: string[]
  /** The users it is installed for (undefined: the owner, 0, alone). */
  users?: number[]
}

/**
 * A `--user` argument as `pm` and `am` read it (AOSP UserHandle.parseUserArg): `all`, `current` (the owner here, who
 * is the current user), or a number; `fallback` where none is given: `pm` defaults to the system user 0
 * (PackageManagerShellCommand.runListPackages), `am` to the current user.
 */
export function userArg(args: string[], fallback = 0): number | 'all' {
  const at = args.indexOf('--user')
  if (at === -1) return fallback
  const value = args[at + 1]
  if (value === 'all') return 'all'
  if (value === 'current' || value === 'cur') return 0
  return Number(value)
}

/** The runtime permissions granted to the package's copy in `user` (0: the owner's, `granted`). */
export function grantsOf(pkg: InstalledPackage, user: number): Set<string> {
  if (user === 0) return (pkg.granted ??= new Set())
  pkg.grantedByUser ??= new Map()
  let set = pkg.grantedByUser.get(user)
  if (!set) pkg.grantedByUser.set(user, (set = new Set()))
  return set
}

/** Installed for this user (`all`: for any). */
export function installedFor(pkg: InstalledPackage, user: number | 'all'): boolean {
  return user === 'all' || (pkg.users ?? [0]).includes(user)
}

/** An armed fault: the spec plus how many more commands it will hit and the words of `command`. */
export interface ArmedFault extends FaultSpec {
  remaining: number
  words: string[]
  /** Told each time a command takes this fault (hangNext's `arrived`). */
  taken?: () => void
}

function arm(fault: FaultSpec): ArmedFault {
  return {...fault, remaining: fault.times, words: fault.command.split(/\s+/).filter(Boolean)}
}

const DEFAULT_SYSTEM_PACKAGES: InstalledPackage[] = [
  ['android', undefined],
  ['com.android.settings', '.Settings'],
  ['com.android.systemui', undefined],
  ['com.android.shell', undefined],
  ['com.android.providers.settings', undefined],
  ['com.google.android.apps.nexuslauncher', undefined],
  ['com.google.android.inputmethod.latin', undefined],
  ['com.android.chrome', 'com.google.android.apps.chrome.Main', ['http://', 'https://']],
  ['com.google.android.dialer', '.extensions.GoogleDialtactsActivity'],
  ['com.google.android.apps.messaging', '.ui.ConversationListActivity'],
  ['com.android.camera2', 'com.android.camera.CameraLauncher'],
  ['com.android.vending', 'com.google.android.finsky.activities.MainActivity'],
].map(([name, launcher, links]) => ({
  name: name as string,
  system: true,
  versionCode: 34,
  versionName: '14',
  launcher: launcher as string | undefined,
  links: links as string[] | undefined,
}))

export const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher'
const LAUNCHER_ACTIVITY = '.NexusLauncherActivity'

const DEFAULT_PROPERTIES: Record<string, string> = {
  'ro.build.version.sdk': '34',
  'ro.build.version.release': '14',
  'ro.build.id': 'UE1A.230829.036',
  'ro.build.type': 'user',
  'ro.product.model': 'arc emulated device',
  'ro.product.manufacturer': 'arc',
  'ro.product.brand': 'arc',
  'ro.product.name': 'arc_emu',
  'ro.product.device': 'arc_emu',
  'ro.product.cpu.abi': 'x86_64',
  'ro.hardware': 'ranchu',
  'ro.kernel.qemu': '1',
  'sys.boot_completed': '1',
  'dev.bootcomplete': '1',
  'persist.sys.locale': 'en-US',
  'persist.sys.timezone': 'UTC',
}

/**
 * Which way a swipe's finger moved, along its longer axis (a tie counts as vertical); none when it did not move,
 * which is a long press (`input swipe x y x y 1000`), not a swipe.
 */
export function swipeDirection({
  x1,
  y1,
  x2,
  y2,
}: {
  x1: number
  y1: number
  x2: number
  y2: number
}): SwipeDirection | undefined {
  const dx = x2 - x1
  const dy = y2 - y1
  if (dx === 0 && dy === 0) return undefined
  if (Math.abs(dy) >= Math.abs(dx)) return dy < 0 ? 'up' : 'down'
  return dx < 0 ? 'left' : 'right'
}

export type Profile = (typeof PROFILES)[number]

/**
 * What each profile changes: its Android version's properties and what an app_process VM start costs there. Up to
 * Android 11 `/system/bin/input` is a script that runs `app_process … com.android.commands.input.Input`, a new VM per
 * call (AOSP frameworks/base cmds/input/input, android-11.0.0_r1); from Android 12 it is `exec cmd input "$@"`,
 * served inside system_server. The 1 s is the slow end of what trackers report for a VM start (docs/devices.md).
 */
const PROFILE_SETTINGS: Record<Profile, {properties: Record<string, string>; vmStartMs: number}> = {
  'android-14': {properties: {}, vmStartMs: 0},
  'android-11': {
    properties: {'ro.build.version.sdk': '30', 'ro.build.version.release': '11', 'ro.build.id': 'RQ3A.211001.001'},
    vmStartMs: 1000,
  },
  // A Redmi on MIUI 14 (Android 13), as in Genymobile/scrcpy#3824 (MIUI 14, Android 13) and #4387 (POCO, MIUI 14).
  xiaomi: {
    properties: {
      'ro.build.version.sdk': '33',
      'ro.build.version.release': '13',
      'ro.build.id': 'TKQ1.221114.001',
      'ro.product.manufacturer': 'Xiaomi',
      'ro.product.brand': 'Redmi',
      'ro.product.model': '23021RAAEG',
      'ro.miui.ui.version.name': 'V140',
      'ro.miui.ui.version.code': '14',
    },
    vmStartMs: 0,
  },
}

/**
 * How long (device ms) a screen change an input starts takes to reach the accessibility tree, the old screen showing
 * meanwhile. On a phone a tap's click runs only after ACTION_UP is dispatched (View.onTouchEvent posts performClick),
 * the activity it starts is created, laid out and drawn, and its window animates in: AOSP core/res/res/values/config.xml
 * gives the activity open animation config_activityDefaultDur (220 ms) and a dialog's window config_shortAnimTime (200
 * ms); with the start before it, a few hundred ms. 300 is that, and stays under the 500 ms of quiet uiautomator's
 * reads wait for (UiAutomatorBridge.QUIET_TIME_TO_BE_CONSIDERD_IDLE_STATE), as a well-behaved app's change does.
 */
export const DEFAULT_TRANSITION_MS = 300

/** The emulated waits of a device, in ms before `scale`. */
export interface Timing {
  scale: number
  vmStartMs: number
  idleMs: number
  idleTimeoutMs: number
  /** How long a screen change an input starts takes to show (scenario transitions): the old screen shows meanwhile. */
  transitionMs: number
}

export interface VirtualDeviceInit {
  serial: string
  transportId: number
  /** Host folder standing for the device's `/`. */
  root: string
  screens: Record<
    string,
    string | {snapshot: string; package?: string; activity?: string; animated?: boolean; secure?: boolean}
  >
  state?: AdbState
  scenario?: DeviceScenario
  /** The emulator's time scale, used where the scenario sets none (EmulatorOptions.timeScale). */
  timeScale?: number
  /** An app run in code (the demo app), drawing the screen of its own name (live-app.ts). */
  app?: LiveApp
}

/**
 * One emulated phone: what it shows, what it has installed, what it received. Tests reach it through
 * `emulator.device(serial)` to inspect (`inputEvents`, `screen`, `foreground`, `files`) or to change state
 * (`showScreen`, `disconnect`, `hangNext`, `failNextDumps`, `setState`).
 *
 * Events: `changed` (state or presence changed: trackers are told).
 */
export class VirtualDevice extends EventEmitter {
  readonly serial: string
  readonly transportId: number
  readonly files: DeviceFiles
  /** flock(2) locks shells hold on its files (`flock`). */
  readonly fileLocks = new FileLocks()
  readonly inputEvents: InputEvent[] = []
  readonly screens = new Map<string, LoadedScreen>()
  readonly packages: InstalledPackage[]
  readonly properties: Map<string, string>
  readonly settings = new Map<string, string>()
  readonly logcat: LogEntry[]
  readonly faults: ArmedFault[]
  readonly transitions: TransitionSpec[]
  /** The touchscreen at /dev/input/event1 (getevent, sendevent). */
  readonly touchscreen: {name: string; maxX: number; maxY: number; slots: number; writable?: boolean}
  /** Edit fields: focus, cursor and what was typed (the served dump shows it). */
  readonly fields: TextFields
  /** Input methods: installed, enabled, current and bound (ime, settings, am broadcast to ADBKeyBoard). */
  readonly inputMethods: InputMethods
  /** Packages with a live process, and its pid. */
  readonly running = new Map<string, number>()
  /** The users each running package runs for (an app of a work profile runs apart from the owner's copy). */
  readonly runningUsers = new Map<string, Set<number>>()
  /**
   * MIUI/HyperOS's "USB debugging (Security settings)" (scenario `usbDebuggingSecurity`): while false, every `input`
   * is refused with the SecurityException real Xiaomi phones print (commands/input.ts). Off on the xiaomi profile.
   */
  usbDebuggingSecurity: boolean
  /** The device's users: the owner (0) and the scenario's `users` (a work profile, a second user). */
  readonly users: Array<{id: number; name: string; workProfile: boolean}>
  /** The device profile (scenario `profile`): its Android version and what a VM start costs. */
  readonly profile: Profile
  /** Emulated waits (scenario `timing`); every one is multiplied by `timing.scale`. */
  readonly timing: Timing
  /**
   * Who holds UiAutomation now: Android lets one UiAutomation connect at a time, device-wide (AOSP
   * AccessibilityManagerService / UiAutomationManager.registerUiTestAutomationServiceLocked), so while one is held
   * every other `uiautomator dump` dies at connect. A running dump holds it (`uiautomator`), or another tool does
   * (scenario `uiAutomationHeldBy`, holdUiAutomation()).
   */
  uiAutomationHolder?: string
  /** Every request arc's on-device helper was sent (`screenshot 1024 1024 90 jpeg`), oldest first, op and words. */
  readonly helperRequests: string[][] = []
  /** Screens whose app window has FLAG_SECURE (scenario screens' `secure`): screencap captures them black. */
  readonly secureScreens = new Set<string>()
  /** Controls a confirm key clicked (ENTER, DPAD_CENTER or SPACE on a focused button), in order. */
  readonly clicks: ScreenNode[] = []
  /** Screens that never go idle (scenario screens' `animated`); setAnimated() changes it at run time. */
  readonly animatedScreens = new Set<string>()
  wmSize?: {width: number; height: number}
  wmDensity?: number
  statusbar: 'collapsed' | 'notifications' | 'settings' = 'collapsed'
  /** Screen power (`dumpsys power` mWakefulness); KEYCODE_WAKEUP, SLEEP and POWER change it. */
  awake = true
  /**
   * A screensaver (a dream) shows over the apps: the screen is on and the device interactive (`awake` stays true;
   * AOSP PowerManagerInternal.isInteractive is AWAKE or DREAMING), `dumpsys power` says `mWakefulness=Dreaming`
   * (PowerManagerInternal.wakefulnessToString). A touch goes to the dream's window, which ends the dream and keeps
   * the touch (AOSP DreamService.dispatchTouchEvent: a dream that is not interactive wakes up and returns true), so
   * the app gets nothing (touchScreen). KEYCODE_WAKEUP ends it too; sleeping ends it.
   */
  dreaming = false
  /** The screen lock: none, a swipe (dismissable) or a PIN-style secure one. */
  lock: 'none' | 'swipe' | 'secure' = 'none'
  /** True while the lock screen shows (set when the screen goes off with a lock, cleared by dismissing it). */
  keyguardShowing = false
  /** False makes `screenrecord` missing, as on builds without it. */
  screenrecord = true
  /** True gives the device a uiautomator whose `dump --windows` writes the `<displays>` form (scenario `windowsDump`). */
  windowsDump = false
  /**
   * Whether the shell has `flock` (scenario `flock`, default true). False stands for a build without toybox's flock
   * (toys/other/flock.c is dated 2015; Android up to 5.1 ran toolbox, which has no flock): `flock` is not found.
   */
  hasFlock = true
  /**
   * A second physical display that is off (scenario `otherDisplay`), listed before display 0's by SurfaceFlinger, as
   * on foldables: `screencap` without `-d` warns and captures it (black), `-d` picks a display by physical id.
   */
  otherDisplay?: {width: number; height: number}
  /** Every recording `screenrecord` finished: its device path and how long it ran. */
  readonly recordings: Array<{file: string; seconds: number}> = []
  /**
   * Lines some builds' programs print on stderr before their own output (scenario `outputNoise`): waydroid's
   * `screencap` prints `Failed to create //.cache for shader cache (Read-only file system)---disabling.`
   * (LmeSzinc/AzurLaneAutoScript#4760), from the graphics stack every app_process-based program starts too.
   */
  outputNoise: string[] = []
  /** What `dumpsys battery` reports. */
  battery = {level: 85, scale: 100, status: 2, ac: false, usb: true}
  homeScreen?: string
  /**
   * A BACK closed the keyboard of the screen shown: the dump leaves its windows out, the window list lists it
   * hidden, `dumpsys input_method` says mInputShown=false. Another screen, or a tap on an edit field, shows it again.
   */
  keyboardDismissed = false
  /** The clipboard's first item: text, or content that is not text (`{uri}`); null when empty. */
  clipboard: {text: string} | {uri: string} | null = null
  /**
   * What the release lacks for an app_process program (hidden APIs changed or refused): `uiautomation`, `input`,
   * `clipboard`. The helper's operations needing one answer UNSUPPORTED (a test of arc's fallbacks).
   */
  readonly hiddenApisMissing = new Set<string>()
  /** The app run in code, if any (the demo app: `arc emulate` without a scenario). */
  readonly app?: LiveApp
  private stateValue: AdbState
  private present = true
  private currentScreen = ''
  /**
   * The accessibility event clock: wall-clock time (performance.now()) of the last event the device's apps sent
   * (an input's TYPE_VIEW_CLICKED or TEXT_CHANGED, a new screen's TYPE_WINDOW_STATE_CHANGED); -Infinity before any.
   */
  private lastEvent = -Infinity
  /** A screen change an input started that does not show yet: its screen, and when (wall clock) it shows. */
  private pendingTransition?: {to: string; due: number; timer: NodeJS.Timeout}
  private foregroundValue: {package?: string; activity?: string; user?: number} = {}
  private nextPid = 4000
  private readonly sockets = new Set<Socket>()

  private constructor(init: VirtualDeviceInit) {
    super()
    this.serial = init.serial
    this.transportId = init.transportId
    this.app = init.app
    this.stateValue = init.state ?? init.scenario?.state ?? 'device'
    this.files = new DeviceFiles(init.root)
    const scenario = init.scenario
    this.transitions = scenario?.transitions ?? []
    this.profile = scenario?.profile ?? 'android-14'
    const profile = PROFILE_SETTINGS[this.profile]
    this.usbDebuggingSecurity = scenario?.usbDebuggingSecurity ?? this.profile !== 'xiaomi'
    this.users = [{id: 0, name: 'Owner', workProfile: false}, ...(scenario?.users ?? [])]
    this.timing = {
      scale: scenario?.timing?.scale ?? init.timeScale ?? 1,
      vmStartMs: scenario?.timing?.vmStartMs ?? profile.vmStartMs,
      idleMs: scenario?.timing?.idleMs ?? 1000,
      idleTimeoutMs: scenario?.timing?.idleTimeoutMs ?? 10_000,
      transitionMs: scenario?.timing?.transitionMs ?? DEFAULT_TRANSITION_MS,
    }
    this.uiAutomationHolder = scenario?.uiAutomationHeldBy
    this.fields = new TextFields(scenario?.fields ?? [], () =>
      Number(this.properties.get('ro.build.version.sdk') ?? '34')
    )
    this.faults = (scenario?.faults ?? []).map(arm)
    this.inputMethods = new InputMethods(this)
    this.touchscreen = scenario?.touchscreen ?? {
      name: 'virtio_input_multi_touch_1',
      maxX: 32767,
      maxY: 32767,
      slots: 10,
    }
    this.properties = new Map(
      Object.entries({
        ...DEFAULT_PROPERTIES,
        ...profile.properties,
        'ro.serialno': init.serial,
        ...scenario?.properties,
      })
    )
    this.packages = (scenario?.packages ?? []).map((p: PackageSpec): InstalledPackage => ({...p, granted: new Set()}))
    if (scenario?.adbKeyboard && !this.packages.some((p) => p.name === ADB_KEYBOARD_PACKAGE)) {
      this.packages.push({
        name: ADB_KEYBOARD_PACKAGE,
        system: false,
        versionCode: 2,
        versionName: '2.0',
        permissions: [],
        granted: new Set(),
      })
    }
    if (scenario?.defaultPackages !== false) {
      for (const p of DEFAULT_SYSTEM_PACKAGES)
        if (!this.packages.some((q) => q.name === p.name)) this.packages.push({...p})
    }
    if (scenario?.wm?.size) {
      const [w, h] = scenario.wm.size.split('x').map(Number)
      this.wmSize = {width: w as number, height: h as number}
    }
    this.wmDensity = scenario?.wm?.density
    this.windowsDump = scenario?.windowsDump ?? false
    this.hasFlock = scenario?.flock ?? true
    this.otherDisplay = scenario?.otherDisplay
    this.outputNoise = scenario?.outputNoise ?? []
    this.homeScreen = scenario?.homeScreen
    this.logcat = scenario?.logcat ? scenario.logcat.map((e) => parseLogEntry(e, this)) : []
    for (const [file, content] of Object.entries(scenario?.files ?? {})) {
      const host = this.files.hostPath(file)
      mkdirSync(path.dirname(host), {recursive: true})
      writeFileSync(host, content)
    }
  }

  /** Loads the device's screens (snapshots) and seeds packages, foreground and logs from them. */
  static async create(init: VirtualDeviceInit): Promise<VirtualDevice> {
    const device = new VirtualDevice(init)
    for (const [name, screen] of Object.entries(init.screens)) {
      const spec = typeof screen === 'string' ? {snapshot: screen} : screen
      device.screens.set(name, await loadScreen(name, spec.snapshot, spec))
      if (typeof screen !== 'string' && screen.animated) device.animatedScreens.add(name)
      if (typeof screen !== 'string' && screen.secure) device.secureScreens.add(name)
    }
    if (init.app) device.screens.set(init.app.screenName, init.app.draw())
    const first = init.scenario?.initialScreen ?? [...device.screens.keys()][0]
    if (first === undefined) throw new Error(`device ${init.serial} has no screen`)
    // Apps seen on any screen are installed user apps unless declared otherwise.
    for (const screen of device.screens.values()) {
      const seen = [screen.package, ...packagesInDump(screen.dump)].filter((p): p is string => Boolean(p))
      for (const name of seen) {
        if (device.packages.some((p) => p.name === name)) continue
        const launcher = screen.package === name && screen.activity ? screen.activity : '.MainActivity'
        device.packages.push({name, system: false, versionCode: 1, versionName: '1.0', launcher})
      }
    }
    const app = init.app && device.packages.find((p) => p.name === init.app!.package)
    if (app && init.app?.permissions && app.permissions === undefined) app.permissions = [...init.app.permissions]
    device.showScreen(first)
    if (!init.scenario?.logcat) device.logcat.push(...defaultLog(device))
    return device
  }

  get state(): AdbState {
    return this.stateValue
  }

  /**
   * Whether this device's adbd is older than Android 7 (`ro.build.version.sdk` below 24): it has no shell protocol
   * (no `shell_v2` feature, no `shell,v2,…:` service) and runs every `shell:` command in a PTY, whose line discipline
   * turns each LF written into CR LF. AOSP system/core adb/services.cpp up to Android 6.0: `shell:` →
   * `create_subproc_thread(name + 6, SUBPROC_PTY)`, `exec:` → `SUBPROC_RAW`; from 7.0 ShellService's default is
   * "PTY for interactive, raw for non-interactive" and the shell protocol is offered as the `shell_v2` feature.
   */
  get preNougatAdbd(): boolean {
    return Number(this.properties.get('ro.build.version.sdk') ?? '34') < 24
  }

  /** False after disconnect(): the device is gone from `host:devices` until reconnect(). */
  get isPresent(): boolean {
    return this.present
  }

  /**
   * The screen shown now, laid out at the display's size in force: the snapshot as recorded, or, while `wm size`
   * sets another size, the snapshot scaled to it (laidOutAt), so the dump, the window frames and where a touch
   * lands are all in the logical display's pixels, as on a phone.
   */
  get screen(): LoadedScreen {
    const panel = this.panelScreen
    const size = this.sizeInForce
    if (size.width === panel.width && size.height === panel.height) return panel
    const key = `${size.width}x${size.height}`
    if (this.laidOut?.panel !== panel || this.laidOut.key !== key) {
      this.laidOut = {panel, key, screen: laidOutAt(panel, size)}
    }
    return this.laidOut.screen
  }

  /**
   * The screen shown now as recorded, at the panel's own size (what `wm size` prints as Physical): a live app's
   * list still flinging is drawn where it is at this moment.
   */
  private get panelScreen(): LoadedScreen {
    this.catchUp()
    const app = this.app
    if (app?.advance && this.currentScreen === app.screenName && app.advance(performance.now()))
      this.screens.set(app.screenName, app.draw())
    return this.screens.get(this.currentScreen) as LoadedScreen
  }

  /** The display's size in force in the current orientation: the `wm size` override turned, else the panel's. */
  get sizeInForce(): {width: number; height: number} {
    const panel = this.panelScreen
    const o = this.wmSize
    if (!o) return {width: panel.width, height: panel.height}
    return panel.rotation % 2 === 1 ? {width: o.height, height: o.width} : {width: o.width, height: o.height}
  }

  private laidOut?: {panel: LoadedScreen; key: string; screen: LoadedScreen}

  /** Wall-clock ms until what moves on its own on the screen (a live app's fling) is at rest; 0 when nothing does. */
  motionLeftMs(): number {
    const app = this.app
    if (!app?.motionLeftMs || this.currentScreen !== app.screenName) return 0
    void this.screen // brings the app's motion (and its drawing) up to now
    return app.motionLeftMs(performance.now())
  }

  get screenName(): string {
    this.catchUp()
    return this.currentScreen
  }

  /** The app in front; `user` is set when it runs for a user other than the owner (am start --user N). */
  get foreground(): {package?: string; activity?: string; user?: number} {
    this.catchUp()
    return this.foregroundValue
  }

  set foreground(value: {package?: string; activity?: string; user?: number}) {
    this.foregroundValue = value
  }

  /** A screen change an input started is still on its way (the old screen shows). */
  get transitionPending(): boolean {
    this.catchUp()
    return this.pendingTransition !== undefined
  }

  /**
   * Starts the screen change an input triggered. It shows timing.transitionMs later (scaled): until then every read,
   * the dump, the window list and where a touch lands, is the old screen's, as on a phone, whose accessibility tree
   * changes only once the new window is drawn. When it shows, its window sends TYPE_WINDOW_STATE_CHANGED (the event
   * clock moves). An input meanwhile reaches the old screen, and a change it starts replaces this one.
   */
  private transitionTo(to: string): void {
    this.cancelTransition()
    const ms = this.timing.transitionMs * this.timing.scale
    if (ms <= 0) {
      this.showScreen(to)
      this.noteEvent()
      return
    }
    const due = performance.now() + ms
    const timer = setTimeout(() => this.catchUp(), Math.ceil(ms) + 1)
    timer.unref()
    this.pendingTransition = {to, due, timer}
  }

  private cancelTransition(): void {
    if (this.pendingTransition) clearTimeout(this.pendingTransition.timer)
    this.pendingTransition = undefined
  }

  /**
   * Shows a pending screen change whose time has come. Every read calls it, so what a read sees depends on the
   * clock alone, never on when a timer ran on a busy host.
   */
  private catchUp(): void {
    const pending = this.pendingTransition
    if (!pending || performance.now() < pending.due) return
    this.cancelTransition()
    this.showScreen(pending.to)
    this.noteEvent(pending.due)
  }

  /** An app sent an accessibility event now (or at `at`, wall clock). */
  noteEvent(at = performance.now()): void {
    this.lastEvent = Math.max(this.lastEvent, at)
  }

  /**
   * Wall-clock time (performance.now()) of the last accessibility event the device's apps sent: now while the screen
   * changes on its own (an animated screen, a list still flinging: TYPE_VIEW_SCROLLED as it moves), -Infinity when none
   * was ever sent. What `uiautomator dump`'s idle wait, and arc's helper, watch (a UiAutomation sees only the events
   * sent after it connected).
   */
  lastAccessibilityEvent(): number {
    this.catchUp()
    if (this.animated || this.motionLeftMs() > 0) return performance.now()
    // A dialog the app run in code opened shows with an event of its own (brought up to now by reading the screen).
    const app = this.app
    if (!app?.lastEvent || this.currentScreen !== app.screenName) return this.lastEvent
    void this.screen
    return Math.max(this.lastEvent, app.lastEvent())
  }

  /** Switches to a named screen; its package/activity become the foreground when it names them. */
  showScreen(name: string): void {
    const screen = this.screens.get(name)
    if (!screen)
      throw new Error(`device ${this.serial} has no screen "${name}" (has: ${[...this.screens.keys()].join(', ')})`)
    this.cancelTransition()
    if (name !== this.currentScreen) {
      this.fields.screenChanged()
      this.keyboardDismissed = false
    }
    this.currentScreen = name
    if (screen.package) {
      this.foreground = {package: screen.package, activity: screen.activity}
      this.ensureRunning(screen.package)
    }
  }

  setState(state: AdbState): void {
    this.stateValue = state
    this.emit('changed')
  }

  /** The device drops off the bus: every open connection to it is closed and it leaves the device list. */
  disconnect(): void {
    this.present = false
    for (const socket of this.sockets) socket.end()
    this.sockets.clear()
    this.emit('disconnect')
    this.emit('changed')
  }

  reconnect(): void {
    this.present = true
    this.emit('changed')
  }

  /** Arms a fault for the next command starting with `command` (words; '' = any command). */
  addFault(fault: Omit<FaultSpec, 'times' | 'after'> & {times?: number; after?: boolean}): void {
    this.faults.push(arm({...fault, times: fault.times ?? 1, after: fault.after ?? false}))
  }

  /**
   * The next command (or the next one starting with `command`) never answers until the client gives up. `arrived`
   * resolves when a command has taken the hang: tests wait for it instead of guessing how long a slow host needs.
   */
  hangNext(command = ''): {arrived: Promise<void>} {
    let taken!: () => void
    const arrived = new Promise<void>((resolve) => (taken = resolve))
    this.faults.push({...arm({command, kind: 'hang', times: 1, after: false}), taken})
    return {arrived}
  }

  private readonly holds: Array<{words: string[]; when: 'before' | 'after'; arrived(): void; released: Promise<void>}> =
    []

  /**
   * The next command starting with `command` (words; '' = any) is slow, as a phone's `uiautomator dump` takes a
   * second or more: it waits until `release()`, either before it runs (`before`) or after it ran and wrote its
   * output, before it exits (`after`: what a dump printed is the screen at its start, the caller sees it only at
   * its end). `arrived` resolves when the command reached that point. Tests use it to order what callers see.
   */
  holdNext(command = '', when: 'before' | 'after' = 'before'): {arrived: Promise<void>; release(): void} {
    let arrived!: () => void
    let release!: () => void
    const reached = new Promise<void>((resolve) => (arrived = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    this.holds.push({words: command.split(/\s+/).filter(Boolean), when, arrived, released})
    return {arrived: reached, release}
  }

  /** The hold armed for this argv at this point, taken off the list (holdNext). */
  takeHold(argv: string[], when: 'before' | 'after'): {arrived(): void; released: Promise<void>} | undefined {
    const at = this.holds.findIndex((h) => h.when === when && h.words.every((w, i) => argv[i] === w))
    return at === -1 ? undefined : this.holds.splice(at, 1)[0]
  }

  /** Disarms every fault not yet consumed (one armed for a command that never arrived would catch the next). */
  clearFaults(): void {
    this.faults.length = 0
  }

  /** The screen shown never goes idle (a video, a spinner): dumps wait out the idle timeout and fail. */
  /**
   * What `screencap` shows of the screen now is black: the display sleeps (a powered-off panel composes nothing;
   * mzlogin/awesome-adb#122, a whole-black `screencap` of a blank screen), or the window in front has FLAG_SECURE,
   * which the platform keeps out of screenshots (WindowManager.LayoutParams.FLAG_SECURE: "preventing it from
   * appearing in screenshots"; the shell holds no CAPTURE_SECURE_VIDEO_OUTPUT).
   */
  get capturesBlack(): boolean {
    this.catchUp()
    return !this.awake || this.secureScreens.has(this.currentScreen)
  }

  get animated(): boolean {
    this.catchUp()
    return this.animatedScreens.has(this.currentScreen)
  }

  /** Makes a screen (default: the one shown) animated or still. */
  setAnimated(animated: boolean, screen = this.currentScreen): void {
    if (animated) this.animatedScreens.add(screen)
    else this.animatedScreens.delete(screen)
  }

  /**
   * Connects a UiAutomation for `holder`, as UiAutomation.connect does: undefined when another one holds it (the
   * caller dies as uiautomator does), else a function that disconnects it.
   */
  holdUiAutomation(holder: string): (() => void) | undefined {
    if (this.uiAutomationHolder !== undefined) return undefined
    this.uiAutomationHolder = holder
    let held = true
    return () => {
      if (held && this.uiAutomationHolder === holder) this.uiAutomationHolder = undefined
      held = false
    }
  }

  /** Another tool (Appium's UiAutomator2 server, uiautomator2, Maestro) takes UiAutomation until the function is called. */
  simulateUiAutomationHolder(holder = 'io.appium.uiautomator2.server'): () => void {
    const release = this.holdUiAutomation(holder)
    if (!release) throw new Error(`UiAutomation on ${this.serial} is already held by ${this.uiAutomationHolder}`)
    return release
  }

  /** Waits `ms` of device time (multiplied by timing.scale), or less when the signal aborts. */
  async delay(ms: number, signal: AbortSignal): Promise<void> {
    const scaled = ms * this.timing.scale
    if (scaled > 0) await sleep(scaled, signal)
  }

  /** The next `n` `uiautomator dump`s fail the way real devices do. */
  failNextDumps(n: number, kind: 'idle-timeout' | 'null-root' = 'idle-timeout'): void {
    this.addFault({command: 'uiautomator dump', kind, times: n})
  }

  /** Consumes the first armed fault matching this argv. */
  takeFault(argv: string[]): ArmedFault | undefined {
    const fault = this.faults.find((f) => f.remaining > 0 && f.words.every((w, i) => argv[i] === w))
    if (fault) {
      fault.remaining--
      fault.taken?.()
    }
    return fault
  }

  attach(socket: Socket): void {
    this.sockets.add(socket)
    socket.once('close', () => this.sockets.delete(socket))
  }

  /** The uiautomator XML the device serves now: the screen's, with typed text and focus written in, less a closed keyboard. */
  dumpXml(): string {
    const xml = this.fields.xml(this.screen)
    return this.keyboardDismissed ? withoutKeyboard(xml, this.screen.dump) : xml
  }

  /** The screen draws a keyboard: an input method's window in its dump, or a shown one in its recorded window list. */
  get screenHasKeyboard(): boolean {
    const recorded = this.screen.windowManager
    if (recorded) return recorded.windows.some((w) => w.type === 'INPUT_METHOD' && w.displayId === 0 && w.visible)
    return this.screen.dump.windows.some((root) => isKeyboardRoot(root) && root.displayId === 0)
  }

  /** The keyboard shows now: the screen has one and no BACK closed it. */
  get keyboardShown(): boolean {
    return this.screenHasKeyboard && !this.keyboardDismissed
  }

  /** A pid for a process that is not an app (a shell program's VM). */
  spawnPid(): number {
    const pid = this.nextPid
    this.nextPid += 37
    return pid
  }

  /** Adds a line to the device log (`crash`: the crash buffer); a following `logcat` writes it at once (event `log`). */
  appendLog(spec: LogEntrySpec, buffer?: 'crash'): LogEntry {
    const entry = {...parseLogEntry(spec, this), ...(buffer ? {buffer} : {})}
    this.logcat.push(entry)
    this.emit('log', entry)
    return entry
  }

  /** Screen off; with a lock set, the lock screen shows when it comes back on. */
  sleep(): void {
    this.awake = false
    this.dreaming = false
    if (this.lock !== 'none') this.keyguardShowing = true
  }

  /** `wm dismiss-keyguard`: a swipe lock goes away; a secure one shows its PIN pad and stays. */
  dismissKeyguard(): void {
    if (this.awake && this.lock !== 'secure') this.keyguardShowing = false
  }

  /** Natural (portrait) physical size, what `wm size` prints. */
  get physicalSize(): {width: number; height: number} {
    const s = this.panelScreen
    return s.rotation % 2 === 1 ? {width: s.height, height: s.width} : {width: s.width, height: s.height}
  }

  findPackage(name: string): InstalledPackage | undefined {
    return this.packages.find((p) => p.name === name)
  }

  /**
   * An activity of an installed package as `am start -n` finds it: a launcher, one of `activities`, or one a screen
   * of the package names (shown when started); undefined when the package declares no such class.
   */
  findActivity(pkg: InstalledPackage, activity: string): {exported: boolean; screen?: string} | undefined {
    const full = fullActivity(pkg.name, activity)
    const same = (name: string) => fullActivity(pkg.name, name) === full
    const declared = (pkg.activities ?? [])
      .map((a) => (typeof a === 'string' ? {name: a, exported: true} : a))
      .find((a) => same(a.name))
    if (declared) return {exported: declared.exported, screen: declared.screen ?? pkg.screen}
    if ([pkg.launcher, ...(pkg.moreLaunchers ?? [])].some((name) => name !== undefined && same(name)))
      return {exported: true, screen: pkg.screen}
    for (const [name, screen] of this.screens) {
      if (screen.package === pkg.name && screen.activity !== undefined && same(screen.activity))
        return {exported: true, screen: name}
    }
    return undefined
  }

  ensureRunning(pkg: string, user = 0): number {
    let pid = this.running.get(pkg)
    if (pid === undefined) {
      pid = this.nextPid
      this.nextPid += 37
      this.running.set(pkg, pid)
    }
    let users = this.runningUsers.get(pkg)
    if (!users) this.runningUsers.set(pkg, (users = new Set()))
    users.add(user)
    return pid
  }

  /** Brings an app to the front, as the launcher or `am start` would; `user`: whose copy (am start --user N). */
  launch(pkg: InstalledPackage, activity = pkg.launcher ?? '.MainActivity', screen = pkg.screen, user = 0): void {
    this.ensureRunning(pkg.name, user)
    if (screen) this.showScreen(screen)
    this.foreground = {package: pkg.name, activity: shortActivity(pkg.name, activity), ...(user === 0 ? {} : {user})}
  }

  /**
   * Stops an app; when it was in front the launcher comes back. `user`: only that user's copy (`am force-stop
   * --user N`); without, every user's (AOSP ActivityManagerShellCommand.runForceStop: userId defaults to USER_ALL).
   */
  forceStop(name: string, user?: number): void {
    const users = this.runningUsers.get(name)
    if (user !== undefined && users) {
      users.delete(user)
      if (users.size === 0) this.runningUsers.delete(name)
    } else this.runningUsers.delete(name)
    if (!this.runningUsers.has(name)) this.running.delete(name)
    if (this.foreground.package === name && (user === undefined || (this.foreground.user ?? 0) === user)) this.goHome()
  }

  goHome(): void {
    if (this.homeScreen) this.showScreen(this.homeScreen)
    this.foreground = {package: LAUNCHER_PACKAGE, activity: LAUNCHER_ACTIVITY}
  }

  /**
   * Records an input event and follows the scenario transition it triggers, if any. Emits `input` with the event
   * and the screen it reached (before it changed it): what a tap landed on.
   */
  /**
   * A touch `input` injects (tap, swipe, motion event): asleep, the dispatcher passes it to no window; while a
   * screensaver shows, the dream takes it and ends (recent DreamService wakes on the touch's ACTION_UP, older ones
   * on its first event), recording nothing; else the app gets it.
   */
  touchScreen(event: InputEvent): void {
    if (!this.awake) return
    if (this.dreaming) {
      if (event.type !== 'motionevent' || event.action === 'UP') this.dreaming = false
      return
    }
    this.recordInput(event)
  }

  recordInput(event: InputEvent): void {
    this.catchUp()
    this.inputEvents.push(event)
    this.emit('input', event, this.currentScreen)
    // The view it reaches answers at once (TYPE_VIEW_CLICKED, TEXT_CHANGED, SCROLLED): the event clock moves now,
    // whatever screen change it starts shows later (transitionTo).
    this.noteEvent()
    if (event.type === 'keyevent' && event.code === 4 && !event.longpress && !event.doubletap && this.keyboardShown) {
      // The input method takes a BACK while it shows: the keyboard closes, and the app (and its transitions) see nothing.
      this.keyboardDismissed = true
      return
    }
    if (this.liveInput(event)) return
    if (event.type === 'tap') {
      const window = windowUnder(this, event.x, event.y)
      this.fields.tap(this.screen, event.x, event.y, window)
      if (this.keyboardDismissed && this.tappedFocusedField(event.x, event.y, window)) this.keyboardDismissed = false
    } else if (event.type === 'text') {
      if (this.clicked(this.fields.typeKeys(this.screen, event.text).clicked)) return
    } else if (event.type === 'commit' || event.type === 'paste') this.fields.type(this.screen, event.text)
    else if (event.type === 'clear-text') this.fields.clear(this.screen)
    else if (event.type === 'keyevent' && !event.longpress && !event.doubletap) {
      if (this.clicked(this.fields.key(this.screen, event.code, event.meta ?? 0).clicked)) return
    }
    const hit = this.transitionFor(event)
    // A swipe's list moved with the finger while it went (TYPE_VIEW_SCROLLED all the way): it shows where it went at
    // once. What a tap, a key or an editor action starts (an activity, a dialog) shows only after its transition.
    if (hit && event.type === 'swipe') this.showScreen(hit.to)
    else if (hit) this.transitionTo(hit.to)
    else if (event.type === 'keyevent' && event.code === 3) this.goHome()
  }

  /**
   * Input on the screen of the app run in code goes to that app first; when it takes it, the app draws its screen
   * again (what was typed into its fields is its state now) and nothing else sees the input.
   */
  private liveInput(event: InputEvent): boolean {
    const app = this.app
    if (!app || this.currentScreen !== app.screenName) return false
    const point = event.type === 'tap' ? [event.x, event.y] : event.type === 'swipe' ? [event.x1, event.y1] : undefined
    const window = point ? windowUnder(this, point[0]!, point[1]!) : undefined
    const input: LiveAppInput = {
      reachesApp: window !== undefined && this.screen.dump.windows[window]?.package === app.package,
      fields: this.fieldTexts(),
      timeScale: this.timing.scale,
      transitionMs: this.timing.transitionMs * this.timing.scale,
    }
    let took = false
    // The app run in code draws at the panel's size: a point of the display in force is scaled back to it.
    const panel = this.panelScreen
    const fx = panel.width / this.screen.width
    const fy = panel.height / this.screen.height
    if (event.type === 'tap') took = app.tap(event.x * fx, event.y * fy, input)
    else if (event.type === 'swipe') {
      const [x1, y1, x2, y2] = [event.x1 * fx, event.y1 * fy, event.x2 * fx, event.y2 * fy]
      const distance = Math.hypot(x2 - x1, y2 - y1)
      const velocity =
        event.velocity !== undefined
          ? event.velocity * fy
          : event.durationMs > 0
            ? (distance * 1000) / event.durationMs
            : Infinity
      took = app.swipe(x1, y1, x2, y2, input, {velocity, liftInMs: event.liftInMs ?? event.durationMs})
    } else if (event.type === 'keyevent' && !event.longpress && !event.doubletap) took = app.key(event.code, input)
    if (took) {
      this.fields.forget(app.screenName)
      this.screens.set(app.screenName, app.draw())
    }
    return took
  }

  /** What each edit field of the screen shown holds now, by resource id. */
  private fieldTexts(): Map<string, string> {
    const texts = new Map<string, string>()
    for (const node of this.screen.dump.nodes)
      if (node.resourceId !== '' && isTextEditor(node))
        texts.set(node.resourceId, this.fields.textOf(this.screen, node.index))
    return texts
  }

  /** A confirm key clicked a focused control (not a field): it does what a tap on its centre does. */
  private clicked(node: ScreenNode | undefined): boolean {
    if (!node) return false
    this.clicks.push(node)
    const [l, t, r, b] = node.bounds
    const click = this.transitionFor({type: 'tap', x: Math.floor((l + r) / 2), y: Math.floor((t + b) / 2)})
    if (click) this.transitionTo(click.to)
    return true
  }

  /** The first transition from the current screen that this event triggers (taps, keys, statusbar, swipes, editor actions). */
  private transitionFor(event: InputEvent): TransitionSpec | undefined {
    let triggers: (t: TransitionSpec) => boolean
    if (event.type === 'tap') triggers = (t) => t.tap !== undefined && this.hits(t.tap, event.x, event.y)
    else if (event.type === 'swipe') {
      const direction = swipeDirection(event)
      triggers = (t) =>
        t.swipe !== undefined &&
        t.swipe.direction === direction &&
        (t.swipe.inside === undefined || this.hits(t.swipe.inside, event.x1, event.y1))
    } else if (event.type === 'keyevent')
      triggers = (t) => t.keyevent !== undefined && keyCode(t.keyevent) === event.code
    else if (event.type === 'statusbar') triggers = (t) => t.statusbar === event.action
    else if (event.type === 'editor-action') triggers = (t) => t.editorAction === true
    else return undefined
    const from = this.currentScreen
    return this.transitions.find((t) => (t.from === undefined || t.from === '*' || t.from === from) && triggers(t))
  }

  /** The tap landed on the edit field that has the focus now (it took it): its keyboard shows again. */
  private tappedFocusedField(x: number, y: number, window: number | undefined): boolean {
    const focus = this.fields.focused(this.screen)
    if (!focus) return false
    const node = this.screen.dump.nodes[focus.index]
    return node !== undefined && node.window === window && contains(node.bounds, x, y)
  }

  /**
   * (x, y) falls inside an element of the screen shown that the selector matches, in the window that takes a touch
   * there (touch.ts): an element covered by a window above it (the keyboard, a dialog) is not reached.
   */
  private hits(selector: NonNullable<TransitionSpec['tap']>, x: number, y: number): boolean {
    const window = windowUnder(this, x, y)
    if (window === undefined) return false
    for (const node of this.screen.dump.windows[window]!.nodes) {
      if (selector.resourceId !== undefined && node.resourceId !== selector.resourceId) continue
      if (selector.text !== undefined && node.text !== selector.text) continue
      if (selector.contentDesc !== undefined && node.contentDesc !== selector.contentDesc) continue
      if (contains(node.bounds, x, y)) return true
    }
    return false
  }

  /** A key press, `flags.meta` its KeyEvent meta state (recorded only when not 0). */
  keyEvent(code: number, flags: {longpress?: boolean; doubletap?: boolean; meta?: number} = {}): void {
    if (code === 224) {
      this.awake = true
      this.dreaming = false
    } else if (code === 223 || (code === 26 && this.awake)) this.sleep()
    else if (code === 26) this.awake = true
    else if (code === 82 && this.awake && this.lock === 'swipe') this.keyguardShowing = false
    const {meta, ...press} = flags
    this.recordInput({type: 'keyevent', code, name: keyName(code), ...press, ...(meta ? {meta} : {})})
  }
}
