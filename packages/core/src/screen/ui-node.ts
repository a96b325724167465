/** One node of a uiautomator hierarchy, with the attributes arc uses. */
export interface UiNode {
  /** Fully qualified class, e.g. `android.widget.Button` (empty when the dump has none). */
  className: string
  text: string
  contentDesc: string
  resourceId: string
  package: string
  /** [left, top, right, bottom] in screen pixels. */
  bounds: [number, number, number, number]
  checkable: boolean
  checked: boolean
  clickable: boolean
  longClickable: boolean
  enabled: boolean
  focusable: boolean
  focused: boolean
  scrollable: boolean
  password: boolean
  selected: boolean
  /** The `visible-to-user` attribute where the dump has it (uiautomator2, newer devices), else undefined. */
  visibleToUser?: boolean
  hint?: string
  /** `NAF="true"`: uiautomator found no accessibility label on a clickable node. */
  naf: boolean
  displayId?: number
  drawingOrder?: number
  /** `index` attribute: position among siblings as the device reported it. */
  index: number
  children: UiNode[]
  parent?: UiNode
}

/**
 * One window as `uiautomator dump --windows` lists it: the accessibility layer's AccessibilityWindowInfo, written
 * as a `<window>` element of the `<displays>` document (AOSP AccessibilityNodeInfoDumper.dumpWindowsToFile).
 */
export interface DumpWindow {
  /** The type as uiautomator writes it (`TYPE_APPLICATION`, `TYPE_INPUT_METHOD`, `TYPE_SYSTEM`…). */
  type: string
  /** The window's title (an app's label, `Status bar`…); empty when it has none. */
  title: string
  /** The accessibility window id, when written. */
  id?: number
  /** Z-order: a window with a greater layer is drawn above one with a lesser layer. */
  layer: number
  active: boolean
  /** The window has input focus. */
  focused: boolean
  displayId: number
  /** The window's bounds on the screen, when readable. */
  bounds?: [number, number, number, number]
  /** Its top-level node in `UiHierarchy.windows`; absent when uiautomator wrote no tree for it. */
  root?: UiNode
}

export interface UiHierarchy {
  /** The `rotation` attribute of `<hierarchy>`, 0 when absent. */
  rotation: 0 | 1 | 2 | 3
  /** Top-level nodes under `<hierarchy>`: one per window in a multi-window dump. */
  windows: UiNode[]
  /** `dump` when written by uiautomator with `<node>` tags; `classname-tags` for Appium-style tag = class dumps. */
  format: 'uiautomator' | 'classname-tags'
  /** `width`/`height` attributes of `<hierarchy>` where a variant writes them (Appium). */
  declaredSize?: {width: number; height: number}
  nodeCount: number
  /**
   * Every window a `--windows` dump listed (its `<displays>` form), in document order: displays by id, each one's
   * windows topmost first. Undefined for a `<hierarchy>` document, which says nothing about its windows.
   */
  listedWindows?: DumpWindow[]
}
