import {createHash} from 'node:crypto'

import type {ScreenCapture, ScreenInfo, WindowManagerState} from '../driver/device-driver.js'
import {assignElementIds} from './element-ids.js'
import {isEditable, nodeFlags, shouldKeepNode, simpleClassName, type NodeFlags} from './node-rules.js'
import {parseUiDump} from './parse-ui-dump.js'
import type {DumpWindow, UiHierarchy, UiNode} from './ui-node.js'
import {
  accessibilityType,
  dumpWindowType,
  matchWindows,
  missingWindows,
  treelessWindows,
  type WindowType,
} from './window-metadata.js'

export type {WindowType} from './window-metadata.js'

export interface ScreenElement {
  /** `node_<hash>` */
  id: string
  node: UiNode
  /** Simple class name, e.g. `Button`. */
  className: string
  /** Full text; empty for password fields, whose text is never shown. */
  text: string
  desc: string
  resId: string
  bounds: [number, number, number, number]
  flags: NodeFlags
  window: ScreenWindow
  /**
   * For a look-alike (`node_<hash>-<n>`, counted in document order among the elements of one key): the fingerprint
   * of its whole group at this read (every member's place and words, in order). Its ordinal id names it only while
   * that fingerprint is unchanged (element-records.ts).
   */
  group?: string
  /**
   * The whole labels of the list items it is in (its id keeps their first 38 characters), when it is in one: the
   * stale-id check refuses the id where they differ now, a row whose long title differs only past that part.
   */
  context?: string
  /**
   * What the list items it is in show beyond their label, by where each word sits (element-ids.ts itemWords), when
   * it is in one: the stale-id check refuses the id where a word in the same place differs now (another mail from
   * the same sender in its row's place).
   */
  rowWords?: ReadonlyMap<string, string>
}

export interface ScreenWindow {
  /** Position of the window's top-level node in the dump (0 = first). */
  id: number
  /** The display the window is on: 0, the main screen, unless the dump says another (`display-id`, `<display id>`). */
  display: number
  type: WindowType
  pkg: string
  /**
   * The window's title: the accessibility layer's (an app's label) where a `--windows` dump gave one, else the window
   * manager's (`com.foo/com.foo.Main`, `StatusBar`); undefined for a recorded dump without either.
   */
  title?: string
  /**
   * The device's own type name where it says more than `type`: the window manager's (`BASE_APPLICATION`,
   * `NAVIGATION_BAR_PANEL`…), or a `--windows` dump's type outside the spec's list (`WINDOW_CONTROL`).
   */
  deviceType?: string
  activity?: string
  /**
   * Stacking order, higher on top: a `--windows` dump's accessibility layer, else the window manager's order where it
   * reported one, else the dump's (which lists the topmost window first, so layer = count - 1 - id).
   */
  layer: number
  focused: boolean
  root: UiNode
  elements: ScreenElement[]
}

export interface ScreenModel {
  screen: ScreenInfo
  orientation: 'portrait' | 'landscape'
  /** Windows are missing from the dump (the device showed more than it dumped, or a bare dump of one window). */
  degraded: boolean
  windows: ScreenWindow[]
  /** Every kept element, in window then document order. */
  elements: ScreenElement[]
  byId: Map<string, ScreenElement>
  hierarchy: UiHierarchy
  /** What the window manager reported with the dump (window frames: the keyboard, the bars), when it did. */
  windowManager?: WindowManagerState
  /**
   * The focused window is the device's word (the dump's window list, or the window manager's current focus), not
   * arc's guess from the dump alone.
   */
  focusKnown?: boolean
}

const IME_PACKAGE = /inputmethod|keyboard|\.ime\b|swiftkey|gboard|honeyboard|sogou|baidu\.input/i
const SYSTEM_RESOURCE = /(status_bar|navigation_bar|notification_panel|navbar|statusbar)/i

/**
 * Window type guessed from the dump alone (recorded dumps without window-manager data): an input-method package (or a root whose class
 * is the IME's SoftInputWindow/keyboard view) is INPUT_METHOD; a SystemUI window, or a root whose resource id
 * names the status or navigation bar, is SYSTEM; everything else is APPLICATION.
 */
export function windowType(root: UiNode): WindowType {
  if (IME_PACKAGE.test(root.package) || /SoftInputWindow|KeyboardView/.test(root.className)) return 'INPUT_METHOD'
  if (root.package === 'com.android.systemui' || root.package === 'android' || SYSTEM_RESOURCE.test(root.resourceId)) {
    return 'SYSTEM'
  }
  return 'APPLICATION'
}

function containsFocus(node: UiNode): boolean {
  if (node.focused) return true
  return node.children.some(containsFocus)
}

/** Builds the model every screen consumer shares: windows, kept elements, ids and flags. */
export function buildScreenModel(capture: ScreenCapture, what = 'UI dump'): ScreenModel {
  const hierarchy = capture.hierarchy ?? parseUiDump(capture.xml, what)
  const {screen} = capture
  const count = hierarchy.windows.length
  const wm = capture.windowManager
  const matches = wm ? matchWindows(hierarchy.windows, wm) : []
  const listed = hierarchy.listedWindows
  const windows: ScreenWindow[] = hierarchy.windows.map((root, id) => {
    const device = matches[id]
    const window: ScreenWindow = {
      id,
      display: root.displayId ?? 0,
      type: device ? accessibilityType(device.type) : windowType(root),
      pkg: root.package,
      layer: count - 1 - id,
      focused: false,
      root,
      elements: [],
    }
    if (device) {
      window.title = device.title
      window.deviceType = device.type
    }
    return window
  })
  let focusedWindow: ScreenWindow | undefined
  let focusKnown: boolean
  if (listed) {
    // The dump's own window list is the accessibility layer's word, from the moment of the dump itself.
    const info = new Map(listed.map((w) => [w.root, w]))
    for (const window of windows) {
      const own = info.get(window.root) as DumpWindow
      window.type = dumpWindowType(own.type)
      if (own.title !== '') window.title = own.title
      const written = own.type.replace(/^TYPE_/, '')
      if (window.type !== written) window.deviceType ??= written
      window.layer = own.layer
      if (own.focused) focusedWindow ??= window
    }
    focusKnown = focusedWindow !== undefined
  } else {
    if (wm)
      stackByWindowManager(
        windows,
        matches.map((m) => m?.z)
      )
    const told = wm?.focus !== undefined ? windows.find((w) => w.title === wm.focus) : undefined
    focusKnown = told !== undefined
    focusedWindow = told ?? guessFocus(windows, capture)
  }
  if (focusedWindow) {
    focusedWindow.focused = true
    if (
      focusedWindow.type === 'APPLICATION' &&
      capture.foreground.activity &&
      (capture.foreground.package === undefined || capture.foreground.package === focusedWindow.pkg)
    ) {
      focusedWindow.activity = capture.foreground.activity
    }
  }

  const kept: UiNode[] = []
  const windowOfNode = new Map<UiNode, ScreenWindow>()
  for (const window of windows) {
    const keep = (node: UiNode): void => {
      if (shouldKeepNode(node)) {
        kept.push(node)
        windowOfNode.set(node, window)
      }
      for (const child of node.children) keep(child)
    }
    keep(window.root)
  }
  const contexts: string[] = []
  const rows: Array<Map<string, string> | undefined> = []
  const ids = assignElementIds(kept, (node) => (windowOfNode.get(node) as ScreenWindow).root, contexts, rows)
  const elements: ScreenElement[] = kept.map((node, i) => {
    const window = windowOfNode.get(node) as ScreenWindow
    const element: ScreenElement = {
      id: ids[i] as string,
      node,
      className: simpleClassName(node.className),
      text: node.password ? '' : node.text,
      desc: node.contentDesc,
      resId: node.resourceId,
      bounds: node.bounds,
      flags: nodeFlags(node, screen),
      window,
      ...(contexts[i] ? {context: contexts[i]} : {}),
      ...(rows[i] ? {rowWords: rows[i]} : {}),
    }
    window.elements.push(element)
    return element
  })

  for (const [fingerprint, members] of lookAlikeGroups(elements))
    for (const member of members) member.group = fingerprint

  return {
    screen,
    orientation: screen.width > screen.height ? 'landscape' : 'portrait',
    degraded: listed
      ? treelessWindows(listed).length > 0
      : wm
        ? missingWindows(hierarchy.windows, wm, screen).length > 0
        : !capture.allWindows,
    windows,
    elements,
    byId: new Map(elements.map((e) => [e.id, e])),
    hierarchy,
    ...(wm ? {windowManager: wm} : {}),
    ...(focusKnown ? {focusKnown} : {}),
  }
}

/**
 * Focus without the window manager's word: the application window holding the focused node; else the one
 * whose package is in the foreground; else the topmost application window.
 */
function guessFocus(windows: ScreenWindow[], capture: ScreenCapture): ScreenWindow | undefined {
  const apps = windows.filter((w) => w.type === 'APPLICATION')
  return (
    apps.find((w) => containsFocus(w.root)) ??
    apps.find((w) => capture.foreground.package !== undefined && w.pkg === capture.foreground.package) ??
    apps[0] ??
    windows.find((w) => containsFocus(w.root))
  )
}

/**
 * Layers from the window manager's list (z 0 = topmost). A root it did not report keeps its place in the dump
 * just below the matched window listed before it.
 */
function stackByWindowManager(windows: ScreenWindow[], zs: Array<number | undefined>): void {
  let previous = -1
  const keys = zs.map((z, i) => {
    if (z !== undefined) previous = z
    return z ?? previous + (i + 1) / (zs.length + 1)
  })
  const order = windows.map((_, i) => i).sort((a, b) => (keys[a] as number) - (keys[b] as number))
  order.forEach((index, rank) => {
    ;(windows[index] as ScreenWindow).layer = windows.length - 1 - rank
  })
}

/**
 * Screen size when the source does not say (a bare `.xml` file without `screen.png`): Appium's declared
 * size, else the extent of the windows of display 0 a `--windows` dump listed, else of the top-level nodes (the
 * largest right and bottom edges).
 */
export function screenSizeFromHierarchy(hierarchy: UiHierarchy): {width: number; height: number} {
  if (hierarchy.declaredSize) return hierarchy.declaredSize
  const boxes = (hierarchy.listedWindows ?? [])
    .flatMap((w) => (w.displayId === 0 && w.bounds ? [w.bounds] : []))
    .concat(hierarchy.windows.map((root) => root.bounds))
  let width = 0
  let height = 0
  for (const box of boxes) {
    width = Math.max(width, box[2])
    height = Math.max(height, box[3])
  }
  return {width, height}
}

/**
 * The look-alike groups of a screen, each with its fingerprint: the members' bounds, window and words (an edit
 * field's text left out: typing keeps its place in the group) in document order, hashed. Any member arriving,
 * leaving or moving changes it, and with it what the ordinals count.
 */
function lookAlikeGroups(elements: ScreenElement[]): Map<string, ScreenElement[]> {
  const byBase = new Map<string, ScreenElement[]>()
  for (const e of elements) {
    const dash = e.id.lastIndexOf('-')
    if (dash === -1) continue
    const base = e.id.slice(0, dash)
    const members = byBase.get(base)
    if (members) members.push(e)
    else byBase.set(base, [e])
  }
  const groups = new Map<string, ScreenElement[]>()
  for (const [base, members] of byBase) {
    const hash = createHash('sha256').update(base)
    for (const m of members) {
      const words = isEditable(m.node) ? '' : m.text
      hash.update(
        `\n${m.bounds.join(',')}\u0001${m.window.pkg}\u0001${m.node.className}\u0001${m.resId}\u0001${m.desc}\u0001${words}`
      )
    }
    groups.set(hash.digest('hex').slice(0, 16), members)
  }
  return groups
}
