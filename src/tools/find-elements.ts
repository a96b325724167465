import {
  defineTool,
  exitCodeFor,
  rememberElements,
  buildScreenModel,
  screenElementJson,
  z,
  elementTable,
  findMatching,
} from '@arc-cli/core'

import {elementJson, searchFields} from './element-support.js'

export const findElements = defineTool({
  name: 'find_elements',
  title: 'Find elements by text, content description, resource id or class',
  description:
    'Finds the elements on the current screen whose text, content_desc, resource_id or class_name matches `value` (case-insensitive contains, or exact with exact_match). Returns a JSON object (one line) with an `elements` array (may be empty): id, text, contentDescription, resourceId, className, bounds, flags and states (checked: true/false, null when not checkable; selected, focused, onScreen). The ids can be passed to the element tools. The CLI prints a table (--json: the same in docs/json.md shape) and exits 9 when nothing matches.',
  kind: 'read',
  needs: {screen: 'read'},
  group: 'elements',
  input: z.object({
    ...searchFields,
    exact_match: z
      .boolean()
      .default(false)
      .describe('Match the whole value exactly (default: case-insensitive contains)'),
  }),
  cli: {
    id: 'find',
    positional: ['by', 'value'],
    examples: [
      '<%= config.bin %> <%= command.id %> text ADD',
      '<%= config.bin %> <%= command.id %> resource_id dev.arc.demo.groceries:id/add_button --exact-match',
      '<%= config.bin %> <%= command.id %> --res-id add_button --exact-match',
    ],
  },
  async handler(ctx, {by, value, exact_match}) {
    const model = buildScreenModel(await ctx.driver.captureScreen())
    const found = findMatching(model, by, value, exact_match)
    await rememberElements(ctx, found)
    const data = {elements: found.map(elementJson)}
    const human = found.length > 0 ? elementTable(found) : `No element matches ${by} ${JSON.stringify(value)}.`
    // MCP answers the spec's empty list; a script's `arc find … && next` goes on only when something matched.
    // One line: indentation is a third more tokens for an agent, and says nothing.
    return {
      text: JSON.stringify(data),
      data,
      cli: {
        human,
        data: {elements: found.map(screenElementJson)},
        ...(found.length === 0 ? {exitCode: exitCodeFor('ELEMENT_NOT_FOUND')} : {}),
      },
    }
  },
})
