/** The system capability: the system UI and the display's state (status bar panels, rotation, power, lock), and doctor's probe. */
import type {Degrees} from './info.js'

export interface PowerState {
  /** True when the screen is on (wakefulness `Awake`). */
  awake: boolean
  /** True when the lock screen (keyguard) shows. */
  locked: boolean
  /** True when the lock needs a PIN, pattern or password, when the device says. */
  secure?: boolean
}

/** One thing `arc doctor` checked: whether the device allows it, how, and what arc does when it does not. */
export interface Capability {
  id: string
  status: 'yes' | 'partial' | 'no'
  detail: string
  /** What arc does instead ('' when the capability is there). */
  fallback: string
  /** What serves it on this device: the program or path arc uses (`cmd input`, `uiautomator dump --windows`…), or `none`. */
  backend: string
}

export interface CapabilityReport {
  serial: string
  android: {release: string | null; sdk: number | null; model: string | null; build_type: string | null}
  capabilities: Capability[]
  /**
   * What one call cost while probing, in milliseconds (null when it failed): a screen read (`read_ms`: the UI dump and
   * the window manager's state) and one `input` call (`input_ms`: the harmless key arc sends).
   */
  costs: {read_ms: number | null; input_ms: number | null}
}

export interface SystemCapability {
  openNotifications(): Promise<void>
  openQuickSettings(): Promise<void>
  /** Locks the display to a rotation (auto-rotate off), or hands it back to the accelerometer (`auto`). */
  setRotation(target: Degrees | 'auto'): Promise<void>
  /** Turns the screen on; returns the state before. */
  wake(): Promise<PowerState>
  /** Wakes and dismisses a lock screen without a PIN; fails when a secure lock remains. Returns the state before. */
  unlock(): Promise<PowerState>
  /** Probes what the device allows without changing anything a user would notice (`arc doctor`). */
  probeCapabilities(): Promise<CapabilityReport>
}
