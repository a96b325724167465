import type {UiHierarchy, UiNode} from './ui-node.js'
import {decodeReferences, XML_LIMITS} from './xml.js'

/**
 * The plain reading of what uiautomator writes: `<hierarchy …>` holding `<node …>` elements, each attribute after
 * white space and written `name="value"` (or `name='value'`, which uiautomator writes for a value holding `"`),
 * nothing between tags but white space. It builds the UiNodes straight from the text, without the general reader's
 * element tree and attribute objects: less than half its time on the largest real screen.
 *
 * Anything else gives undefined and `parseUiDump` reads the document the general way: comments, a DOCTYPE, other
 * tag names (Appium's class-name tags), spaces around `=`, text between tags, an attribute given twice, a `<` in a
 * value, an unknown entity, unreadable bounds, a document past XML_LIMITS, anything after `</hierarchy>`. So every
 * document this accepts gets the UiHierarchy the general reader gives, and every other one that reader's answer or
 * error (test/screen/fast-dump.test.ts holds the two to that on every real fixture, broken variants and random
 * one-character changes).
 */

const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/

/** The characters the general reader allows in a name (xml.ts `isNameChar`). */
const isNameChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46 || c === 58 || c === 36 || c > 127

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13

interface Tag {
  /** Where the tag's `>` or `/>` ends. */
  end: number
  selfClosing: boolean
}

/**
 * Reads the attributes of a tag from `pos` (just after its name) to its `>` or `/>`, handing each name and value
 * (references decoded) to `take`, which returns false for an attribute given twice; undefined when the tag is not
 * in the plain form.
 */
function readTag(xml: string, pos: number, take: (name: string, value: string) => boolean): Tag | undefined {
  for (;;) {
    const spaceAt = pos
    while (isSpace(xml.charCodeAt(pos))) pos++
    const c = xml.charCodeAt(pos)
    if (c === 62) return {end: pos + 1, selfClosing: false}
    if (c === 47) return xml.charCodeAt(pos + 1) === 62 ? {end: pos + 2, selfClosing: true} : undefined
    if (pos === spaceAt) return undefined
    const nameAt = pos
    while (isNameChar(xml.charCodeAt(pos))) pos++
    if (pos === nameAt || xml.charCodeAt(pos) !== 61) return undefined
    const quote = xml.charCodeAt(pos + 1)
    if (quote !== 34 && quote !== 39) return undefined
    const end = xml.indexOf(quote === 34 ? '"' : "'", pos + 2)
    if (end === -1) return undefined
    let value = xml.slice(pos + 2, end)
    if (value.includes('<')) return undefined
    if (value.includes('&')) {
      const decoded = decodeReferences(value)
      if (typeof decoded !== 'string') return undefined
      value = decoded
    }
    if (!take(xml.slice(nameAt, pos), value)) return undefined
    pos = end + 1
  }
}

/** A node's attributes as the general reader's toNode reads them (parse-ui-dump.ts), and which were seen. */
class NodeReader {
  seen = 0
  other: string[] | undefined
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
    this.bounds = this.enabled = this.index = this.visible = this.displayed = this.hint = this.displayId = this.drawingOrder = undefined
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

  readonly take = (name: string, value: string): boolean => {
    const node = this.node
    switch (name) {
      case 'index': return this.once(1) && ((this.index = value), true)
      case 'text': return this.once(2) && ((node.text = value), true)
      case 'resource-id': return this.once(4) && ((node.resourceId = value), true)
      case 'class': return this.once(8) && ((node.className = value), true)
      case 'package': return this.once(16) && ((node.package = value), true)
      case 'content-desc': return this.once(32) && ((node.contentDesc = value), true)
      case 'checkable': return this.once(64) && ((node.checkable = value === 'true'), true)
      case 'checked': return this.once(128) && ((node.checked = value === 'true'), true)
      case 'clickable': return this.once(256) && ((node.clickable = value === 'true'), true)
      case 'enabled': return this.once(512) && ((this.enabled = value), true)
      case 'focusable': return this.once(1024) && ((node.focusable = value === 'true'), true)
      case 'focused': return this.once(2048) && ((node.focused = value === 'true'), true)
      case 'scrollable': return this.once(4096) && ((node.scrollable = value === 'true'), true)
      case 'long-clickable': return this.once(8192) && ((node.longClickable = value === 'true'), true)
      case 'password': return this.once(16384) && ((node.password = value === 'true'), true)
      case 'selected': return this.once(32768) && ((node.selected = value === 'true'), true)
      case 'bounds': return this.once(65536) && ((this.bounds = value), true)
      case 'visible-to-user': return this.once(131072) && ((this.visible = value), true)
      case 'displayed': return this.once(262144) && ((this.displayed = value), true)
      case 'hint': return this.once(524288) && ((this.hint = value), true)
      case 'display-id': return this.once(1048576) && ((this.displayId = value), true)
      case 'drawing-order': return this.once(2097152) && ((this.drawingOrder = value), true)
      case 'NAF': return this.once(4194304) && ((node.naf = value === 'true'), true)
      default:
        if (this.other?.includes(name)) return false
        ;(this.other ??= []).push(name)
        return true
    }
  }

  /** The node, or undefined where its bounds are unreadable (the general reader says where). */
  finish(): UiNode | undefined {
    const m = BOUNDS.exec(this.bounds ?? '')
    if (!m) return undefined
    const node = this.node
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

const skipSpace = (xml: string, pos: number): number => {
  while (isSpace(xml.charCodeAt(pos))) pos++
  return pos
}

const opensTag = (xml: string, pos: number, name: string): boolean => {
  if (!xml.startsWith(name, pos)) return false
  const c = xml.charCodeAt(pos + name.length)
  return isSpace(c) || c === 47 || c === 62
}

/** The hierarchy of a plain uiautomator dump (as sliceDump cut it), or undefined: read it the general way. */
export function readPlainDump(xml: string): UiHierarchy | undefined {
  let pos = 0
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>')
    if (end === -1) return undefined
    pos = end + 2
  }
  pos = skipSpace(xml, pos)
  if (!opensTag(xml, pos, '<hierarchy')) return undefined
  const root = new Map<string, string>()
  const rootTag = readTag(xml, pos + '<hierarchy'.length, (name, value) => !root.has(name) && root.set(name, value) !== undefined)
  if (!rootTag || rootTag.selfClosing) return undefined
  pos = rootTag.end
  const reader = new NodeReader()
  const windows: UiNode[] = []
  const open: UiNode[] = []
  let count = 0
  for (;;) {
    pos = skipSpace(xml, pos)
    if (opensTag(xml, pos, '<node')) {
      // The general reader counts <hierarchy> as one element and refuses nesting deeper than maxDepth.
      if (count + 2 > XML_LIMITS.maxElements || open.length + 1 >= XML_LIMITS.maxDepth) return undefined
      const parent = open.at(-1)
      reader.start(parent)
      const tag = readTag(xml, pos + '<node'.length, reader.take)
      const node = tag && reader.finish()
      if (!node) return undefined
      count++
      if (parent) parent.children.push(node)
      else windows.push(node)
      if (!tag.selfClosing) open.push(node)
      pos = tag.end
    } else if (xml.startsWith('</node>', pos) && open.length > 0) {
      open.pop()
      pos += '</node>'.length
    } else if (xml.startsWith('</hierarchy>', pos) && open.length === 0) {
      pos += '</hierarchy>'.length
      break
    } else {
      return undefined
    }
  }
  if (skipSpace(xml, pos) !== xml.length) return undefined
  const rotationAttr = Number(root.get('rotation') ?? 0)
  const rotation = ([0, 1, 2, 3] as const).find((r) => r === rotationAttr) ?? 0
  const hierarchy: UiHierarchy = {rotation, windows, format: 'uiautomator', nodeCount: count}
  const width = Number(root.get('width'))
  const height = Number(root.get('height'))
  if (width > 0 && height > 0) hierarchy.declaredSize = {width, height}
  return hierarchy
}
