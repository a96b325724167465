/**
 * The screen capability: reading what the device shows (the uiautomator dump, a PNG, the window manager's list and
 * the keyboard). Served by every backend, recorded snapshots included.
 *
 * Units: coordinates and sizes are device pixels in the current orientation, the same space as the bounds in a
 * uiautomator dump.
 */
import type {UiHierarchy} from '../../screen/ui-node.js'

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
  /**
   * True when the window manager said, at the same moment, that the display sleeps (its policy's `mAwake=false`):
   * the dump still lists what the apps would draw, but a screenshot is black and a touch reaches nothing.
   */
  displayOff?: boolean
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
  /**
   * False where the window takes no touch (the input dispatcher passes them to the windows beneath): its flags say
   * NOT_TOUCHABLE (a blue-light filter, a toast, the wallpaper), or it narrowed its touchable region to nothing (the
   * taskbar, corner overlays). Undefined where the list does not say (no flags printed), else true.
   */
  touchable?: boolean
  /**
   * Where the window takes touches when it narrowed that itself (`touchable region=`, screen pixels, each rectangle
   * of the region): the keyboard's keys, the collapsed shade's status bar strip. Absent: its whole frame.
   */
  touchableRegion?: Array<[number, number, number, number]>
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

/** What a caller of ScreenCapability.screenshot can take instead of the full-size PNG. */
export interface ScreenshotWant {
  /** Longest side in pixels the caller keeps (0 or absent: full size); never enlarged, aspect kept. */
  maxSize?: number
  /** The encoding the caller writes; absent: PNG. */
  format?: 'png' | 'jpeg'
  /** JPEG quality 1-100 (default 90). */
  quality?: number
}

export interface ScreenCapability {
  /** One observation: hierarchy XML, screen size, density, rotation and foreground app. */
  captureScreen(): Promise<ScreenCapture>
  /**
   * An image of the screen, in the current orientation: a PNG at full size, unless `want` says the caller takes a
   * smaller image or a JPEG and the driver can make one where the screen is (the on-device helper scales and encodes
   * on the phone, so less crosses USB). `want` is a hint: a driver that cannot serve it returns the full-size PNG, so
   * the caller looks at what came (isPng / jpegSize) and still fits it host-side. Callers that need the screen's
   * exact pixels (crops, comparisons, snapshots, annotate's drawing) pass nothing.
   */
  screenshot(want?: ScreenshotWant): Promise<Buffer>
  /**
   * Screen width and height in the current orientation, without a full capture (the touch tools' check). A live
   * driver answers from what this process last read of the device where nothing arc did since can have changed it
   * (docs/architecture.md, "Screen geometry"), then says `remembered`; `fresh` asks the device.
   */
  screenSize(options?: {fresh?: boolean}): Promise<{width: number; height: number; remembered?: boolean}>
  /** Screen and the window manager's window list, without a dump: where the keyboard and bars are, when it can tell. */
  windowInfo(): Promise<WindowInfo>
  /**
   * windowInfo(), and a capture as well when `needsDump(info)` says the window manager's view is not enough (plain
   * scroll, when the keyboard's and bars' frames are unusable): the capture is of the same reading, which the
   * backend reuses where it can (a live device then dumps only).
   */
  windowInfoOrCapture(needsDump: (info: WindowInfo) => boolean): Promise<{info: WindowInfo; capture?: ScreenCapture}>
  /** Whether the soft keyboard shows, by the input method service and the window manager (no dump). */
  keyboard(): Promise<KeyboardState>
}
