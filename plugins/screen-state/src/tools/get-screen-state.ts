import {buildScreenModel, defineTool} from '@arc-cli/core'
import {z} from 'zod'

import {formatScreenState, screenStateJson} from '../format-tsv.js'

export const getScreenState = defineTool({
  name: 'get_screen_state',
  cliId: 'screen-state',
  title: 'Show the screen as compact TSV with element ids',
  description: [
    'Returns the current screen: note lines, the screen line, then one section per window with one TSV row per',
    'meaningful element (id, class, text, desc, res_id, bounds, flags). Structural-only nodes are omitted; text',
    'and desc are cut at 100 characters. Element ids (node_<hash>) stay the same while the screen stays the same,',
    'so they can be passed to element tools. Flags: on/off (on screen or not) first, then clk, lclk, foc, scr, edt, ena.',
  ].join(' '),
  kind: 'read',
  input: z.object({}),
  cli: {
    examples: [
      '<%= config.bin %> <%= command.id %> --device demo',
      '<%= config.bin %> <%= command.id %> --device ./snapshots/login',
      '<%= config.bin %> <%= command.id %> --json | jq \'.windows[].elements[] | select(.flags | index("clk"))\'',
    ],
  },
  async handler({driver}) {
    const capture = await driver.captureScreen()
    const model = buildScreenModel(capture)
    return {text: formatScreenState(model), data: screenStateJson(model)}
  },
})
