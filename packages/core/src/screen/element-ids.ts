import {createHash} from 'node:crypto'

import {isEditable, simpleClassName} from './node-rules.js'
import type {UiNode} from './ui-node.js'

/**
 * Element ids: `node_<hash>`, deterministic and stable while the screen stays the same.
 *
 * What goes into the hash (and what does not):
 * - the window (its package and top-level class), so windows never share ids;
 * - the path of ancestor signatures, `SimpleClass#resource-id`, but never sibling indexes, so inserting a
 *   sibling above does not move anything;
 * - the node's own signature and its label: text, or content-desc; an editable field's text is left out, so
 *   typing into it keeps its id;
 * - never bounds, so scrolling keeps ids;
 * - for a node inside a list item (a child of a scrolling container that holds several), the item's first
 *   label, so the same icon in every row gets its own id, which moves with its row when the list scrolls.
 * Keys that are still equal after that are numbered in document order. The hash is base-32 of SHA-1,
 * 4 characters, grown only for keys whose 4-character prefix collides with another key on the same screen.
 */

const ALPHABET = '0123456789abcdefghijklmnopqrstuv'
const MIN_LENGTH = 4
const CONTEXT_MAX = 40

export function hashKey(key: string, length: number): string {
  const digest = createHash('sha1').update(key).digest()
  let out = ''
  for (let i = 0; i < length; i++) {
    const bit = i * 5
    const byte = bit >> 3
    const offset = bit & 7
    const word = ((digest[byte] ?? 0) << 8) | (digest[byte + 1] ?? 0)
    out += ALPHABET[(word >> (11 - offset)) & 31]
  }
  return out
}

function signature(node: UiNode): string {
  return `${simpleClassName(node.className)}#${node.resourceId}`
}

function ownLabel(node: UiNode): string {
  if (isEditable(node) || node.password) return `d=${node.contentDesc}|h=${node.hint ?? ''}`
  return `t=${node.text}|d=${node.contentDesc}`
}

/** The first text or content-desc in document order, never an edit field's (typing must not move ids). */
function firstText(node: UiNode): string {
  if (!isEditable(node) && !node.password) {
    const label = node.text || node.contentDesc
    if (label) return label
  }
  for (const child of node.children) {
    const found = firstText(child)
    if (found) return found
  }
  return ''
}

/**
 * The list item a node belongs to: the ancestor-or-self whose parent scrolls and holds two or more children
 * (a row of a list or grid, not the single content child of a ScrollView).
 */
function listItem(node: UiNode): UiNode | undefined {
  for (let current: UiNode | undefined = node; current?.parent; current = current.parent) {
    if (current.parent.scrollable && current.parent.children.length >= 2) return current
  }
  return undefined
}

/** The first label inside a node's list item: what tells one row's views from the next row's. */
function itemLabel(node: UiNode): string {
  const item = listItem(node)
  return item ? firstText(item).slice(0, CONTEXT_MAX) : ''
}

function baseKey(node: UiNode, windowKey: string): string {
  const path: string[] = []
  for (let p = node.parent; p; p = p.parent) path.push(signature(p))
  path.reverse()
  return `${windowKey}\u0000${path.join('/')}\u0000${signature(node)}\u0000${ownLabel(node)}`
}

export function windowKey(root: UiNode): string {
  return `${root.package}|${simpleClassName(root.className)}`
}

/**
 * Assigns ids to `nodes` (the kept nodes of one screen, in document order). `windowOf` gives each node's
 * top-level window node. Returns ids in the same order.
 */
export function assignElementIds(nodes: UiNode[], windowOf: (node: UiNode) => UiNode): string[] {
  const keys = nodes.map((node) => `${baseKey(node, windowKey(windowOf(node)))}\u0000i=${itemLabel(node)}`)
  for (const indexes of groupIndexes(keys).values()) {
    if (indexes.length < 2) continue
    indexes.forEach((i, n) => {
      keys[i] = `${keys[i]}\u0000#${n}`
    })
  }
  return shortHashes(keys).map((hash) => `node_${hash}`)
}

function groupIndexes(keys: string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>()
  keys.forEach((key, i) => {
    const group = groups.get(key)
    if (group) group.push(i)
    else groups.set(key, [i])
  })
  return groups
}

/** The shortest hashes (at least 4 characters) that are unique among distinct keys. */
function shortHashes(keys: string[]): string[] {
  const full = keys.map((key) => hashKey(key, 32))
  const lengths = keys.map(() => MIN_LENGTH)
  for (let round = 0; round < 28; round++) {
    const byPrefix = groupIndexes(full.map((hash, i) => hash.slice(0, lengths[i])))
    let grew = false
    for (const indexes of byPrefix.values()) {
      if (indexes.length < 2) continue
      for (const i of indexes) lengths[i] = (lengths[i] as number) + 1
      grew = true
    }
    if (!grew) break
  }
  return full.map((hash, i) => hash.slice(0, lengths[i]))
}
