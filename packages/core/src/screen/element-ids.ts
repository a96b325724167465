import {hash} from 'node:crypto'

import {isEditable, simpleClassName} from './node-rules.js'
import type {UiNode} from './ui-node.js'

/**
 * Element ids: `node_<6 characters>`, computed from the element's own stable features only, so that another
 * element appearing, leaving, scrolling or changing never changes this one's id (docs/screen-state.md).
 *
 * The key of an element:
 * - its window (package and top-level class), so windows never share ids;
 * - the path of ancestor signatures, `SimpleClass#resource-id`, never sibling indexes, so inserting a sibling
 *   above does not move anything;
 * - its own signature and content-desc;
 * - its text, except when it is anchored (its resource-id occurs once in its window: a clock or a counter keeps its
 *   id when its text changes) or editable (typing keeps the field's id);
 * - inside a repeated item (a row of a list: a child of a scrolling container, or one of several look-alike
 *   siblings), the item's anchor label, so the same icon in every row gets its own id that moves with its row.
 *   The anchor is the item's content-desc, else the first text of a node with a repeated resource-id (row titles),
 *   else the first other text, never an anchored one (which may change), never one inside a scrolling container;
 * - never bounds, so scrolling and clipping keep ids.
 *
 * Ids never grow to resolve a collision. Elements whose keys (or hashes) are equal are ambiguous: each gets
 * `node_<hash>-<n>` (n in document order) and element actions refuse such ids, because document order is not
 * something an id may depend on. The alphabet leaves out the look-alikes l, i, o, 0 and 1.
 */

export const ID_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz'
export const ID_LENGTH = 6
const CONTEXT_MAX = 40

/** `node_` + 6 characters of the alphabet, optionally `-<n>` for an ambiguous look-alike. */
export const ELEMENT_ID_PATTERN = /^node_[2-9a-hjkmnp-z]{6}(-[1-9]\d*)?$/

/** An id without its `node_` prefix, as `detail: compact` prints it. */
const BARE_ID_PATTERN = /^[2-9a-hjkmnp-z]{6}(-[1-9]\d*)?$/

/** `node_a3f2kq` → `a3f2kq`: the form `detail: compact` prints (the prefix is the same on every row). */
export function bareElementId(id: string): string {
  return id.startsWith('node_') ? id.slice(5) : id
}

/** `a3f2kq` → `node_a3f2kq`; any other string is returned as given (a full id, or something to refuse). */
export function fullElementId(id: string): string {
  return BARE_ID_PATTERN.test(id) ? `node_${id}` : id
}

/** True for ids of look-alike elements, which element actions refuse. */
export function isAmbiguousId(id: string): boolean {
  return /-\d+$/.test(id)
}

/**
 * The id of a key: the first 96 bits of its SHA-256 as a big-endian integer, written in base 31 (ID_ALPHABET),
 * least significant digit first. The division is done on three 32-bit words (each step stays below 2^37, exact in
 * a double), which gives the digits BigInt arithmetic on the same 96 bits gives, without a hex string or a BigInt.
 */
export function hashKey(key: string, length = ID_LENGTH): string {
  const digest = hash('sha256', key, 'buffer')
  let high = digest.readUInt32BE(0)
  let middle = digest.readUInt32BE(4)
  let low = digest.readUInt32BE(8)
  const base = ID_ALPHABET.length
  let out = ''
  for (let i = 0; i < length; i++) {
    let rest = high % base
    high = (high - rest) / base
    let part = rest * WORD + middle
    rest = part % base
    middle = (part - rest) / base
    part = rest * WORD + low
    rest = part % base
    low = (part - rest) / base
    out += ID_ALPHABET[rest]
  }
  return out
}

const WORD = 2 ** 32

function signature(node: UiNode): string {
  return `${simpleClassName(node.className)}#${node.resourceId}`
}

function hasOwnText(node: UiNode): boolean {
  return !isEditable(node) && !node.password && node.text !== ''
}

/**
 * What the keys of one screen share, worked out once per node instead of once per element that asks: signatures,
 * ancestor paths, repeated items and their anchors. Every answer is the one the plain functions below give
 * (`elementKey` without a memo computes each from scratch); a memo lives for one `assignElementIds` call.
 */
export class KeyMemo {
  private readonly signatures = new Map<UiNode, string>()
  private readonly paths = new Map<UiNode, string>()
  private readonly items = new Map<UiNode, UiNode | null>()
  private readonly anchors = new Map<UiNode, string>()
  private readonly siblingSignatures = new Map<UiNode, Map<string, number>>()

  signature(node: UiNode): string {
    let value = this.signatures.get(node)
    if (value === undefined) this.signatures.set(node, (value = signature(node)))
    return value
  }

  /** The signatures of the node's ancestors, root first, joined by `/` ('' for a root). */
  path(node: UiNode): string {
    const parent = node.parent
    if (!parent) return ''
    let value = this.paths.get(node)
    if (value === undefined) {
      value = parent.parent ? `${this.path(parent)}/${this.signature(parent)}` : this.signature(parent)
      this.paths.set(node, value)
    }
    return value
  }

  /** repeatedItem(node), with each parent's signature counts taken once. */
  repeatedItem(node: UiNode): UiNode | undefined {
    const parent = node.parent
    if (!parent) return undefined
    let item = this.items.get(node)
    if (item === undefined) {
      item = this.isItem(node, parent) ? node : (this.repeatedItem(parent) ?? null)
      this.items.set(node, item)
    }
    return item ?? undefined
  }

  private isItem(node: UiNode, parent: UiNode): boolean {
    if (parent.children.length < 2) return false
    if (parent.scrollable) return true
    let counts = this.siblingSignatures.get(parent)
    if (!counts) {
      counts = new Map()
      for (const sibling of parent.children) {
        const own = this.signature(sibling)
        counts.set(own, (counts.get(own) ?? 0) + 1)
      }
      this.siblingSignatures.set(parent, counts)
    }
    return (counts.get(this.signature(node)) as number) > 1
  }

  itemAnchor(item: UiNode, unique: ReadonlySet<string>): string {
    let value = this.anchors.get(item)
    if (value === undefined) this.anchors.set(item, (value = itemAnchor(item, unique)))
    return value
  }
}

/**
 * The repeated item a node belongs to: the nearest ancestor-or-self whose parent scrolls and holds two or more
 * children, or that has a sibling of the same signature (a row of a list whose `scrollable` the dump left unset).
 */
export function repeatedItem(node: UiNode): UiNode | undefined {
  for (let current: UiNode | undefined = node; current?.parent; current = current.parent) {
    const siblings = current.parent.children
    if (siblings.length < 2) continue
    if (current.parent.scrollable) return current
    const own = signature(current)
    if (siblings.some((s) => s !== current && signature(s) === own)) return current
  }
  return undefined
}

/**
 * A node and its descendants in document order, without the content of scrolling containers inside it (which
 * scrolls away), until `visit` returns true.
 */
function someInFixedPart(node: UiNode, visit: (node: UiNode) => boolean): boolean {
  if (visit(node)) return true
  for (const child of node.children) if (!child.scrollable && someInFixedPart(child, visit)) return true
  return false
}

/**
 * The label that names a repeated item, whole: its content-desc, else a titled text (one with a resource-id that
 * repeats, as row titles do), else any text that is not anchored, else any content-desc. The key keeps its first
 * CONTEXT_MAX characters; the whole label is the element's `context`, which the stale-id check compares.
 */
export function itemAnchor(item: UiNode, unique: ReadonlySet<string> = new Set()): string {
  if (item.contentDesc) return `d=${item.contentDesc}`
  let titled = ''
  let loose = ''
  someInFixedPart(item, (node) => {
    if (!hasOwnText(node) || unique.has(node.resourceId)) return false
    if (node.resourceId) {
      titled = `t=${node.text}`
      return true
    }
    if (!loose) loose = `t=${node.text}`
    return false
  })
  if (titled) return titled
  if (loose) return loose
  let described = ''
  someInFixedPart(item, (node) => {
    if (node.contentDesc) described = `d=${node.contentDesc}`
    return described !== ''
  })
  return described
}

/** Resource ids that occur exactly once in a window's tree: such a node is anchored by its resource id. */
export function uniqueResourceIds(root: UiNode): Set<string> {
  const counts = new Map<string, number>()
  const count = (node: UiNode): void => {
    if (node.resourceId) counts.set(node.resourceId, (counts.get(node.resourceId) ?? 0) + 1)
    for (const child of node.children) count(child)
  }
  count(root)
  const unique = new Set<string>()
  for (const [id, n] of counts) if (n === 1) unique.add(id)
  return unique
}

export function windowKey(root: UiNode): string {
  return `${root.package}|${simpleClassName(root.className)}`
}

/**
 * The full key an element's id is the hash of. Exported for the persistence script and the stale-id check.
 * `memo` (one per screen) only saves work: the key is the same with or without it.
 */
export function elementKey(
  node: UiNode,
  root: UiNode,
  unique: ReadonlySet<string> = uniqueResourceIds(root),
  memo?: KeyMemo
): string {
  return keyAndContext(node, root, unique, memo).key
}

/**
 * The key, and the element's context: the whole labels of the items it is in, of which the key keeps only the
 * first CONTEXT_MAX characters (so a row's id outlives a change at the end of a long label, a time in a
 * description). Two rows whose labels differ only past that share the ids of their unlabelled parts; the context
 * is what tells them apart (ScreenElement.context, compared by the stale-id check).
 */
function keyAndContext(
  node: UiNode,
  root: UiNode,
  unique: ReadonlySet<string>,
  memo?: KeyMemo
): {key: string; context: string; items: UiNode[]} {
  let path: string
  let item: UiNode | undefined
  if (memo) {
    path = memo.path(node)
    item = memo.repeatedItem(node)
  } else {
    const signatures: string[] = []
    for (let p = node.parent; p; p = p.parent) signatures.push(signature(p))
    path = signatures.reverse().join('/')
    item = repeatedItem(node)
  }
  const anchored = unique.has(node.resourceId)
  const text = hasOwnText(node) && !anchored ? node.text : ''
  // The anchors of up to two enclosing items: a button in a row of look-alike buttons inside a feed post is
  // told apart by its own label and by the post's.
  const anchors: string[] = []
  const items: UiNode[] = []
  for (
    let it = item;
    it && anchors.length < 2;
    it = it.parent ? (memo ? memo.repeatedItem(it.parent) : repeatedItem(it.parent)) : undefined
  ) {
    const anchor = memo ? memo.itemAnchor(it, unique) : itemAnchor(it, unique)
    if (anchor) anchors.push(anchor)
    items.push(it)
  }
  const own = memo ? memo.signature(node) : signature(node)
  const key = [
    windowKey(root),
    path,
    own,
    `d=${node.contentDesc}`,
    `t=${text}`,
    `h=${isEditable(node) ? (node.hint ?? '') : ''}`,
    `i=${anchors.map((anchor) => anchor.slice(0, CONTEXT_MAX)).join('|')}`,
  ].join('\u0000')
  return {key, context: anchors.join('\u0000'), items}
}

/**
 * What a repeated item shows beyond its label, by where each word sits in it: for each node of its fixed part (not
 * inside a scrolling container within it) that is no control (not clickable, checkable or editable: an action
 * changes a control's words, "Follow" to "Following", and the control's own id carries its words), its text and its
 * content-desc, keyed by the path of signatures from the item down to it (the words of one path together, in order).
 * The label (itemAnchor) tells two items apart only by their first titled text: two mails from one sender share it,
 * and one taking the other's place (a list scrolled by a row, a recycled row showing another mail) kept every id of
 * the row. A node missing from one read (clipped at the list's edge, not drawn yet) leaves its words out of the
 * comparison rather than refusing (element-records.ts recordMismatch). Every word is compared as shown, its digits
 * too: an order number, an amount or a time is often all that tells two rows of one sender or title apart ("PR #1
 * merged", "PR #2 merged"; two timers both named "Timer"), so a row whose numbers tick has its ids refused at each
 * change rather than one taken for another (never guess).
 */
export function itemWords(item: UiNode): Map<string, string> {
  const byPlace = new Map<string, string[]>()
  const add = (where: string, word: string) => {
    const words = byPlace.get(where)
    if (words) words.push(word)
    else byPlace.set(where, [word])
  }
  const visit = (node: UiNode, path: string): void => {
    const place = `${path}/${signature(node)}`
    const control = node.clickable || node.longClickable || node.checkable || isEditable(node) || node.password
    if (!control) {
      if (node.text !== '') add(`t${place}`, node.text)
      if (node.contentDesc !== '') add(`d${place}`, node.contentDesc)
    }
    for (const child of node.children) if (!child.scrollable) visit(child, place)
  }
  visit(item, '')
  // The words of one place, in order. Where one read holds fewer there (the row's top line clipped at the list's
  // edge), the stale-id check compares them with the start or the end of the other's (element-records.ts
  // placeChanged): neither taking each word for the one before it, nor leaving the place out, which let a row reused
  // for another item with one more or one fewer line there keep its ids.
  const words = new Map<string, string>()
  for (const [where, list] of byPlace) words.set(where, list.join('\u0000'))
  return words
}

/**
 * Assigns ids to `nodes` (the kept nodes of one screen, in document order). `windowOf` gives each node's
 * top-level window node. Returns ids in the same order; `contexts`, when given, receives each node's context
 * (keyAndContext: '' outside repeated items) in the same order, and `rows` the words of the items it is in
 * (itemWords; undefined outside repeated items, or for items without words).
 */
export function assignElementIds(
  nodes: UiNode[],
  windowOf: (node: UiNode) => UiNode,
  contexts?: string[],
  rows?: Array<Map<string, string> | undefined>
): string[] {
  const uniqueIn = new Map<UiNode, Set<string>>()
  const memo = new KeyMemo()
  const wordsOf = new Map<UiNode, Map<string, string>>()
  const hashes = nodes.map((node) => {
    const root = windowOf(node)
    let unique = uniqueIn.get(root)
    if (!unique) uniqueIn.set(root, (unique = uniqueResourceIds(root)))
    const {key, context, items} = keyAndContext(node, root, unique, memo)
    contexts?.push(context)
    if (rows) {
      // Each enclosing item's words, the nearest first, its keys told from the next one's by their level.
      let row: Map<string, string> | undefined
      items.forEach((item, level) => {
        let words = wordsOf.get(item)
        if (!words) wordsOf.set(item, (words = itemWords(item)))
        for (const [where, word] of words) (row ??= new Map()).set(`${level}${where}`, word)
      })
      rows.push(row)
    }
    return hashKey(key)
  })
  const count = new Map<string, number>()
  for (const hash of hashes) count.set(hash, (count.get(hash) ?? 0) + 1)
  const seen = new Map<string, number>()
  return hashes.map((hash) => {
    if (count.get(hash) === 1) return `node_${hash}`
    const n = (seen.get(hash) ?? 0) + 1
    seen.set(hash, n)
    return `node_${hash}-${n}`
  })
}
