import {dumpHierarchy, NodeReader} from './dump-node.js'
import type {UiHierarchy, UiNode} from './ui-node.js'
import {decodeReferences, XML_LIMITS} from './xml.js'

/**
 * The plain reading of what uiautomator writes: `<hierarchy …>` holding `<node …>` elements, each attribute after
 * white space and written `name="value"` (or `name='value'`, which uiautomator writes for a value holding `"`),
 * nothing between tags but white space. It hands each attribute straight from the text to the NodeReader the
 * general reader uses too (dump-node.ts), without that reader's element tree and attribute objects: less than half
 * its time on the largest real screen.
 *
 * Anything else gives undefined and `parseUiDump` reads the document the general way: comments, a DOCTYPE, other
 * tag names (Appium's class-name tags), spaces around `=`, text between tags, an attribute given twice, a `<` in a
 * value, an unknown entity, unreadable bounds, a document past XML_LIMITS, anything after `</hierarchy>`. So every
 * document this accepts gets the UiHierarchy the general reader gives, and every other one that reader's answer or
 * error (packages/core/test/screen/fast-dump.test.ts holds the two to that on every real fixture, broken variants and random
 * one-character changes).
 */

/**
 * One attribute `name="value"` or `name='value'`: the characters the general reader allows in a
 * name (xml.ts `isNameChar`: ASCII letters, digits, `-_.:$`, and every code unit above 127), `=` at once, and the
 * value up to the next quote of its kind. Sticky: it matches at `lastIndex` or not at all.
 *
 * A one-shot command reads its dump once, cold: a loop over the characters in JavaScript runs them in V8's
 * interpreter (some 10 ms of a 97 KB screen), where the regular expression engine scans them in native code.
 */
const ATTRIBUTE = /([-a-zA-Z0-9_.:$\u0080-\uffff]+)=(?:"([^"]*)"|'([^']*)')/y

/** White space (sticky). */
const SPACE = /[ \t\n\r]*/y

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
    pos = skipSpace(xml, pos)
    const c = xml.charCodeAt(pos)
    if (c === 62) return {end: pos + 1, selfClosing: false}
    if (c === 47) return xml.charCodeAt(pos + 1) === 62 ? {end: pos + 2, selfClosing: true} : undefined
    if (pos === spaceAt) return undefined
    ATTRIBUTE.lastIndex = pos
    const m = ATTRIBUTE.exec(xml)
    if (!m) return undefined
    let value = m[2] ?? (m[3] as string)
    if (value.includes('<')) return undefined
    if (value.includes('&')) {
      const decoded = decodeReferences(value)
      if (typeof decoded !== 'string') return undefined
      value = decoded
    }
    if (!take(m[1] as string, value)) return undefined
    pos = ATTRIBUTE.lastIndex
  }
}

const skipSpace = (xml: string, pos: number): number => {
  SPACE.lastIndex = pos
  SPACE.test(xml)
  return SPACE.lastIndex
}

const opensTag = (xml: string, pos: number, name: string): boolean => {
  if (!xml.startsWith(name, pos)) return false
  const c = xml.charCodeAt(pos + name.length)
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62
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
  const rootTag = readTag(
    xml,
    pos + '<hierarchy'.length,
    (name, value) => !root.has(name) && root.set(name, value) !== undefined
  )
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
      const node = tag && reader.finish('')
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
  return dumpHierarchy((name) => root.get(name), windows, 'uiautomator', count)
}
