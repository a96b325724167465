/** What the element tools share: the search criteria, the element JSON of the spec, and where to tap an element. */
import {
  areaOf,
  BY,
  intersect,
  isEditable,
  visibleRect,
  type Rect,
  type ScreenElement,
  type UiNode,
  z,
} from '@arc-cli/core'

export const searchFields = {
  by: z.enum(BY).describe('Search criteria: text, content_desc, resource_id or class_name'),
  value: z.string().min(1).describe('Search value (non-empty)'),
}

const orNull = (s: string) => (s === '' ? null : s)

/** The spec's element object (find_elements). */
export function elementJson(e: ScreenElement) {
  const [left, top, right, bottom] = e.bounds
  return {
    id: e.id,
    text: orNull(e.text),
    contentDescription: orNull(e.desc),
    resourceId: orNull(e.resId),
    className: e.node.className,
    bounds: {left, top, right, bottom},
    clickable: e.node.clickable,
    longClickable: e.node.longClickable,
    scrollable: e.node.scrollable,
    editable: isEditable(e.node),
    enabled: e.node.enabled,
    // States an agent checks an action by (a check box ticked, a tab selected, a field focused, a row scrolled
    // into view): null where the element cannot be checked at all.
    checked: e.node.checkable ? e.node.checked : null,
    selected: e.node.selected,
    focused: e.node.focused,
    onScreen: e.flags.on,
  }
}

export {areaOf, intersect, visibleRect, type Rect}

export function centre(r: Rect): {x: number; y: number} {
  return {x: Math.floor((r[0] + r[2]) / 2), y: Math.floor((r[1] + r[3]) / 2)}
}

/** Share (0-1) of the element's area that `part` of it covers (its visible part…); 0 when it is hidden from the user. */
export function shareOf(e: ScreenElement, part: Rect | undefined): number {
  if (e.node.visibleToUser === false) return 0
  const whole = areaOf(e.bounds)
  return part && whole > 0 ? areaOf(part) / whole : 0
}

/** The element or its nearest ancestor with the property (a label inside a clickable row is clicked through the row). */
export function selfOrAncestor(node: UiNode, test: (n: UiNode) => boolean): UiNode | undefined {
  for (let n: UiNode | undefined = node; n; n = n.parent) if (test(n)) return n
  return undefined
}
