import {buildScreenModel, defineTool, type ScreenModel, type ToolContext, type ToolImage} from '@arc-cli/core'
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
  input: z.object({
    include_screenshot: z
      .boolean()
      .default(false)
      .describe(
        'Also return a screenshot annotated with a red box and id label on every on-screen element (JPEG, 700 px long side; style from annotate.style)',
      ),
  }),
  cliInput: z.object({
    screenshot: z
      .string()
      .min(1)
      .optional()
      .describe('Write the annotated screenshot (as arc annotate draws it) to this file, next to the TSV on stdout'),
  }),
  cli: {
    examples: [
      '<%= config.bin %> <%= command.id %> --device demo',
      '<%= config.bin %> <%= command.id %> --device ./snapshots/login',
      '<%= config.bin %> <%= command.id %> --json | jq \'.windows[].elements[] | select(.flags | index("clk"))\'',
    ],
  },
  async handler(ctx, input) {
    ctx.progress(`reading the screen of ${ctx.driver.serial}`)
    const capture = await ctx.driver.captureScreen()
    const model = buildScreenModel(capture)
    const text = formatScreenState(model)
    const data = screenStateJson(model)
    const file = input.screenshot
    const wanted = ctx.surface === 'mcp' ? input.include_screenshot : input.include_screenshot || file !== undefined
    if (!wanted) return {text, data}
    const shot = await annotatedScreenshot(ctx, model, file)
    return {text, data: shot.path ? {...data, screenshot: shot.path} : data, ...(shot.image ? {image: shot.image} : {})}
  },
})

/**
 * The spec's include_screenshot: the same annotated image `arc annotate` draws, from the same function. The
 * annotate plugin (and with it the canvas library) is loaded only here, so plain screen-state stays fast.
 * MCP gets the image inline; the CLI writes it to --screenshot (or arc-<device>-<timestamp>.jpg).
 */
async function annotatedScreenshot(
  ctx: ToolContext,
  model: ScreenModel,
  file: string | undefined,
): Promise<{image?: ToolImage; path?: string}> {
  const annotate = await import('@arc-cli/plugin-annotate')
  const format = annotate.formatForOutput(ctx.surface === 'mcp' ? undefined : file, undefined, '--screenshot')
  const image = await annotate.annotateDevice(ctx, format ? {format} : {}, model)
  if (ctx.surface === 'mcp') return {image: {data: image.data, mimeType: image.mimeType}}
  return {path: await annotate.saveImage(ctx, image, file, '--screenshot')}
}
