/**
 * The demo app as the virtual device runs it: a groceries list that works. ADD puts the new-item field's text at
 * the top of the list and empties the field; a row's check box ticks it; a row's delete button opens a dialog
 * (Cancel, BACK or a tap outside it closes it; Delete removes the row); the dialog shows only the device's
 * transition time after the tap, as a phone's does; a swipe in the list scrolls it a whole row
 * per row height the finger travelled, and stops where the last row is wholly shown. Its first state is the
 * bundled `demo` snapshot, byte for byte, so ids read on `--device demo` hold on the virtual device.
 */
import {readScreenDump, contains} from '../screen-dump.js'
import type {LiveApp, LiveAppInput} from '../live-app.js'
import type {LoadedScreen} from '../snapshot-screen.js'
import {demoXml} from './demo-xml.js'
import {
  ACTIVITY,
  APP,
  DENSITY,
  DIALOG_BOUNDS,
  HEIGHT,
  LIST_BOTTOM,
  LIST_TOP,
  ROW_HEIGHT,
  ROW_TOP,
  WIDTH,
  demoWindows,
  initialDemoState,
  lastFirstRow,
  type Box,
  type DemoItem,
  type DemoState,
} from './demo-screen.js'
import {paintDemo} from './paint.js'

const FIELD = `${APP}:id/new_item`
const KEYCODE_BACK = 4
/** ViewConfiguration's touch slop (8 dp): a finger that travels less is a tap, not a scroll. */
const TOUCH_SLOP = Math.round((8 * DENSITY) / 160)
/** ViewConfiguration's MINIMUM_FLING_VELOCITY and MAXIMUM_FLING_VELOCITY (50 and 8000 dp/s), in px/s here. */
const MIN_FLING = (50 * DENSITY) / 160
const MAX_FLING = (8000 * DENSITY) / 160

/**
 * How far (px) and how long (ms) a list flings from a lift at `velocity` px/s: AOSP OverScroller.SplineOverScroller
 * (getSplineFlingDistance, getSplineFlingDuration), with ViewConfiguration's scroll friction (0.015) and the physical
 * coefficient of this screen's density (gravity × 39.37 in/m × ppi × 0.84).
 */
export function splineFling(velocity: number): {distance: number; ms: number} {
  const decelerationRate = Math.log(0.78) / Math.log(0.9)
  const friction = 0.015 * 9.80665 * 39.37 * DENSITY * 0.84
  const l = Math.log((0.35 * Math.abs(velocity)) / friction)
  return {
    distance: friction * Math.exp((decelerationRate / (decelerationRate - 1)) * l),
    ms: 1000 * Math.exp(l / (decelerationRate - 1)),
  }
}

/** A fling under way: the list goes on `rows` rows past `from`, decelerating, over `ms` of wall-clock time from `start`. */
interface Fling {
  start: number
  ms: number
  from: number
  rows: number
}

const inside = ([l, t, r, b]: Box, x: number, y: number) => contains([l, t, r, b], x, y)

export class DemoApp implements LiveApp {
  readonly screenName: string
  readonly package = APP
  /** A shopping list that scans barcodes and finds shops nearby: what `arc app grant|revoke` examples name. */
  readonly permissions = ['android.permission.CAMERA', 'android.permission.ACCESS_FINE_LOCATION']
  readonly state: DemoState = initialDemoState()
  private fling?: Fling
  /**
   * The delete dialog a tap asked for, not shown yet: on a phone the button's click runs after ACTION_UP (View.onTouchEvent
   * posts performClick), and AlertDialog.show() adds a window that appears once drawn, its enter animation running
   * (AOSP core/res/res/values/config.xml config_shortAnimTime 200 ms; the device's timing.transitionMs). Until `due`
   * the app draws the list without it, and a touch reaches the list.
   */
  private opening?: {item: DemoItem; due: number}
  /** When the dialog last showed (TYPE_WINDOW_STATE_CHANGED), wall clock. */
  private shownAt = -Infinity

  constructor(screenName = 'main') {
    this.screenName = screenName
  }

  draw(): LoadedScreen {
    const xml = demoXml(this.state)
    const windows = demoWindows(this.state)
    let png: Buffer | undefined
    return {
      name: this.screenName,
      source: 'demo app',
      xml,
      dump: readScreenDump(xml),
      width: WIDTH,
      height: HEIGHT,
      density: DENSITY,
      rotation: 0,
      package: APP,
      activity: ACTIVITY,
      async png() {
        png ??= paintDemo(WIDTH, HEIGHT, windows)
        return png
      },
    }
  }

  /** Takes what was typed into the field since the last draw. */
  private sync(input: LiveAppInput): void {
    const typed = input.fields.get(FIELD)
    if (typed !== undefined) this.state.field = typed
  }

  /**
   * A list flinging after a fast swipe moves on by itself: where it is now is a function of time. It stops at its
   * end (the edge absorbs the rest) and when the fling's time is over; the rows come decelerating (OverScroller's
   * spline, here as 1 − (1 − t)²).
   */
  advance(now: number): boolean {
    const opened = this.showDialog(now)
    return this.advanceFling(now) || opened
  }

  /** Shows the dialog whose time has come; true when it did. */
  private showDialog(now: number): boolean {
    const opening = this.opening
    if (!opening || now < opening.due) return false
    this.opening = undefined
    const row = this.state.items.indexOf(opening.item)
    if (row < 0) return false
    this.state.confirmDelete = row
    this.shownAt = opening.due
    return true
  }

  lastEvent(): number {
    return this.shownAt
  }

  private advanceFling(now: number): boolean {
    const fling = this.fling
    if (!fling) return false
    const t = Math.min(1, Math.max(0, (now - fling.start) / fling.ms))
    const travelled = Math.round(Math.abs(fling.rows) * (1 - (1 - t) ** 2)) * Math.sign(fling.rows)
    const first = Math.min(lastFirstRow(this.state), Math.max(0, fling.from + travelled))
    const changed = first !== this.state.first
    this.state.first = first
    if (t >= 1 || first !== fling.from + travelled) this.fling = undefined
    return changed
  }

  /** Until the fling under way ends (as last advanced: the device advances it first). */
  motionLeftMs(now: number): number {
    return this.fling ? Math.max(0, this.fling.start + this.fling.ms - now) : 0
  }

  tap(x: number, y: number, input: LiveAppInput): boolean {
    const state = this.state
    if (!input.reachesApp) return false
    const now = performance.now()
    this.advance(now)
    if (this.motionLeftMs(now) > 0 && inside([0, LIST_TOP, WIDTH, LIST_BOTTOM], x, y)) {
      // A touch on a flinging list catches it: the list stops where it is and takes the touch for itself, so the
      // row under the finger is not clicked (AOSP RecyclerView.onInterceptTouchEvent: SCROLL_STATE_SETTLING becomes
      // DRAGGING and the event is intercepted; AbsListView.onInterceptTouchEvent returns true in TOUCH_MODE_FLING;
      // ScrollView's `mIsBeingDragged = !mScroller.isFinished()`).
      this.fling = undefined
      return true
    }
    if (state.confirmDelete !== undefined) {
      // A dialog is modal: it takes every touch; one outside it cancels it (AlertDialog's default).
      this.sync(input)
      if (inside(this.deleteBox(), x, y)) {
        state.items.splice(state.confirmDelete, 1)
        state.first = Math.min(state.first, lastFirstRow(state))
        state.confirmDelete = undefined
      } else if (!inside(DIALOG_BOUNDS, x, y) || inside(this.cancelBox(), x, y)) state.confirmDelete = undefined
      return true
    }
    this.sync(input)
    if (inside([801, 231, 1038, 357], x, y)) {
      const name = state.field.trim()
      if (name === '') return true
      state.items.unshift({name, qty: '1', done: false})
      state.first = 0
      state.field = ''
      return true
    }
    const row = this.rowAt(y)
    if (row === undefined) return false
    const top = ROW_TOP + (row - state.first) * ROW_HEIGHT
    if (inside([42, top + 37, 115, top + ROW_HEIGHT - 37], x, y)) {
      const item = state.items[row]!
      item.done = !item.done
      return true
    }
    if (inside([933, top + 31, 1038, top + ROW_HEIGHT - 31], x, y)) {
      // A second delete tap before the first dialog shows asks for its own instead (the first one's click never got
      // to show it on this model; on a phone both would stack).
      const ms = input.transitionMs ?? 0
      if (ms > 0) this.opening = {item: state.items[row]!, due: now + ms}
      else state.confirmDelete = row
      return true
    }
    return false
  }

  private cancelBox(): Box {
    const [, , r, b] = DIALOG_BOUNDS
    return [r - 560, b - 170, r - 300, b - 44]
  }

  private deleteBox(): Box {
    const [, , r, b] = DIALOG_BOUNDS
    return [r - 276, b - 170, r - 48, b - 44]
  }

  /** The row (an index into items) under y in the list, if any. */
  private rowAt(y: number): number | undefined {
    if (y < LIST_TOP || y >= LIST_BOTTOM || y < ROW_TOP) return undefined
    const row = this.state.first + Math.floor((y - ROW_TOP) / ROW_HEIGHT)
    return row < this.state.items.length ? row : undefined
  }

  swipe(
    x1: number,
    y1: number,
    x2: number,
    y2: number,
    input: LiveAppInput,
    motion?: {velocity: number; liftInMs: number}
  ): boolean {
    if (this.state.confirmDelete !== undefined) return true
    if (!input.reachesApp || !inside([0, LIST_TOP, WIDTH, LIST_BOTTOM], x1, y1)) return false
    const dy = y2 - y1
    if (Math.abs(dy) < TOUCH_SLOP || Math.abs(dy) < Math.abs(x2 - x1)) return false
    this.sync(input)
    // The finger's touch catches a fling still under way (see tap): the list stops where it is, then follows it.
    this.advance(performance.now())
    this.fling = undefined
    // A finger moving up shows later rows; the list moves a whole row for each row height travelled (at least one).
    const rows = Math.max(1, Math.round(Math.abs(dy) / ROW_HEIGHT)) * (dy < 0 ? 1 : -1)
    this.state.first = Math.min(lastFirstRow(this.state), Math.max(0, this.state.first + rows))
    // Lifted while still moving, the finger flings the list: RecyclerView.onTouchEvent (ACTION_UP) asks the
    // VelocityTracker and calls fling() at the minimum fling velocity or more; the list then goes on by itself.
    const vertical = motion ? (motion.velocity * Math.abs(dy)) / Math.hypot(dy, x2 - x1) : 0
    if (vertical >= MIN_FLING) {
      const {distance, ms} = splineFling(Math.min(vertical, MAX_FLING))
      const more = Math.round(distance / ROW_HEIGHT)
      const scale = input.timeScale ?? 1
      if (more > 0)
        this.fling = {
          start: performance.now() + motion!.liftInMs * scale,
          ms: ms * scale,
          from: this.state.first,
          rows: more * Math.sign(rows),
        }
    }
    return true
  }

  key(code: number, input: LiveAppInput): boolean {
    if (this.state.confirmDelete === undefined || code !== KEYCODE_BACK) return false
    this.sync(input)
    this.state.confirmDelete = undefined
    return true
  }
}
