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
}
