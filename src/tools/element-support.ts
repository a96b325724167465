/** What the element tools share: the search criteria, the element JSON of the spec, and where to tap an element. */
import {
  areaOf,
  formatFlags,
  formatTable,
  fullElementId,
  intersect,
  isEditable,
  truncateToWidth,
  visibleRect,
  type Rect,
  type ScreenElement,
  type ScreenModel,
  type UiNode,
  z,
} from '@arc-cli/core'

export const BY = ['text', 'content_desc', 'resource_id', 'class_name'] as const
export type By = (typeof BY)[number]

/** An element id as any read printed it: `node_a3f2kq`, or `a3f2kq` from compact screen-state (made full here). */
export const elementIdString = () => z.string().min(1).overwrite(fullElementId)

export const elementId = elementIdString().describe('Element id from screen-state or find (node_ and 6 characters)')

export const searchFields = {
  by: z.enum(BY).describe('Search criteria: text, content_desc, resource_id or class_name'),
  value: z.string().min(1).describe('Search value (non-empty)'),
}

function field(e: ScreenElement, by: By): string {
  switch (by) {
    case 'text':
      return e.text
    case 'content_desc':
      return e.desc
    case 'resource_id':
      return e.resId
    case 'class_name':
      return e.node.className
  }
}

/**
 * Exact: the whole value (class_name also matches the simple name, resource_id the name without its package:
 * `add` is `com.example:id/add`); else case-insensitive contains.
 */
export function matches(e: ScreenElement, by: By, value: string, exact: boolean): boolean {
  const have = field(e, by)
  if (exact)
    return (
      have === value ||
      (by === 'class_name' && e.className === value) ||
      (by === 'resource_id' && !value.includes(':') && have.endsWith(`:id/${value}`))
    )
  return have.toLowerCase().includes(value.toLowerCase())
}

export function findMatching(model: ScreenModel, by: By, value: string, exact: boolean): ScreenElement[] {
  return model.elements.filter((e) => matches(e, by, value, exact))
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

const MAX_CELL = 40

/** A cell for people: cut to 40 terminal columns with `…` (a CJK character takes two); get_element_details gives the whole. */
const short = (value: string) => truncateToWidth(value, MAX_CELL)

/** The CLI's table of elements (find, wait element): the columns of a screen-state row, aligned. */
export function elementTable(elements: ScreenElement[]): string {
  const rows = elements.map((e) => [
    e.id,
    e.className,
    short(e.text),
    short(e.desc),
    e.resId,
    e.bounds.join(','),
    formatFlags(e.flags),
  ])
  return formatTable(['ID', 'CLASS', 'TEXT', 'DESC', 'RES_ID', 'BOUNDS', 'FLAGS'], rows)
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
