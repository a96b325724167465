/**
 * The device driver interface: the one seam between arc's tools and a device. Implementations: the live ADB
 * driver (adbkit), the recorded-snapshot driver (folders, `.xml` files and the bundled `demo`), and in tests the
 * same ADB driver pointed at `arc emulate`. Tools never know which one they hold.
 *
 * Units: coordinates and sizes are device pixels in the current orientation, the same space as the bounds in a
 * uiautomator dump. Durations are milliseconds.
 */

import type {UiHierarchy} from '../screen/ui-node.js'

export interface Point {
  x: number
  y: number
}

export interface ScreenInfo {
  /** Width in pixels in the current orientation (what the dump's bounds use). */
  width: number
  /** Height in pixels in the current orientation. */
  height: number
  /** Density in dpi, or undefined when the source cannot tell (a bare `.xml` file). */
  density?: number
  /** Display rotation: 0, 1 (90°), 2 (180°) or 3 (270°). */
  rotation: 0 | 1 | 2 | 3
}

export interface Foreground {
  /** Package of the focused app, when known. */
  package?: string
  /** Its activity, as a short name when it is inside the package (`.Main`), else fully qualified. */
  activity?: string
}

/** Everything one observation of the screen needs, captured together. */
export interface ScreenCapture {
  /** The uiautomator XML, exactly as the device (or the file) gave it, sliced to `<?xml … </hierarchy>`. */
  xml: string
  screen: ScreenInfo
  foreground: Foreground
  /**
   * True when the dump holds every on-screen window (uiautomator `--windows`, or a dump with several top-level
   * windows); false when only the active window was available (screen-state prints the degradation note).
   */
  allWindows: boolean
  /** The parsed dump, when the driver already parsed it (saves a second parse). */
  hierarchy?: UiHierarchy
  /**
   * What the window manager reported at the same moment (live devices, and snapshots that recorded it): the
   * true window types, stacking order, titles and focus. Undefined for a bare recorded dump, whose window
   * metadata is then guessed from the dump alone.
   */
  windowManager?: WindowManagerState
}

/** One window as `dumpsys window windows` lists it. */
export interface DeviceWindow {
  /** The title inside `Window{…}`: `com.foo/com.foo.Main`, `StatusBar`, `InputMethod`, `PopupWindow:1a2b3c`. */
  title: string
  /** The owning package (`package=` on the window's owner line), when printed. */
  package?: string
  /** The LayoutParams type by name: BASE_APPLICATION, STATUS_BAR, INPUT_METHOD… (`TYPE_<n>` when unknown). */
  type: string
  /** Position in the window manager's list: 0 is the topmost window. */
  z: number
  /** `mBaseLayer`, the policy layer of the window's type (0 when not printed). */
  layer: number
  displayId: number
  /** Shown on screen now (`isVisible`, or surface and view visibility on older releases). */
  visible: boolean
  /** The window's frame in screen pixels [left, top, right, bottom], when printed. */
  frame?: [number, number, number, number]
}

export interface WindowManagerState {
  /** Every window listed, topmost first (a snapshot keeps only the visible ones). */
  windows: DeviceWindow[]
  /** The focused window's title (`mCurrentFocus`), when a window has focus. */
  focus?: string
}

/** The window manager's view alone, without a dump: the screen and the window list (plain scroll needs only these). */
export interface WindowInfo {
  screen: ScreenInfo
  /**
   * The window list with types, frames and visibility; undefined where the source has none (a recording that did
   * not save it, or a device whose `dumpsys window windows` lists no window).
   */
  windowManager?: WindowManagerState
}

/**
 * Whether the soft keyboard is on screen, as the device tells it two ways; the verdict is keyboardVerdict's
 * (keyboard-state.ts). Either is undefined where the source does not say.
 */
export interface KeyboardState {
  /** The input method service's `mInputShown` (`dumpsys input_method`): it last told the keyboard to show. */
  inputShown?: boolean
  /**
   * The window manager's keyboard window (INPUT_METHOD on display 0) is shown; false when the list has windows but
   * no shown keyboard (a keyboard on screen is always a window), undefined without a window list.
   */
  windowShown?: boolean
}

export interface DeviceSummary {
  serial: string
  /** `device`, `offline`, `unauthorized`, `recorded`… as the source reports it. */
  state: string
  model?: string
  product?: string
  transportId?: string
}

export type AppFilter = 'all' | 'user' | 'system'

export interface AppInfo {
  package_id: string
  /** Display label; over plain ADB this is the package name unless the device reports a label. */
  name: string
  /** Null where the device reports none (no versionName in the manifest, or a device that would not say). */
  version_name: string | null
  /** Null where the device reports none. */
  version_code: number | null
  is_system: boolean
}

export interface InstallOptions {
  /** `pm install -r`: reinstall over an installed version, keeping its data. */
  replace: boolean
  /** `-g`: grant every runtime permission the manifest declares. */
  grantAll: boolean
  /** `-d`: allow a lower version code than the installed one. */
  downgrade: boolean
  /** `-t`: allow an APK marked android:testOnly. */
  allowTest: boolean
}

export interface BatteryInfo {
  /** Charge in percent (level/scale), when the device reports it. */
  level?: number
  /** `charging`, `discharging`, `not charging`, `full` or `unknown`. */
  status: string
  /** `ac`, `usb`, `wireless`, `dock` or none (empty list). */
  plugged: string[]
}

/** One intent extra: `--es` (string), `--ei` (int) or `--ez` (boolean) of `am start`. */
export type IntentExtra =
  | {key: string; type: 'string'; value: string}
  | {key: string; type: 'int'; value: number}
  | {key: string; type: 'bool'; value: boolean}

/** What `openApp` starts besides the launcher: an activity of the package, and the intent it gets. */
export interface LaunchOptions {
  /** `.Name` (in the package), a fully qualified class name, as `am start -n PKG/ACTIVITY` takes it. */
  activity?: string
  /** The intent's action (`-a`). */
  action?: string
  /** The intent's data URI (`-d`). */
  data?: string
  extras?: IntentExtra[]
}

export interface DeviceInfo {
  serial: string
  model?: string
  manufacturer?: string
  brand?: string
  /** `ro.build.version.release`, e.g. `14`. */
  android_version?: string
  sdk?: number
  /** Primary ABI, e.g. `arm64-v8a`. */
  abi?: string
  /** Natural-orientation size and density in force (overrides win), when known. */
  screen?: {width: number; height: number; density?: number}
  battery?: BatteryInfo
  /** The app in front and its activity, as a screen capture reads them; absent when no app has focus. */
  foreground?: Foreground
}

export type Degrees = 0 | 90 | 180 | 270

export interface RotationState {
  /** What the display shows now. */
  rotation: Degrees
  /** True when the accelerometer decides (settings `accelerometer_rotation` = 1). */
  auto_rotate: boolean
  /** The rotation used while auto-rotate is off (settings `user_rotation`), when set. */
  user_rotation?: Degrees
}

export interface PowerState {
  /** True when the screen is on (wakefulness `Awake`). */
  awake: boolean
  /** True when the lock screen (keyguard) shows. */
  locked: boolean
  /** True when the lock needs a PIN, pattern or password, when the device says. */
  secure?: boolean
}

export interface ShellOutput {
  stdout: Buffer
  stderr: Buffer
  exitCode: number
}

export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F'

export interface LogQuery {
  lastLines: number
  /** ISO 8601 local time, e.g. 2024-01-15T10:30:00. */
  since?: string
  until?: string
  tag?: string
  level: LogLevel
  packageName?: string
}

/** What `logs --follow` filters on: the backlog size, minimum level, exact tag and package. */
export type FollowQuery = Omit<LogQuery, 'since' | 'until'>

/** One followed log line, parsed. */
export interface LogEvent {
  /** The spec's line format: `02-11 16:30:00.123 D/Tag: message`. */
  line: string
  /** `MM-DD hh:mm:ss.mmm`, the device's local time (logcat prints no year). */
  time: string
  level: string
  tag: string
  pid: number
  tid: number
  message: string
}

export interface LogResult {
  logs: string
  line_count: number
  truncated: boolean
}

/** What a path on the device is, as lstat reports it (a symlink is not followed). */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other'

export interface FileStat {
  kind: FileKind
  /** Size in bytes (the sync protocol's 32 bits: wraps above 4 GiB). */
  size: number
  /** Last modification, milliseconds since the epoch (seconds precision), or null when the device gave none. */
  mtimeMs: number | null
}

export interface FileEntry extends FileStat {
  name: string
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

/** One thing `arc doctor` checked: whether the device allows it, how, and what arc does when it does not. */
export interface Capability {
  id: string
  status: 'yes' | 'partial' | 'no'
  detail: string
  /** What arc does instead ('' when the capability is there). */
  fallback: string
}

export interface CapabilityReport {
  serial: string
  android: {release: string | null; sdk: number | null; model: string | null; buildType: string | null}
  capabilities: Capability[]
}

export interface DeviceDriver {
  /** The device's serial (`demo`, a snapshot path, or an adb serial). */
  readonly serial: string
  /** `snapshot` drivers are read-only; `adb` drivers act. */
  readonly kind: 'adb' | 'snapshot'

  /**
   * One observation: hierarchy XML, screen size, density, rotation and foreground app. `known`: what this driver's
   * windowInfo() just returned; the window manager's state behind it is reused instead of read again (a live device
   * then dumps only), where the driver can tell it is its own.
   */
  captureScreen(known?: WindowInfo): Promise<ScreenCapture>
  /** A PNG of the screen, in the current orientation. */
  screenshot(): Promise<Buffer>
  /**
   * Screen width and height in the current orientation, without a full capture (the touch tools' check). A live
   * driver answers from what this process last read of the device where nothing arc did since can have changed it
   * (docs/architecture.md, "Screen geometry"), then says `remembered`; `fresh` asks the device.
   */
  screenSize(options?: {fresh?: boolean}): Promise<{width: number; height: number; remembered?: boolean}>
  /** Screen and the window manager's window list, without a dump: where the keyboard and bars are, when it can tell. */
  windowInfo(): Promise<WindowInfo>
  /** Whether the soft keyboard shows, by the input method service and the window manager (no dump). */
  keyboard(): Promise<KeyboardState>

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
  openNotifications(): Promise<void>
  openQuickSettings(): Promise<void>

  listApps(filter: AppFilter): Promise<AppInfo[]>
  /**
   * Starts an app: its launcher activity, or `launch.activity` (`am start -n PKG/ACT`), with the intent's action,
   * data and extras when given.
   */
  openApp(packageId: string, launch?: LaunchOptions): Promise<void>
  closeApp(packageId: string): Promise<void>
  logs(query: LogQuery): Promise<LogResult>
  /**
   * Streams log lines to `onLine` (the last `lastLines` first, then new ones as they are logged) until `signal`
   * aborts, then resolves.
   */
  followLogs(query: FollowQuery, onLine: (event: LogEvent) => void, signal: AbortSignal): Promise<void>
  /** Empties the device's log buffers (`logcat -c`). */
  clearLogs(): Promise<void>

  /** Installs an APK from a path on the host. */
  installApp(apkPath: string, options: InstallOptions): Promise<void>
  /** Removes an app; `keepData` keeps its data and cache (`pm uninstall -k`). */
  uninstallApp(packageId: string, keepData: boolean): Promise<void>
  /** Deletes an app's data and cache (`pm clear`). */
  clearAppData(packageId: string): Promise<void>
  /** Opens a URL or deep link with whatever app handles it (an ACTION_VIEW intent). */
  openUrl(url: string): Promise<void>
  /** Grants (true) or revokes (false) a runtime permission, by its full name (`android.permission.CAMERA`). */
  setPermission(packageId: string, permission: string, granted: boolean): Promise<void>

  /** Model, Android version, ABI, screen and battery. */
  deviceInfo(): Promise<DeviceInfo>
  rotation(): Promise<RotationState>
  /** Locks the display to a rotation (auto-rotate off), or hands it back to the accelerometer (`auto`). */
  setRotation(target: Degrees | 'auto'): Promise<void>
  /** Whether the screen is on and the lock screen shows. */
  powerState(): Promise<PowerState>
  /** Turns the screen on; returns the state before. */
  wake(): Promise<PowerState>
  /** Wakes and dismisses a lock screen without a PIN; fails when a secure lock remains. Returns the state before. */
  unlock(): Promise<PowerState>
  /** Runs one command, each argv word quoted, with stdout, stderr and exit status apart. */
  runCommand(argv: string[], timeoutMs?: number): Promise<ShellOutput>

  /**
   * Records the screen as MP4 until the time limit (seconds) or until `signal` aborts, and returns the video.
   * UNSUPPORTED where the device has no `screenrecord`.
   */
  screenRecord(timeLimitSeconds: number, signal?: AbortSignal): Promise<Buffer>

  /** The clipboard's text, or null when it is empty. UNSUPPORTED where the device does not let arc read it. */
  getClipboard(): Promise<string | null>
  /** Puts text on the clipboard. UNSUPPORTED where the device does not let arc write it. */
  setClipboard(text: string): Promise<void>

  /**
   * lstat of a device path (sync STAT); undefined when the device found nothing, which over ADB is also its answer
   * for a path behind a folder closed to its shell user (see confirmMissing). The other file methods fail with
   * DEVICE_ACCESS_DENIED where the device refuses a path to its shell user (another app's data, a system file).
   */
  statFile(path: string): Promise<FileStat | undefined>
  /**
   * Asked only before reporting a path missing that statFile found nothing at: fails with DEVICE_ACCESS_DENIED when
   * the device refuses the path to its shell user (a folder on its way it may not look into), else returns.
   */
  confirmMissing(path: string): Promise<void>
  /** A folder's entries without `.` and `..` (sync LIST), in the device's order. */
  listDir(path: string): Promise<FileEntry[]>
  /**
   * A file's bytes (sync RECV). Given `maxBytes`, the read stops once past it: a longer file comes back cut after
   * more than `maxBytes` bytes, so the caller can tell it is over, without the rest in memory (a stat's size can be
   * wrong: older adbd sends it in 32 bits, so a file of 4 GiB and 5 bytes says 5).
   */
  readFile(path: string, maxBytes?: number): Promise<Buffer>
  /**
   * The path with every symlink, `.` and `..` resolved on the device (`realpath`); undefined when it or a parent
   * does not exist, or the links loop.
   */
  realPath(path: string): Promise<string | undefined>
  /** Free bytes on the file system holding `path`, or undefined when the device does not say. */
  freeBytes(path: string): Promise<number | undefined>
  /** Creates a folder and its missing parents (`mkdir -p`). */
  makeDirs(path: string): Promise<void>
  /**
   * Replaces a file's content atomically: the bytes go to a temporary name in the same folder (sync SEND), which is
   * then renamed over the target, so a failed or interrupted write leaves the old file as it was.
   */
  writeFile(path: string, data: Buffer): Promise<void>
  /** Deletes one file (never a folder). */
  deleteFile(path: string): Promise<void>

  /** Probes what the device allows over ADB without changing anything a user would notice (`arc doctor`). */
  probeCapabilities(): Promise<CapabilityReport>

  /** Releases connections. Safe to call twice. */
  close(): Promise<void>
}
