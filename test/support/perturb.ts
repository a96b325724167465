import type {UiNode} from '@arc-cli/core'

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

export function leaf(parent: UiNode, text: string): UiNode {
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
  }
}
