/**
 * The element waits: wait_for_element polls the screen until an element matches; wait_for_element_gone until none
 * does. Both stop at their deadline (wait-poll.ts), report progress for the spinner and stop when ctx.signal aborts.
 * Running out of time is a result, not an error; the CLI exits with TIMEOUT's status after printing it.
 */
import {
  checkElementId,
  defineTool,
  readRecords,
  InvalidInputError,
  isAmbiguousId,
  recordMismatch,
  recordOf,
  rememberElements,
  screenElementJson,
  type ScreenElement,
  type ScreenModel,
  type ToolContext,
  z,
  BY,
  elementTable,
  findMatching,
  type By,
} from '@arc-cli/core'

import {elementJson, searchFields} from './element-support.js'
import {cliTimeoutField, pollScreen, POLL_MS, reads, timedOut, timeoutField} from './wait-poll.js'

export {POLL_MS} from './wait-poll.js'

/** `--exact-match` on the waits: a command-line input (MCP's wait tools keep the spec's inputs). */
const exactMatchInput = z.object({
  exact_match: z
    .boolean()
    .default(false)
    .describe(
      'Match the whole value exactly (a resource id with or without its package; default: case-insensitive contains)'
    ),
})

export const waitForElement = defineTool({
  name: 'wait_for_element',
  title: 'Wait until an element appears',
  description: `Reads the screen every ${POLL_MS} ms until an element whose text, content_desc, resource_id or class_name contains \`value\` (case-insensitive) appears, or the timeout passes. Returns JSON: found, elapsedMs, attempts and the element (the CLI: a line and a table; --json: the same in docs/json.md shape). A timeout is not an error over MCP (found is false); the CLI exits 11 (TIMEOUT) after printing, so \`arc wait element … && arc click …\` goes on only when it was found. For the opposite, see wait gone.`,
  kind: 'read',
  needs: {screen: 'read'},
  group: 'elements',
  input: z.object({...searchFields, timeout: timeoutField()}),
  cli: {
    id: 'wait element',
    override: {timeout: cliTimeoutField()},
    input: exactMatchInput,
    positional: ['by', 'value'],
    examples: [
      '<%= config.bin %> <%= command.id %> text ADD --timeout 5000',
      '<%= config.bin %> <%= command.id %> --res-id add_button --exact-match --timeout 2m',
    ],
  },
  async handler(ctx, {by, value, timeout, exact_match}) {
    const exact = exact_match ?? false
    const end = await pollScreen(
      ctx,
      timeout,
      (n) => `waiting for ${by} ${JSON.stringify(value)} (${reads(n)})`,
      (model) => findMatching(model, by, value, exact)[0]
    )
    const {met: element, elapsedMs, attempts} = end
    if (element) {
      await rememberElements(ctx, [element])
      const data = {found: true, elapsedMs, attempts, element: elementJson(element)}
      return {
        text: JSON.stringify(data, null, 2),
        data,
        cli: {
          human: `Found after ${elapsedMs} ms (${reads(attempts)}):\n${elementTable([element])}`,
          data: {found: true, elapsed_ms: elapsedMs, attempts, element: screenElementJson(element)},
        },
      }
    }
    return timedOut(
      {found: false, elapsedMs, attempts},
      `Not found: no element with ${by} ${exact ? 'equal to' : 'containing'} ${JSON.stringify(value)} after ${elapsedMs} ms (${reads(attempts)})`,
      {found: false, elapsed_ms: elapsedMs, attempts}
    )
  },
})

const GONE_BY = [...BY, 'id'] as const

/** The element that still matches on this read, or undefined when none does. */
type Present = (model: ScreenModel) => ScreenElement | undefined

/**
 * An id is present while the screen holds an element with it that is still what the id named at its last read
 * (the stale check of element actions): an id that is gone, or that now names another element, counts as gone.
 */
async function idPresence(ctx: ToolContext, id: string): Promise<Present> {
  const then = (await readRecords(ctx))?.[id]
  const ordinal = isAmbiguousId(id)
  if (ordinal && then?.group === undefined) {
    throw new InvalidInputError(
      `${id} names one of several look-alike elements by its place among them, and arc has no record of that group, so it cannot tell when the one you mean is gone`,
      {
        actions: [
          'Read the screen (arc screen-state) and use the id it shows, or wait for it by text, content_desc or resource_id (arc wait gone text …).',
        ],
        details: {input: 'value', value: id},
      }
    )
  }
  // A look-alike's ordinal names it only while its group is as it was read: a changed group counts as gone.
  return (model) => {
    const element = model.byId.get(id)
    if (!element || (ordinal && element.group !== then?.group)) return undefined
    return !then || recordMismatch(then, recordOf(element)).length === 0 ? element : undefined
  }
}

export const waitForElementGone = defineTool({
  name: 'wait_for_element_gone',
  title: 'Wait until an element is gone',
  description: `Reads the screen every ${POLL_MS} ms until no element's text, content_desc, resource_id or class_name contains \`value\` (case-insensitive), or the timeout passes: for a spinner or a "Loading…" text to go away. By id: until the element the id names is gone (an id no longer on the screen, or naming another element now, counts as gone). Prints one line, and the element while it is still there (--json: gone, elapsed_ms, attempts, element). Still there at the timeout: exits 11 (TIMEOUT) after printing. Not served over MCP (tools/list has no room left; poll find_elements there).`,
  kind: 'read',
  needs: {screen: 'read'},
  group: 'elements',
  input: z.object({
    by: z
      .enum(GONE_BY)
      .describe(
        'Search criteria: text, content_desc, resource_id, class_name, or id (an element id from screen-state or find)'
      ),
    value: searchFields.value,
    timeout: timeoutField(),
  }),
  cli: {
    id: 'wait gone',
    override: {timeout: cliTimeoutField()},
    input: exactMatchInput,
    only: 'tools/list has no room for another tool within its 6,000-token budget; over MCP, poll find_elements until it lists none',
    positional: ['by', 'value'],
    examples: [
      '<%= config.bin %> <%= command.id %> text Loading --timeout 10000',
      '<%= config.bin %> <%= command.id %> id node_s7ddgy --timeout 2000',
    ],
  },
  async handler(ctx, {by, value, timeout, exact_match}) {
    const exact = exact_match ?? false
    const id = by === 'id' ? checkElementId(value, 'value') : undefined
    if (id && exact)
      throw new InvalidInputError(
        '--exact-match applies to text, content_desc, resource_id and class_name, not to an id',
        {
          details: {input: 'exact_match'},
        }
      )
    const present: Present = id ? await idPresence(ctx, id) : (model) => findMatching(model, by as By, value, exact)[0]
    let still: ScreenElement | undefined
    const end = await pollScreen(
      ctx,
      timeout,
      (n) => `waiting for ${by} ${JSON.stringify(value)} to go (${reads(n)})`,
      (model) => {
        still = present(model)
        return still ? undefined : true
      }
    )
    const {elapsedMs, attempts} = end
    const what = id
      ? `element ${id}`
      : `element with ${by} ${exact ? 'equal to' : 'containing'} ${JSON.stringify(value)}`
    if (end.met) {
      const data = {gone: true, elapsedMs, attempts}
      return {
        text: JSON.stringify(data, null, 2),
        data,
        cli: {
          human: `Gone after ${elapsedMs} ms (${reads(attempts)}): no ${what}`,
          data: {gone: true, elapsed_ms: elapsedMs, attempts},
        },
      }
    }
    if (!still)
      return timedOut(
        {gone: false, elapsedMs, attempts},
        `Not gone: no read of the screen finished within ${elapsedMs} ms`,
        {gone: false, elapsed_ms: elapsedMs, attempts}
      )
    await rememberElements(ctx, [still])
    const data = {gone: false, elapsedMs, attempts, element: elementJson(still)}
    return timedOut(
      data,
      `Still there after ${elapsedMs} ms (${reads(attempts)}): an ${what}\n${elementTable([still])}`,
      {gone: false, elapsed_ms: elapsedMs, attempts, element: screenElementJson(still)}
    )
  },
})
