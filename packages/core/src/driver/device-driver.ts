/**
 * The device driver: the one seam between arc's tools and a device, composed of capabilities (capabilities/*.ts,
 * each with its types). Backends: the live ADB driver (adbkit), the recorded-snapshot driver (folders, `.xml`
 * files and the bundled `demo`: the screen and info capabilities only), and in tests the same ADB driver pointed at
 * `arc emulate`. Tools declare the capabilities they need (`needs` in defineTool) and never know which backend
 * they hold.
 *
 * Units: coordinates and sizes are device pixels in the current orientation, the same space as the bounds in a
 * uiautomator dump. Durations are milliseconds.
 */
import type {AppsCapability} from './capabilities/apps.js'
import type {ClipboardCapability} from './capabilities/clipboard.js'
import type {FilesCapability} from './capabilities/files.js'
import type {InfoCapability} from './capabilities/info.js'
import type {InputCapability} from './capabilities/input.js'
import type {LogsCapability} from './capabilities/logs.js'
import type {RecordingCapability} from './capabilities/recording.js'
import type {ScreenCapability} from './capabilities/screen.js'
import type {ShellCapability} from './capabilities/shell.js'
import type {SystemCapability} from './capabilities/system.js'

export type * from './capabilities/apps.js'
export type * from './capabilities/clipboard.js'
export type * from './capabilities/files.js'
export type * from './capabilities/info.js'
export type * from './capabilities/input.js'
export type * from './capabilities/logs.js'
export type * from './capabilities/recording.js'
export type * from './capabilities/screen.js'
export type * from './capabilities/shell.js'
export type * from './capabilities/system.js'

/** Every capability by name. A backend may serve some and not others (a snapshot serves `screen` and `info`). */
export interface DeviceCapabilities {
  screen: ScreenCapability
  info: InfoCapability
  input: InputCapability
  system: SystemCapability
  apps: AppsCapability
  logs: LogsCapability
  files: FilesCapability
  clipboard: ClipboardCapability
  shell: ShellCapability
  recording: RecordingCapability
}

export type CapabilityName = keyof DeviceCapabilities

/** What a call does with a capability: only reads the device (`read`), or changes it (`act`). */
export type CapabilityUse = 'read' | 'act'

/** The capabilities a tool call needs, each with its use: `{screen: 'read', input: 'act'}`. */
export type DeviceNeeds = Partial<Record<CapabilityName, CapabilityUse>>

/** A whole device: every capability, its serial, and close(). */
export interface DeviceDriver
  extends
    ScreenCapability,
    InfoCapability,
    InputCapability,
    SystemCapability,
    AppsCapability,
    LogsCapability,
    FilesCapability,
    ClipboardCapability,
    ShellCapability,
    RecordingCapability {
  /** The device's serial (`demo`, a snapshot path, or an adb serial). */
  readonly serial: string
  /**
   * The adb server the device is reached through, `HOST:PORT` (a loopback host as 127.0.0.1, as the device lock keys
   * it); undefined for a snapshot. Two servers may each have a device of one serial (emulators in containers, each
   * its own `emulator-5554`): what arc remembers of a device is kept per server and serial (state/device-state.ts
   * deviceFolderName).
   */
  readonly adbServer?: string
  /**
   * Runs `work` as the device's only user (driver/device-lock.ts): no other call of this process and no other arc
   * process on this machine reads the screen of the device or sends it input until `work` settles. The driver's
   * own screen reads and inputs take the same section one at a time; inside `work` they run directly. An element
   * action resolves its id and sends its input inside one such section (`holdsDevice` in defineTool), so a tap is
   * only ever sent against the screen it was resolved on. Waiting ends with CANCELLED when the driver is closed (a
   * cancelled call). Not a capability: every tool may hold its device; a recording has nothing to share and just
   * runs `work`.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  /**
   * What served this driver's calls that the on-device helper could take (screen reads, screenshots, the clipboard,
   * typing, gestures), by capability, the last of each with its time; undefined where there is no choice (the
   * helper is off, a snapshot). Not a capability: runTool asks it after the handler (ToolResult.backend).
   */
  served?(): Record<string, {by: 'helper' | 'adb'; ms: number; fallback?: string; settled?: false}> | undefined
  /** Releases connections. Safe to call twice. */
  close(): Promise<void>
}

/**
 * Each capability's methods, and whether each changes the device. A capability's interface and its row must
 * agree, both ways (a compile error otherwise): runTool hands a tool only the methods of what it declared, and a backend
 * missing a capability refuses its methods by this table.
 */
export const CAPABILITY_METHODS = {
  screen: {
    captureScreen: 'read',
    screenshot: 'read',
    screenSize: 'read',
    windowInfo: 'read',
    windowInfoOrCapture: 'read',
    keyboard: 'read',
  },
  info: {deviceInfo: 'read', rotation: 'read', displayAwake: 'read'},
  input: {
    tap: 'act',
    longPress: 'act',
    doubleTap: 'act',
    swipe: 'act',
    gesture: 'act',
    pressKey: 'act',
    pressKeys: 'act',
    pressKeyWith: 'act',
    // A check before typing, asked only by a tool about to type: part of the action.
    checkTypable: 'act',
    inputText: 'act',
    pressEditorAction: 'act',
  },
  system: {
    openNotifications: 'act',
    openQuickSettings: 'act',
    setRotation: 'act',
    wake: 'act',
    unlock: 'act',
    probeCapabilities: 'read',
  },
  apps: {
    listApps: 'read',
    openApp: 'act',
    closeApp: 'act',
    installApp: 'act',
    uninstallApp: 'act',
    clearAppData: 'act',
    openUrl: 'act',
    setPermission: 'act',
  },
  logs: {logs: 'read', followLogs: 'read', clearLogs: 'act'},
  files: {
    statFile: 'read',
    listDir: 'read',
    readFile: 'read',
    realPath: 'read',
    freeBytes: 'read',
    makeDirs: 'act',
    writeFile: 'act',
    withFileLock: 'act',
    deleteFile: 'act',
  },
  clipboard: {getClipboard: 'read', setClipboard: 'act'},
  shell: {runCommand: 'act'},
  recording: {screenRecord: 'read'},
} as const satisfies {[C in CapabilityName]: Record<keyof DeviceCapabilities[C], CapabilityUse>}

export const CAPABILITY_NAMES = Object.keys(CAPABILITY_METHODS) as CapabilityName[]
