/**
 * The one element an element action acts on: an id from a read, or a selector (`--text Submit`) that must match
 * exactly one element on a fresh read of the screen. Every element action resolves its target here, the core's and
 * the plugins' (`arc screenshot --element`, `arc assert screenshot`); the selector fields are CLI-only inputs for
 * now (MCP's tools/list has no room for them), so serving them over MCP is moving `selectorInput` into a tool's
 * `input`, nothing more. The matching is find's (`elementMatches`): what `arc find` lists for the same criteria are
 * the candidates.
 */
import {z} from 'zod'

import {ElementAmbiguousError, ElementNotFoundError, InvalidInputError} from '../errors/arc-error.js'
import {ELEMENT_ID_PATTERN} from '../screen/element-ids.js'
import {screenElementJson} from '../screen/element-json.js'
import {buildScreenModel, type ScreenElement, type ScreenModel} from '../screen/screen-model.js'
import {checkMainDisplay, rememberElements, resolveElement, type ResolvedElement} from '../state/element-records.js'
import type {ActedElement, OmittableField, ToolContext} from './define-tool.js'
import {elementIdString, elementMatches, elementTable, type By} from './element-match.js'
import {elementWaitInput} from './element-wait.js'

/**
 * The element id of an element action: required, as the spec has it, except on a command line, where a selector
 * may stand in its place (the tools name it in `cli.mayOmit`; resolveTarget refuses a call with neither).
 */
export const targetId = elementIdString().describe('Element id from screen-state or find (node_ and 6 characters)')

/** `element_id` may be left out of a command line for a selector; a word shaped like an id is one, never the text. */
export const elementIdOmittable: OmittableField = {
  field: 'element_id',
  looksLike: (word) => ELEMENT_ID_PATTERN.test(word),
}

/**
 * Selector field → find's criterion. `field_text` is `text` under another name, for the typing tools whose `text`
 * input is what to type (`arc type append --field-text Email hello`).
 */
const KINDS = {
  text: 'text',
  field_text: 'text',
  desc: 'content_desc',
  res_id: 'resource_id',
  class_name: 'class_name',
} as const satisfies Record<string, By>
type Kind = keyof typeof KINDS
/** What a tool names its text selector: `text`, or `field_text` where `text` is already an input. */
export type TextKind = 'text' | 'field_text'

const selector = (what: string) =>
  z
    .string()
    .min(1)
    .optional()
    .describe(`In place of an id: the one element whose ${what} contains this (case-insensitive, as arc find matches)`)

/** The selector fields (CLI-only for now: a tool's `cli.input`). Several together must all match the element. */
export const selectorInput = z.object({
  text: selector('text'),
  desc: selector('content description'),
  res_id: selector('resource id'),
  class_name: selector('class name'),
  exact_match: z
    .boolean()
    .default(false)
    .describe(
      'With a selector: match whole values exactly (a class also by its simple name, a resource id without package too)'
    ),
})

/** The selector fields of a typing tool that has a `text` input (what to type): the field's text is --field-text. */
export const fieldSelectorInput = z.object({
  field_text: selector('text'),
  ...selectorInput.omit({text: true}).shape,
})

/** An element action's selector fields and its --wait (element-wait.ts in core: retried until the element shows). */
export const actionSelectorInput = selectorInput.extend(elementWaitInput.shape)
/** The same for a typing tool, whose text selector is --field-text. */
export const fieldActionInput = fieldSelectorInput.extend(elementWaitInput.shape)

export type TargetInput = {element_id?: string; field_text?: string} & Partial<z.output<typeof selectorInput>>

export interface Target extends ResolvedElement {
  /** The id of the element acted on (the selector's one match, or the id given, in full). */
  id: string
  /** The selector that found it, as given (absent for an id). */
  selector?: Partial<Record<Kind, string>> & {exact_match: boolean}
  /** The scrolls a search made before the selector matched (absent when the first read matched, or for an id). */
  scrolls?: number
}

/** A selector as a search sees it: whether a read has a match, and what an error about it says. */
export interface SearchedSelector {
  /** `--text "Kiwi" --exact-match`, as the error messages name it. */
  what: string
  has(model: ScreenModel): boolean
  /** What a small change to the selector would match on that read (the ELEMENT_NOT_FOUND hints). */
  hints(model: ScreenModel): string[]
  details: {selector: Record<string, string>; exact_match: boolean}
}

/**
 * Where an action looks when its selector matches nothing on the first read (scroll-to scrolls the list): the
 * first later read with a match and the scrolls it took, undefined when there is nowhere to look (the first
 * read's ELEMENT_NOT_FOUND stands), or an error of its own when it looked and found nothing.
 */
export type SelectorSearch = (
  first: ScreenModel,
  selector: SearchedSelector
) => Promise<{model: ScreenModel; scrolls: number} | undefined>

const flag = (kind: Kind) => `--${kind.replace('_', '-')}`
/** A tool's selector fields: its text selector's name, then the others (a typing tool's `text` is what it types). */
const kindsOf = (textKind: TextKind): Kind[] => [textKind, 'desc', 'res_id', 'class_name']
const selectorFlags = (textKind: TextKind) => kindsOf(textKind).map(flag).join(', ')
/** Candidates listed in an ambiguity error's message (the rest are counted), and in its details. */
const LISTED = 10
const DETAILED = 50

function criteriaOf(input: TargetInput, textKind: TextKind = 'text'): Array<[Kind, string]> {
  return kindsOf(textKind).flatMap((kind) =>
    input[kind] === undefined ? [] : [[kind, input[kind] as string] as [Kind, string]]
  )
}

function describeSelector(criteria: Array<[Kind, string]>, exact: boolean): string {
  return [
    ...criteria.map(([kind, value]) => `${flag(kind)} ${JSON.stringify(value)}`),
    ...(exact ? ['--exact-match'] : []),
  ].join(' ')
}

function matching(model: ScreenModel, criteria: Array<[Kind, string]>, exact: boolean): ScreenElement[] {
  return model.elements.filter((e) => criteria.every(([kind, value]) => elementMatches(e, KINDS[kind], value, exact)))
}

/**
 * A selector for tools that read rather than act (`arc assert`): how messages name it, and every element of a read
 * that it matches; undefined when the input names no selector.
 */
export function readSelector(
  input: Partial<z.output<typeof selectorInput>>
): {what: string; match(model: ScreenModel): ScreenElement[]} | undefined {
  const criteria = criteriaOf(input)
  const exact = input.exact_match ?? false
  if (criteria.length === 0) return undefined
  return {what: describeSelector(criteria, exact), match: (model) => matching(model, criteria, exact)}
}

/** What would have matched with a small change to the selector (contains for exact; desc for text and back). */
function nearMisses(model: ScreenModel, criteria: Array<[Kind, string]>, exact: boolean, textKind: TextKind): string[] {
  const hints: string[] = []
  if (exact) {
    const n = matching(model, criteria, false).length
    if (n > 0) hints.push(`${n} element(s) match without --exact-match (case-insensitive contains).`)
  }
  const [only] = criteria
  if (criteria.length === 1 && only && (only[0] === textKind || only[0] === 'desc')) {
    const other: Kind = only[0] === 'desc' ? textKind : 'desc'
    const n = matching(model, [[other, only[1]]], exact).length
    if (n > 0) hints.push(`${describeSelector([[other, only[1]]], exact)} matches ${n} element(s).`)
  }
  return hints
}

/**
 * How a recorded flow names an element again (ctx.noteTarget): the first of its resource id, description and text
 * (not the text of an edit field, which typing changes), then a resource id with either, that matches it alone,
 * exactly, on `model`, the screen it was resolved on.
 */
export function actedElement(model: ScreenModel, element: ScreenElement): ActedElement {
  const editable = element.flags.edt
  const candidates: Array<Array<[Kind, string]>> = []
  const res: [Kind, string] | undefined = element.resId ? ['res_id', element.resId] : undefined
  const desc: [Kind, string] | undefined = element.desc ? ['desc', element.desc] : undefined
  const text: [Kind, string] | undefined = element.text && !editable ? ['text', element.text] : undefined
  for (const one of [res, desc, text]) if (one) candidates.push([one])
  if (res) for (const other of [desc, text]) if (other) candidates.push([res, other])
  const alone = candidates.find((criteria) => {
    const found = matching(model, criteria, true)
    return found.length === 1 && found[0] === element
  })
  return {
    id: element.id,
    ordinal: /-\d+$/.test(element.id),
    ...(alone ? {selector: alone.map(([kind, value]) => [flag(kind), value] as [string, string])} : {}),
  }
}

/** How a tool's target is resolved beyond its input. */
export interface TargetOptions {
  /** Where to look when a selector matches nothing on the first read (scroll-to's search down the list). */
  search?: SelectorSearch
  /** The tool's name for its text selector, as its messages name the flags (`field_text` on the typing tools). */
  textKind?: TextKind
  /** How messages name the id input: `element_id` (the spec's field), or a CLI-only flag (`--element`). */
  idInput?: string
}

/**
 * Resolves an element action's target. An id goes through `resolveElement` (stale-safe); a selector is matched on
 * a fresh read and must match exactly one element: none is ELEMENT_NOT_FOUND, several ELEMENT_AMBIGUOUS with the
 * candidates, never the first of them. An id and a selector together, or neither, is INVALID_INPUT. The ids shown
 * (the match, or the candidates) are remembered as find's are, so they can be used next with the stale-id check.
 */
export async function resolveTarget(
  ctx: ToolContext,
  input: TargetInput,
  options: TargetOptions = {}
): Promise<Target> {
  const {search, textKind = 'text', idInput = 'element_id'} = options
  const offered = selectorFlags(textKind)
  const criteria = criteriaOf(input, textKind)
  const exact = input.exact_match ?? false
  if (input.element_id !== undefined && criteria.length > 0) {
    throw new InvalidInputError(
      `both an element id (${input.element_id}) and a selector (${describeSelector(criteria, exact)}) were given: pass one of them`,
      {
        details: {element_id: input.element_id, selector: Object.fromEntries(criteria)},
      }
    )
  }
  if (exact && criteria.length === 0)
    throw new InvalidInputError(`--exact-match applies to a selector, and none was given (${offered})`)
  if (input.element_id !== undefined) {
    const resolved = await resolveElement(ctx.driver, ctx, input.element_id, idInput)
    ctx.noteTarget?.(actedElement(resolved.model, resolved.element))
    return {...resolved, id: resolved.element.id}
  }
  if (criteria.length === 0) {
    throw new InvalidInputError(
      `no element given: ${idInput} is required (the command line also takes a selector in its place: ${offered})`,
      {
        actions: ['Read the screen (arc screen-state, or arc find) for the ids.'],
      }
    )
  }
  const what = describeSelector(criteria, exact)
  let model = buildScreenModel(await ctx.driver.captureScreen())
  let found = matching(model, criteria, exact)
  let scrolls: number | undefined
  const details = {selector: Object.fromEntries(criteria), exact_match: exact}
  if (found.length === 0 && search) {
    const further = await search(model, {
      what,
      has: (m) => matching(m, criteria, exact).length > 0,
      hints: (m) => nearMisses(m, criteria, exact, textKind),
      details,
    })
    if (further) {
      ;({model, scrolls} = further)
      found = matching(model, criteria, exact)
    }
  }
  if (found.length === 0) {
    throw new ElementNotFoundError(`no element on the current screen matches ${what}`, {
      actions: [
        ...nearMisses(model, criteria, exact, textKind),
        'See what is on the screen: arc screen-state (or arc find).',
      ],
      details,
    })
  }
  if (found.length > 1) {
    const listed = found.slice(0, DETAILED)
    await rememberElements(ctx, listed)
    const more = found.length > LISTED ? `\n… and ${found.length - LISTED} more (arc find lists them all)` : ''
    const exactly = exact ? 0 : matching(model, criteria, true).length
    throw new ElementAmbiguousError(
      `${found.length} elements match ${what}${scrolls === undefined ? '' : ` (after ${scrolls} scroll(s))`}, and arc acts on one element only, never the first of several:\n${elementTable(found.slice(0, LISTED))}${more}`,
      {
        actions: [
          `Pass the id of the one you mean (the ID column)${idInput.startsWith('-') ? ` as ${idInput}` : ''} in place of the selector.`,
          exactly === 1
            ? 'Or add --exact-match: one of them matches exactly.'
            : `Or narrow the selector: combine ${offered}${exact ? '' : ', or add --exact-match'}.`,
        ],
        details: {
          ...details,
          count: found.length,
          ...(scrolls === undefined ? {} : {scrolls}),
          // Selectors are command-line inputs: the candidates are in the command line's one element shape.
          candidates: listed.map(screenElementJson),
        },
      }
    )
  }
  const element = found[0] as ScreenElement
  checkMainDisplay(element)
  await rememberElements(ctx, [element])
  return {
    model,
    element,
    id: element.id,
    selector: {...Object.fromEntries(criteria), exact_match: exact},
    ...(scrolls === undefined ? {} : {scrolls}),
  }
}

/** How a result names the element acted on: ` (found by --text "Submit")` after a selector, else nothing. */
export function foundBy(target: Target): string {
  if (!target.selector) return ''
  return ` (found by ${describeSelector(criteriaOf(target.selector, target.selector.field_text === undefined ? 'text' : 'field_text'), target.selector.exact_match)})`
}

/** The selector a result's data reports, when one found the element. */
export function selectorData(target: Target): {selector?: Target['selector']} {
  return target.selector ? {selector: target.selector} : {}
}
