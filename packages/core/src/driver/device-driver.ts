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
  version_name?: string
  version_code?: number
  is_system: boolean
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

export interface LogResult {
  logs: string
  line_count: number
  truncated: boolean
}

export interface DeviceDriver {
  /** The device's serial (`demo`, a snapshot path, or an adb serial). */
  readonly serial: string
  /** `snapshot` drivers are read-only; `adb` drivers act. */
  readonly kind: 'adb' | 'snapshot'

  /** One observation: hierarchy XML, screen size, density, rotation and foreground app. */
  captureScreen(): Promise<ScreenCapture>
  /** A PNG of the screen, in the current orientation. */
  screenshot(): Promise<Buffer>
  /** Screen width and height in the current orientation, without a full capture (scroll needs only these). */
  screenSize(): Promise<{width: number; height: number}>

  tap(point: Point): Promise<void>
  longPress(point: Point, durationMs: number): Promise<void>
  doubleTap(point: Point): Promise<void>
  swipe(from: Point, to: Point, durationMs: number): Promise<void>
  /** Sends one key event: an Android keycode name (`KEYCODE_BACK`, `BACK`) or number. */
  pressKey(key: string | number): Promise<void>
  /** Types text into the focused field. */
  inputText(text: string): Promise<void>
  openNotifications(): Promise<void>
  openQuickSettings(): Promise<void>

  listApps(filter: AppFilter): Promise<AppInfo[]>
  openApp(packageId: string): Promise<void>
  closeApp(packageId: string): Promise<void>
  logs(query: LogQuery): Promise<LogResult>

  /** Releases connections. Safe to call twice. */
  close(): Promise<void>
}
