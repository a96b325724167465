/**
 * An app the virtual device runs in code rather than from recorded screens (the demo's groceries list): it draws
 * its screen from its own state and changes that state on the input that reaches its window. The device asks it
 * first about every input on its screen; what it does not take goes on as for a recorded screen (edit fields, the
 * keyboard, scenario transitions).
 */
import type {LoadedScreen} from './snapshot-screen.js'

export interface LiveAppInput {
  /** The touch reaches one of the app's windows (the topmost window under the point is the app's). */
  reachesApp: boolean
  /** What the app's edit fields hold now, by resource id (what was typed into them since the last draw). */
  fields: ReadonlyMap<string, string>
  /** The device's time scale (timing.scale): how long its motion lasts in wall-clock time, per millisecond of device time. */
  timeScale?: number
  /**
   * Wall-clock ms a window the input opens (a dialog) takes to show: the device's timing.transitionMs, scaled. Until
   * then the app draws the screen as it was; 0 or absent: at once.
   */
  transitionMs?: number
}

export interface LiveApp {
  /** The device's name for the screen it draws. */
  readonly screenName: string
  /** Its package, whose windows take its input. */
  readonly package: string
  /** The runtime permissions its manifest requests (none granted at install, as `pm install` without -g leaves them). */
  readonly permissions?: readonly string[]
  /** The screen as it is now. */
  draw(): LoadedScreen
  /** A tap; true when the app took it (the device then draws the app again, and nothing else sees the tap). */
  tap(x: number, y: number, input: LiveAppInput): boolean
  /**
   * A swipe from (x1, y1) to (x2, y2) whose finger lifted `liftInMs` of device time from now, moving at `velocity`
   * px/s along its path then (what the VelocityTracker measured: 0 for a finger that stopped before lifting); true
   * when the app took it.
   */
  swipe(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    input: LiveAppInput,
    motion?: {velocity: number; liftInMs: number}
  ): boolean
  /**
   * Moves what still moves on its own (a list flinging after the finger left it) to where it is at wall-clock time
   * `now` (performance.now()); true when that changed the screen.
   */
  advance?(now: number): boolean
  /** Wall-clock milliseconds until nothing moves on its own any more (0: at rest). */
  motionLeftMs?(now: number): number
  /**
   * Wall-clock time (performance.now()) of the last accessibility event the app sent on its own, not on an input: a
   * window it opened showing (TYPE_WINDOW_STATE_CHANGED). -Infinity or absent: none.
   */
  lastEvent?(): number
  /** A key (Android key code); true when the app took it. */
  key(code: number, input: LiveAppInput): boolean
}
