/**
 * How an element is matched by what it shows (`arc find text ADD`, `arc click --text ADD`), and the table of
 * elements the CLI prints for a match or an ambiguity: shared by core's target resolution (element-target.ts) and
 * every tool that searches the screen, in the core and in the plugins.
 */
import {z} from 'zod'

import {fullElementId} from '../screen/element-ids.js'
import {formatFlags} from '../screen/node-rules.js'
import type {ScreenElement, ScreenModel} from '../screen/screen-model.js'
import {truncateToWidth} from './display-width.js'
import {formatTable} from './human-text.js'

/** The criteria a search matches by (find's `BY`). */
export const BY = ['text', 'content_desc', 'resource_id', 'class_name'] as const
export type By = (typeof BY)[number]

/** An element id as any read printed it: `node_a3f2kq`, or `a3f2kq` from compact screen-state (made full here). */
export const elementIdString = () => z.string().min(1).overwrite(fullElementId)

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
export function elementMatches(e: ScreenElement, by: By, value: string, exact: boolean): boolean {
  const have = field(e, by)
  if (exact)
    return (
      have === value ||
      (by === 'class_name' && e.className === value) ||
      (by === 'resource_id' && !value.includes(':') && have.endsWith(`:id/${value}`))
    )
  return have.toLowerCase().includes(value.toLowerCase())
}

/** Every element of a read that one criterion matches, in the read's order. */
export function findMatching(model: ScreenModel, by: By, value: string, exact: boolean): ScreenElement[] {
  return model.elements.filter((e) => elementMatches(e, by, value, exact))
}

const MAX_CELL = 40

/** A cell for people: cut to 40 terminal columns with `…` (a CJK character takes two); get_element_details gives the whole. */
const short = (value: string) => truncateToWidth(value, MAX_CELL)

/** The CLI's table of elements (find, wait element, an ambiguity): the columns of a screen-state row, aligned. */
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
