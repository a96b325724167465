import {buildScreenModel, defineTool, importNativeModule, rememberScreen, z} from '@arc-cli/core'

import {DEFAULT_MAX_ROWS} from '../row-budget.js'
import {screenStateView} from '../screen-state-views.js'

export const getScreenState = defineTool({
  name: 'get_screen_state',
  title: 'Show the screen as compact TSV with element ids',
  description: [
    'Returns the current screen: note lines, the screen line, then one section per window with one TSV row per',
    'meaningful element (id, class, text, desc, res_id, bounds, flags). Structural-only nodes are omitted; text',
    'and desc are cut at 100 characters. Element ids (node_<hash>) stay the same while the screen stays the same,',
    'so they can be passed to element tools. Flags: on/off (on screen or not) first, then clk, lclk, foc, scr, edt, ena.',
  ].join(' '),
  kind: 'read',
  needs: {screen: 'read'},
  group: 'screen',
  input: z.object({
    include_screenshot: z
      .boolean()
      .default(false)
      .describe(
        'Also return a screenshot annotated with a red box and id label on every on-screen element (JPEG, 700 px long side; style from annotate.style)'
      ),
    detail: z
      .enum(['full', 'compact'])
      .default('full')
      .describe(
        'full: the spec TSV. compact: fewest tokens; every on-screen control and text with its id, centre and non-default flags; layout-only rows dropped, off-screen rows summarised'
      ),
    max_rows: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_MAX_ROWS)
      .describe('Most element rows (0: all); a note counts the rest'),
    changes: z
      .enum(['off', 'ack', 'diff'])
      .default('off')
      .describe(
        'Compare with your last read of this device (each MCP session and ARC_CALLER has its own). off: the whole screen. ack: one line `unchanged since last read (screen <fingerprint>)` when nothing changed, else the whole screen. diff: that line when nothing changed, else only what changed as compact rows, `+ row` added, `~ row` changed, `- id` removed (the whole screen when over half changed); data marks each element stable, new or moved'
      ),
  }),
  cli: {
    id: 'screen-state',
    input: z.object({
      screenshot: z
        .string()
        .min(1)
        // `-` is stdout to every other output flag; here stdout holds the screen (a file named - is `./-`).
        .refine((p) => p !== '-', 'cannot be - (stdout holds the screen): name a file, or ./- for one named -')
        .optional()
        .describe('Write the annotated screenshot (as arc annotate draws it) to this file, next to the TSV on stdout'),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> --device demo',
      '<%= config.bin %> <%= command.id %> --device ./snapshots/login',
      '<%= config.bin %> <%= command.id %> --json | jq \'.windows[].elements[] | select(.flags | index("clk"))\'',
    ],
  },
  async handler(ctx, input) {
    const file = input.screenshot
    const wantsImage = input.include_screenshot || file !== undefined
    // The spec's include_screenshot: the image `arc annotate` draws, from the same function. The annotate plugin
    // (and the canvas library) is loaded only then, so plain screen-state stays fast; before the read, so a name
    // arc cannot write is refused before the device is read and the read remembered.
    const annotate = wantsImage
      ? await importNativeModule(
          () => import('@arc-cli/plugin-annotate'),
          'the annotated screenshot',
          '@napi-rs/canvas'
        )
      : undefined
    // The CLI's --screenshot names the format by its extension (MCP has no file: JPEG inline).
    const format = annotate?.formatForOutput(file, undefined, '--screenshot')
    ctx.progress(`reading the screen of ${ctx.driver.serial}`)
    const capture = await ctx.driver.captureScreen()
    const model = buildScreenModel(capture)
    await rememberScreen(ctx, model)
    const {text, data} = await screenStateView(
      ctx.callerState ?? ctx.state,
      model,
      input.detail,
      input.changes,
      input.max_rows
    )
    if (!annotate) return {text, data}
    const image = await annotate.annotateDevice(ctx, format ? {format} : {}, model)
    return {
      text,
      data,
      image: {data: image.data, mimeType: image.mimeType},
      // The CLI writes the image to --screenshot (or <device>_<date>_<time>.jpg) and says so on stderr, since
      // stdout holds the screen; --json names it as `screenshot`. MCP returns the image inline.
      cli: {
        save: async () => {
          const saved = await annotate.saveImage(ctx, image, file, '--screenshot')
          const note = `Annotated screenshot saved: ${saved} (${image.width}x${image.height} ${image.format}, ${image.data.length} bytes)`
          return {data: {...data, screenshot: saved}, notes: [note]}
        },
      },
    }
  },
})
