/**
 * The demo app as the virtual device runs it: a groceries list that works. ADD puts the new-item field's text at
 * the top of the list and empties the field; a row's check box ticks it; a row's delete button opens a dialog
 * (Cancel, BACK or a tap outside it closes it; Delete removes the row); a swipe in the list scrolls it a whole row
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
  type DemoState,
} from './demo-screen.js'
import {paintDemo} from './paint.js'

const FIELD = `${APP}:id/new_item`
const KEYCODE_BACK = 4
/** ViewConfiguration's touch slop (8 dp): a finger that travels less is a tap, not a scroll. */
const TOUCH_SLOP = Math.round((8 * DENSITY) / 160)

const inside = ([l, t, r, b]: Box, x: number, y: number) => contains([l, t, r, b], x, y)

export class DemoApp implements LiveApp {
  readonly screenName: string
  readonly package = APP
  /** A shopping list that scans barcodes and finds shops nearby: what `arc app grant|revoke` examples name. */
  readonly permissions = ['android.permission.CAMERA', 'android.permission.ACCESS_FINE_LOCATION']
  readonly state: DemoState = initialDemoState()

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

  tap(x: number, y: number, input: LiveAppInput): boolean {
    const state = this.state
    if (!input.reachesApp) return false
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
      state.confirmDelete = row
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

  swipe(x1: number, y1: number, x2: number, y2: number, input: LiveAppInput): boolean {
    if (this.state.confirmDelete !== undefined) return true
    if (!input.reachesApp || !inside([0, LIST_TOP, WIDTH, LIST_BOTTOM], x1, y1)) return false
    const dy = y2 - y1
    if (Math.abs(dy) < TOUCH_SLOP || Math.abs(dy) < Math.abs(x2 - x1)) return false
    this.sync(input)
    // A finger moving up shows later rows; the list moves a whole row for each row height travelled (at least one).
    const rows = Math.max(1, Math.round(Math.abs(dy) / ROW_HEIGHT)) * (dy < 0 ? 1 : -1)
    this.state.first = Math.min(lastFirstRow(this.state), Math.max(0, this.state.first + rows))
    return true
  }

  key(code: number, input: LiveAppInput): boolean {
    if (this.state.confirmDelete === undefined || code !== KEYCODE_BACK) return false
    this.sync(input)
    this.state.confirmDelete = undefined
    return true
  }
}
