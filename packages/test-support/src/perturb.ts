/**
 * Perturbations of a real screen, and the measure of how element ids survive them: shared by
 * packages/core/test/screen/element-ids.test.ts and scripts/measure-id-persistence.ts (`npm run measure:ids`).
 */
import {
  buildScreenModel,
  isAmbiguousId,
  isEditable,
  type ScreenCapture,
  type ScreenModel,
  type UiNode,
} from '@arc-cli/core'

/** Deep-copies window trees, keeping a map from each original node to its copy. */
export function cloneWindows(windows: UiNode[]): {windows: UiNode[]; copyOf: Map<UiNode, UiNode>} {
  const copyOf = new Map<UiNode, UiNode>()
  const clone = (node: UiNode, parent: UiNode | undefined): UiNode => {
    const copy: UiNode = {...node, bounds: [...node.bounds] as UiNode['bounds'], parent, children: []}
    copyOf.set(node, copy)
    copy.children = node.children.map((c) => clone(c, copy))
    return copy
  }
  return {windows: windows.map((w) => clone(w, undefined)), copyOf}
}

export function* walk(nodes: UiNode[]): Generator<UiNode> {
  for (const n of nodes) {
    yield n
    yield* walk(n.children)
  }
}

export function shiftBounds(node: UiNode, dy: number): void {
  node.bounds = [node.bounds[0], node.bounds[1] + dy, node.bounds[2], node.bounds[3] + dy]
  for (const c of node.children) shiftBounds(c, dy)
}

export function leaf(parent: UiNode, text: string, extra: Partial<UiNode> = {}): UiNode {
  return {
    className: 'android.widget.TextView',
    text,
    contentDesc: '',
    resourceId: '',
    package: parent.package,
    bounds: [...parent.bounds] as UiNode['bounds'],
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
    ...extra,
  }
}

/** Copies a subtree under a new parent, with every text and content-desc suffixed (a new row of a list). */
function cloneRow(node: UiNode, parent: UiNode, suffix: string): UiNode {
  const copy: UiNode = {
    ...node,
    text: node.text && !isEditable(node) ? `${node.text} ${suffix}` : node.text,
    contentDesc: node.contentDesc ? `${node.contentDesc} ${suffix}` : '',
    bounds: [...node.bounds] as UiNode['bounds'],
    parent,
    children: [],
  }
  copy.children = node.children.map((c) => cloneRow(c, copy, suffix))
  return copy
}

/**
 * Changes a copy of the screen. Returns the original nodes that were removed or legitimately renamed (not
 * counted as kept or lost), or undefined when the perturbation does not apply to this screen.
 */
export type Perturbation = (windows: UiNode[], copyOf: Map<UiNode, UiNode>) => Set<UiNode> | undefined

/** The first list: a scrollable node with 3+ children, else a node with 3+ children of one signature. */
function firstList(originals: UiNode[]): UiNode | undefined {
  const sig = (n: UiNode) => `${n.className}#${n.resourceId}`
  return (
    originals.find((n) => n.scrollable && n.children.length >= 3) ??
    originals.find((n) => n.children.length >= 3 && new Set(n.children.map(sig)).size === 1)
  )
}

/** Scroll by one row: the first row leaves, the rest move up by its height, a new row arrives at the end. */
export const scrollOneRow: Perturbation = (_windows, copyOf) => {
  const original = firstList([...copyOf.keys()])
  if (!original) return undefined
  const container = copyOf.get(original) as UiNode
  const first = container.children[0] as UiNode
  const dy = first.bounds[3] - first.bounds[1] || 100
  for (const child of container.children) shiftBounds(child, -dy)
  container.children.shift()
  // A list of look-alike rows gets one more row like its last; a column of different sections gets a new view.
  const last = container.children.at(-1) as UiNode
  const sig = (n: UiNode) => `${n.className}#${n.resourceId}`
  const homogeneous = new Set(container.children.map(sig)).size === 1
  const arrival = homogeneous ? cloneRow(last, container, '(new)') : leaf(container, 'a new view scrolled in')
  shiftBounds(arrival, dy)
  container.children.push(arrival)
  return new Set(walk([original.children[0] as UiNode]))
}

/**
 * A half-clipped row: the list's first row is scrolled half under the list's top edge. Its bounds are cut,
 * and the views wholly above the edge leave the dump (uiautomator only writes what is visible).
 */
export const halfClipRow: Perturbation = (_windows, copyOf) => {
  const original = firstList([...copyOf.keys()])
  if (!original) return undefined
  const row = copyOf.get(original)?.children[0]
  if (!row) return undefined
  const edge = Math.round((row.bounds[1] + row.bounds[3]) / 2)
  const removed = new Set<UiNode>()
  const originalOf = new Map([...copyOf].map(([o, c]) => [c, o]))
  const clip = (node: UiNode): void => {
    node.children = node.children.filter((child) => {
      if (child.bounds[3] > edge) return true
      for (const gone of walk([child])) removed.add(originalOf.get(gone) as UiNode)
      return false
    })
    node.bounds = [node.bounds[0], Math.max(node.bounds[1], edge), node.bounds[2], node.bounds[3]]
    for (const child of node.children) clip(child)
  }
  clip(row)
  return removed
}

/** Text change in anchored nodes: every non-editable text node with a resource-id unique in its window. */
export const changeAnchoredText: Perturbation = (windows) => {
  let changed = 0
  for (const window of windows) {
    const nodes = [...walk([window])]
    const counts = new Map<string, number>()
    for (const n of nodes) if (n.resourceId) counts.set(n.resourceId, (counts.get(n.resourceId) ?? 0) + 1)
    for (const n of nodes) {
      if (!n.resourceId || counts.get(n.resourceId) !== 1 || n.text === '' || isEditable(n)) continue
      n.text = `${n.text} 12:34`
      changed++
    }
  }
  return changed === 0 ? undefined : new Set()
}

/** Keyboard shown: an input-method window arrives on top; hidden: an input-method window present leaves. */
export const toggleKeyboard: Perturbation = (windows, copyOf) => {
  const ime = windows.findIndex((w) => /inputmethod|keyboard/i.test(w.package))
  if (ime !== -1) {
    const [gone] = windows.splice(ime, 1)
    const originalOf = new Map([...copyOf].map(([o, c]) => [c, o]))
    return new Set([...walk([gone as UiNode])].map((n) => originalOf.get(n) as UiNode))
  }
  const app = windows[0]
  if (!app) return undefined
  const root = leaf(app, '', {
    className: 'android.widget.FrameLayout',
    package: 'com.google.android.inputmethod.latin',
    parent: undefined,
  })
  root.bounds = [app.bounds[0], Math.round(app.bounds[3] * 0.6), app.bounds[2], app.bounds[3]]
  root.children = [...'qwertyuiop'].map((k) =>
    leaf(root, '', {contentDesc: k, clickable: true, className: 'android.widget.ImageView'})
  )
  windows.unshift(root)
  return new Set()
}

/** An element inserted above: a new labelled view becomes the first child of the middle parent. */
export const insertAbove: Perturbation = (_windows, copyOf) => {
  const parents = [...copyOf.keys()].filter((n) => n.children.length > 0 && n.parent)
  const target = parents[Math.floor(parents.length / 2)]
  if (!target) return undefined
  const copy = copyOf.get(target) as UiNode
  copy.children.unshift(leaf(copy, 'Inserted banner'))
  return new Set()
}

/** Typing: every editable field gets new text. The fields themselves must keep their ids too. */
export const typeInto: Perturbation = (windows) => {
  const fields = [...walk(windows)].filter(isEditable)
  if (fields.length === 0) return undefined
  for (const field of fields) field.text = `${field.text} typed by arc`
  return new Set()
}

/** No change at all: the same screen read again. */
export const unchanged: Perturbation = () => new Set()

export const PERTURBATIONS: Record<string, Perturbation> = {
  'unchanged screen': unchanged,
  'scroll by one row': scrollOneRow,
  'half-clipped row': halfClipRow,
  'text change in an anchored node': changeAnchoredText,
  'keyboard shown/hidden': toggleKeyboard,
  'element inserted above': insertAbove,
  'typing into fields': typeInto,
}

export interface Tally {
  /** Unchanged elements with an unambiguous id before. */
  total: number
  /** Of those, how many had the same id after. */
  kept: number
  /**
   * Ids of before (unambiguous, or a look-alike's ordinal that an action would take: its group unchanged) that name
   * a different element after (an action would hit the wrong one).
   */
  wrong: number
  /** Elements before whose id was a look-alike's ordinal (`node_<hash>-<n>`). */
  ambiguous: number
  /** Of those, unchanged ones whose ordinal an action would still take (its group unchanged) and name it. */
  ordinalKept: number
  /** Unchanged elements whose id an action would refuse afterwards (an ordinal whose group changed): STALE_ELEMENT. */
  refused: number
}

export const emptyTally = (): Tally => ({total: 0, kept: 0, wrong: 0, ambiguous: 0, ordinalKept: 0, refused: 0})
export const TALLY_KEYS = ['total', 'kept', 'wrong', 'ambiguous', 'ordinalKept', 'refused'] as const

/**
 * Applies a perturbation to a copy of the screen and tallies ids kept, refused and wrong targets. A look-alike's
 * ordinal id acts only while its group's fingerprint (ScreenElement.group) is unchanged, as resolveElement checks.
 */
export function measure(base: ScreenCapture, model: ScreenModel, perturb: Perturbation): Tally | undefined {
  const {windows, copyOf} = cloneWindows(model.hierarchy.windows)
  const changed = perturb(windows, copyOf)
  if (!changed) return undefined
  const after = buildScreenModel({...base, hierarchy: {...model.hierarchy, windows}})
  const idOf = new Map(after.elements.map((e) => [e.node, e.id]))
  const tally = emptyTally()
  for (const element of model.elements) {
    const now = after.byId.get(element.id)
    const copy = copyOf.get(element.node) as UiNode
    if (isAmbiguousId(element.id)) {
      tally.ambiguous++
      const acts = now !== undefined && now.group === element.group
      if (acts && now.node !== copy) tally.wrong++
      if (changed.has(element.node)) continue
      if (acts && now.node === copy) tally.ordinalKept++
      else tally.refused++
      continue
    }
    if (now && now.node !== copy) tally.wrong++
    if (changed.has(element.node)) continue
    tally.total++
    if (idOf.get(copy) === element.id) tally.kept++
  }
  return tally
}
