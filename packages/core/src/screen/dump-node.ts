import type {UiHierarchy, UiNode} from './ui-node.js'

/**
 * What a dump's elements mean, for both of its readers (parse-ui-dump.ts's general one and fast-dump.ts's plain
 * one): a node from one element's attributes, and the hierarchy from the root's.
 */

/** A node's `bounds` attribute: `[left,top][right,bottom]`. */
const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/

/**
 * One element's attributes made into a UiNode, one attribute at a time (`take`, in any order), then `finish`. A
 * reader is reused from node to node: `start` begins the next.
 */
export class NodeReader {
  seen = 0
  /**
   * Names of the attributes arc does not read, kept only to refuse one given twice. A Set: with a list, a dump whose
   * nodes carry thousands of attributes cost time in the square of their number (54.6 s for one screen read).
   */
  other: Set<string> | undefined
  node!: UiNode
  bounds: string | undefined
  enabled: string | undefined
  index: string | undefined
  visible: string | undefined
  displayed: string | undefined
  hint: string | undefined
  displayId: string | undefined
  drawingOrder: string | undefined

  start(parent: UiNode | undefined): void {
    this.seen = 0
    this.other = undefined
    this.bounds =
      this.enabled =
      this.index =
      this.visible =
      this.displayed =
      this.hint =
      this.displayId =
      this.drawingOrder =
        undefined
    this.node = {
      className: '',
      text: '',
      contentDesc: '',
      resourceId: '',
      package: '',
      bounds: [0, 0, 0, 0],
      checkable: false,
      checked: false,
      clickable: false,
      longClickable: false,
      enabled: true,
      focusable: false,
      focused: false,
      scrollable: false,
      password: false,
      selected: false,
      naf: false,
      index: 0,
      children: [],
      parent,
    }
  }

  private once(bit: number): boolean {
    if (this.seen & bit) return false
    this.seen |= bit
    return true
  }

  /** Takes one attribute; false when the element already gave it. */
  readonly take = (name: string, value: string): boolean => {
    const node = this.node
    switch (name) {
      case 'index':
        return this.once(1) && ((this.index = value), true)
      case 'text':
        return this.once(2) && ((node.text = value), true)
      case 'resource-id':
        return this.once(4) && ((node.resourceId = value), true)
      case 'class':
        return this.once(8) && ((node.className = value), true)
      case 'package':
        return this.once(16) && ((node.package = value), true)
      case 'content-desc':
        return this.once(32) && ((node.contentDesc = value), true)
      case 'checkable':
        return this.once(64) && ((node.checkable = value === 'true'), true)
      case 'checked':
        return this.once(128) && ((node.checked = value === 'true'), true)
      case 'clickable':
        return this.once(256) && ((node.clickable = value === 'true'), true)
      case 'enabled':
        return this.once(512) && ((this.enabled = value), true)
      case 'focusable':
        return this.once(1024) && ((node.focusable = value === 'true'), true)
      case 'focused':
        return this.once(2048) && ((node.focused = value === 'true'), true)
      case 'scrollable':
        return this.once(4096) && ((node.scrollable = value === 'true'), true)
      case 'long-clickable':
        return this.once(8192) && ((node.longClickable = value === 'true'), true)
      case 'password':
        return this.once(16384) && ((node.password = value === 'true'), true)
      case 'selected':
        return this.once(32768) && ((node.selected = value === 'true'), true)
      case 'bounds':
        return this.once(65536) && ((this.bounds = value), true)
      case 'visible-to-user':
        return this.once(131072) && ((this.visible = value), true)
      case 'displayed':
        return this.once(262144) && ((this.displayed = value), true)
      case 'hint':
        return this.once(524288) && ((this.hint = value), true)
      case 'display-id':
        return this.once(1048576) && ((this.displayId = value), true)
      case 'drawing-order':
        return this.once(2097152) && ((this.drawingOrder = value), true)
      case 'NAF':
        return this.once(4194304) && ((node.naf = value === 'true'), true)
      default:
        if (this.other?.has(name)) return false
        ;(this.other ??= new Set()).add(name)
        return true
    }
  }

  /**
   * The node, with `className` where it has no `class` attribute (an Appium dump's tag names the class), or
   * undefined where its bounds are unreadable.
   */
  finish(className: string): UiNode | undefined {
    const m = BOUNDS.exec(this.bounds ?? '')
    if (!m) return undefined
    const node = this.node
    if (!(this.seen & 8)) node.className = className
    node.bounds = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]
    node.enabled = this.enabled === undefined ? true : this.enabled === 'true'
    node.index = Number(this.index ?? 0) || 0
    const visible = this.visible ?? this.displayed
    if (visible !== undefined) node.visibleToUser = visible === 'true'
    if (this.hint !== undefined && this.hint !== '') node.hint = this.hint
    if (this.displayId !== undefined) node.displayId = Number(this.displayId)
    if (this.drawingOrder !== undefined) node.drawingOrder = Number(this.drawingOrder)
    return node
  }
}

/** The hierarchy of the windows read, with the rotation and size the root element's attributes give. */
export function dumpHierarchy(
  root: (name: string) => string | undefined,
  windows: UiNode[],
  format: UiHierarchy['format'],
  nodeCount: number
): UiHierarchy {
  const rotationAttr = Number(root('rotation') ?? 0)
  const rotation = ([0, 1, 2, 3] as const).find((r) => r === rotationAttr) ?? 0
  const hierarchy: UiHierarchy = {rotation, windows, format, nodeCount}
  const width = Number(root('width'))
  const height = Number(root('height'))
  if (width > 0 && height > 0) hierarchy.declaredSize = {width, height}
  return hierarchy
}
