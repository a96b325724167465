import type {ScreenCapture, ScreenInfo} from '../driver/device-driver.js'
import {assignElementIds} from './element-ids.js'
import {nodeFlags, shouldKeepNode, simpleClassName, type NodeFlags} from './node-rules.js'
import {parseUiDump, walkNodes} from './parse-ui-dump.js'
import type {UiHierarchy, UiNode} from './ui-node.js'

export type WindowType = 'APPLICATION' | 'INPUT_METHOD' | 'SYSTEM'

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
}

export interface ScreenWindow {
  /** Position of the window's top-level node in the dump (0 = first). */
  id: number
  type: WindowType
  pkg: string
  /** uiautomator dumps carry no window titles: always undefined for now, printed as `-`. */
  title?: string
  activity?: string
  /** Stacking order: the dump lists the topmost window first, so layer = count - 1 - id. */
  layer: number
  focused: boolean
  root: UiNode
  elements: ScreenElement[]
}

export interface ScreenModel {
  screen: ScreenInfo
  orientation: 'portrait' | 'landscape'
  /** Only the active window was dumped. */
  degraded: boolean
  windows: ScreenWindow[]
  /** Every kept element, in window then document order. */
  elements: ScreenElement[]
  byId: Map<string, ScreenElement>
  hierarchy: UiHierarchy
}

const IME_PACKAGE = /inputmethod|keyboard|\.ime\b|swiftkey|gboard|honeyboard|sogou|baidu\.input/i
const SYSTEM_RESOURCE = /(status_bar|navigation_bar|notification_panel|navbar|statusbar)/i

/**
 * Window type, derived because uiautomator does not write it: an input-method package (or a root whose class
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
  const windows: ScreenWindow[] = hierarchy.windows.map((root, id) => ({
    id,
    type: windowType(root),
    pkg: root.package,
    layer: count - 1 - id,
    focused: false,
    root,
    elements: [],
  }))

  // Focus: the application window holding the focused node; else the one whose package is in the
  // foreground; else the topmost application window.
  const apps = windows.filter((w) => w.type === 'APPLICATION')
  const focusedWindow =
    apps.find((w) => containsFocus(w.root)) ??
    apps.find((w) => capture.foreground.package !== undefined && w.pkg === capture.foreground.package) ??
    apps[0] ??
    windows.find((w) => containsFocus(w.root))
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
    for (const node of walkNodes([window.root])) {
      if (!shouldKeepNode(node)) continue
      kept.push(node)
      windowOfNode.set(node, window)
    }
  }
  const ids = assignElementIds(kept, (node) => (windowOfNode.get(node) as ScreenWindow).root)
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
    }
    window.elements.push(element)
    return element
  })

  return {
    screen,
    orientation: screen.width > screen.height ? 'landscape' : 'portrait',
    degraded: !capture.allWindows,
    windows,
    elements,
    byId: new Map(elements.map((e) => [e.id, e])),
    hierarchy,
  }
}

/**
 * Screen size when the source does not say (a bare `.xml` file without `screen.png`): Appium's declared
 * size, else the extent of the top-level windows (the largest right and bottom edges).
 */
export function screenSizeFromHierarchy(hierarchy: UiHierarchy): {width: number; height: number} {
  if (hierarchy.declaredSize) return hierarchy.declaredSize
  let width = 0
  let height = 0
  for (const root of hierarchy.windows) {
    width = Math.max(width, root.bounds[2])
    height = Math.max(height, root.bounds[3])
  }
  return {width, height}
}
