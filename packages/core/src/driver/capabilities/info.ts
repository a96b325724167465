/** The info capability: what the device is and how its display is turned. Reads only; snapshots serve it too. */
import type {Foreground} from './screen.js'

export interface DeviceSummary {
  serial: string
  /** `device`, `offline`, `unauthorized`, `recorded`… as the source reports it. */
  state: string
  model?: string
  product?: string
  transportId?: string
}

export interface BatteryInfo {
  /** Charge in percent (level/scale), when the device reports it. */
  level?: number
  /** `charging`, `discharging`, `not charging`, `full` or `unknown`. */
  status: string
  /** `ac`, `usb`, `wireless`, `dock` or none (empty list). */
  plugged: string[]
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

export interface InfoCapability {
  /** Model, Android version, ABI, screen and battery. */
  deviceInfo(): Promise<DeviceInfo>
  rotation(): Promise<RotationState>
  /**
   * Whether the display is on: false while it sleeps (Android drops touches then, and screenshots come out black),
   * undefined where the source cannot say (a recording).
   */
  displayAwake(): Promise<boolean | undefined>
}
