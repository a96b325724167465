import {
  buildScreenModel,
  checkElementId,
  defineTool,
  elementWaitInput,
  exitCodeFor,
  rememberElements,
  type ScreenElement,
  z,
  elementIdString,
} from '@arc-cli/core'

/** Tabs and line breaks inside a value would break the TSV: written as \t, \n, \r, and a backslash as \\. */
const cell = (s: string) =>
  s === '' ? '-' : s.replace(/[\\\t\n\r]/g, (c) => ({'\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r'})[c] as string)

export const getElementDetails = defineTool({
  name: 'get_element_details',
  title: 'Full text and content description of elements',
  description:
    'Prints the full, untruncated text and content description of each element id as TSV (id, text, desc; `-` when empty). An id that is not on the current screen gets a `not_found` row (the CLI then exits 9, after printing every row).',
  kind: 'read',
  needs: {screen: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'elements',
  input: z.object({
    ids: z
      .array(elementIdString().describe('An element id'))
      .min(1)
      .describe('Element ids to look up (from screen-state)'),
  }),
  cli: {
    id: 'details',
    input: elementWaitInput,
    examples: [
      '<%= config.bin %> <%= command.id %> --ids node_s7ddgy --ids node_hqx8qp',
      '<%= config.bin %> <%= command.id %> --ids node_s7ddgy --wait 10s',
    ],
  },
  async handler(ctx, {ids}) {
    for (const id of ids) checkElementId(id, 'ids')
    const model = buildScreenModel(await ctx.driver.captureScreen())
    const rows = ids.map((id) => {
      const e = model.byId.get(id)
      return e ? {id, found: true, text: e.text, desc: e.desc} : {id, found: false, text: null, desc: null}
    })
    // What each id names is now shown to the caller: remembered as find's are, so a click on it is checked against
    // what details said ("Follow" here never taps the "Following" it became).
    const shown = ids.map((id) => model.byId.get(id)).filter((e): e is ScreenElement => e !== undefined)
    if (shown.length > 0) await rememberElements(ctx, shown)
    const text = [
      'id\ttext\tdesc',
      ...rows.map((r) =>
        r.found ? `${r.id}\t${cell(r.text ?? '')}\t${cell(r.desc ?? '')}` : `${r.id}\tnot_found\tnot_found`
      ),
    ].join('\n')
    // The spec's not_found rows over MCP; on the command line an id that is not there also sets the exit status.
    const missing = rows.some((r) => !r.found)
    return {text, data: {elements: rows}, ...(missing ? {cli: {exitCode: exitCodeFor('ELEMENT_NOT_FOUND')}} : {})}
  },
})
