import path from 'node:path'

import {
  blackScreenshotWarning,
  defineTool,
  displayOffWarning,
  elementWaitInput,
  foundBy,
  InvalidInputError,
  isPng,
  jpegSize,
  pngLooksBlack,
  pngSize,
  resolveTarget,
  selectorData,
  selectorInput,
  visibleRect,
  z,
  type ToolContext,
} from '@arc-cli/core'

import {writeFilesAtomically} from '../write-files.js'

type Format = 'png' | 'jpeg'

const EXTENSIONS: Record<string, Format> = {'.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg'}

/** The format from `--output`'s extension and `--format`; a contradiction or an unknown extension is refused. */
export function screenshotFormat(output: string | undefined, format: Format | undefined): Format {
  if (output === undefined || output === '-') return format ?? 'png'
  const ext = path.extname(output).toLowerCase()
  const fromName = EXTENSIONS[ext]
  if (!fromName) {
    throw new InvalidInputError(
      `--output: cannot tell the image format from ${JSON.stringify(ext || path.basename(output))}: name the file .png, .jpg or .jpeg`,
      {
        details: {input: 'output', path: output},
      }
    )
  }
  if (format && format !== fromName) {
    throw new InvalidInputError(
      `--format ${format} contradicts --output ${output} (a ${fromName === 'png' ? 'PNG' : 'JPEG'} name)`,
      {
        details: {input: 'format'},
        actions: ['Drop --format (the extension decides), or change the file name.'],
      }
    )
  }
  return fromName
}

/** The element a screenshot is cut to: `--element ID`, or a selector in its place (both: INVALID_INPUT). */
export const elementInput = z.object({
  element: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Crop to the visible part of this element: an id from screen-state or find (a stale id fails with STALE_ELEMENT), or a selector in its place (--text, --desc, --res-id, --class-name)'
    ),
  ...selectorInput.shape,
  ...elementWaitInput.shape,
})
type ElementInput = Partial<z.output<typeof elementInput>>

/** Whether the input names an element to cut to (an id, a selector, or --exact-match, which resolveTarget refuses alone). */
export function namesElement(input: ElementInput): boolean {
  return (
    input.element !== undefined ||
    input.exact_match === true ||
    [input.text, input.desc, input.res_id, input.class_name].some((v) => v !== undefined)
  )
}

/** `--wait` waits for the element to cut to: given with none, it is refused rather than ignored. */
export function checkWaitNamesElement(input: ElementInput & {wait?: unknown}): void {
  if (input.wait === undefined || input.wait === 0 || namesElement(input)) return
  throw new InvalidInputError(
    '--wait waits for the element to cut to, and none was named: add --element ID or a selector (--text, --desc, --res-id, --class-name), or drop --wait',
    {details: {input: 'wait'}}
  )
}

/**
 * The element named by `--element ID` or a selector, resolved as every element action resolves it (core's
 * resolveTarget: a fresh read; a stale id fails with STALE_ELEMENT, a selector must match exactly one element, never
 * a guess), with its visible part on that same read.
 */
export async function elementToCrop(ctx: ToolContext, input: ElementInput, purpose: string) {
  const {element: element_id, text, desc, res_id, class_name, exact_match} = input
  const target = await resolveTarget(
    ctx,
    {element_id, text, desc, res_id, class_name, exact_match: exact_match ?? false},
    {idInput: '--element'}
  )
  const {model, element} = target
  const rect = visibleRect(element, model)
  if (!rect) {
    throw new InvalidInputError(`element ${element.id} is off screen: no part of it is visible to ${purpose}`, {
      actions: [`Bring it into view first: arc scroll-to ${element.id}`],
      details: {input: '--element', element_id: element.id, bounds: element.bounds},
    })
  }
  return {target, rect}
}

/**
 * `--element` (or a selector): the element resolved on a fresh read, then the screenshot cut to its visible part
 * as that read places it.
 */
async function elementShot(ctx: ToolContext, input: ElementInput, format: Format, quality: number) {
  const {target, rect} = await elementToCrop(ctx, input, 'crop to')
  const {model, element} = target
  if (element.node.visibleToUser === false) {
    ctx.warn(
      `element ${element.id} is marked not visible to the user: the image shows what covers it (the keyboard, another window)`
    )
  }
  const png = await ctx.driver.screenshot()
  // The whole capture is judged, not the crop: a black button is no black capture.
  const black = await warnIfBlack(ctx, png)
  // Loaded only here: other commands must not load the canvas library.
  const {cropScreenshot} = await import('../crop-element.js')
  const crop = await cropScreenshot(png, model, rect, {
    format,
    quality,
    source: ctx.driver.serial,
    elementId: element.id,
  })
  const [left, top, right, bottom] = rect
  return {
    ...crop,
    black,
    by: foundBy(target),
    element: {element_id: element.id, bounds: {left, top, right, bottom}, ...selectorData(target)},
  }
}

/**
 * A capture that came out entirely black says why, as every screen read does: the display is off (one `dumpsys
 * power`, asked only then), else a FLAG_SECURE window. A warning (stderr; `warnings` in --json and MCP) and `black`
 * in the result: the image is still what the device gave.
 */
async function warnIfBlack(ctx: ToolContext, image: Buffer): Promise<boolean> {
  let looksBlack: boolean | undefined
  if (isPng(image)) looksBlack = pngLooksBlack(image)
  else {
    // A JPEG the device encoded (the helper, asked for one): decoded to judge it, with the canvas library.
    const {jpegLooksBlack} = await import('../encode-jpeg.js')
    looksBlack = await jpegLooksBlack(image)
  }
  if (looksBlack !== true) return false
  const awake = await ctx.driver.displayAwake()
  ctx.warn(awake === false ? displayOffWarning(ctx.driver.serial) : blackScreenshotWarning(ctx.driver.serial))
  return true
}

/** Image pixels per screen pixel, as annotate's map rounds them (6 decimals): x_image = x_screen * scale.x. */
const round = (n: number) => Math.round(n * 1e6) / 1e6

/**
 * The screen size and the image's scale against it, for a scaled screenshot: an agent reads points off the image
 * and must tap screen pixels. Undefined, with a warning, when the two shapes differ by more than 5% (the screen
 * turned between the two reads): no scale would map that image onto the screen.
 */
function screenScale(
  ctx: ToolContext,
  image: {width: number; height: number},
  screen: {width: number; height: number}
): {screen: {width: number; height: number}; scale: {x: number; y: number}} | undefined {
  const x = image.width / screen.width
  const y = image.height / screen.height
  if (!(x > 0 && y > 0) || Math.abs(x / y - 1) > 0.05) {
    ctx.warn(
      `the ${image.width}x${image.height} screenshot does not have the shape of the ${screen.width}x${screen.height} screen (it turned meanwhile?): read the screen again before tapping what it shows`
    )
    return undefined
  }
  return {screen, scale: {x: round(x), y: round(y)}}
}

/** How a point seen in the image becomes a point for the touch tools. */
function scaleLine({screen, scale}: NonNullable<ReturnType<typeof screenScale>>): string {
  return `screen ${screen.width}x${screen.height}: tap, swipe and long_press take screen pixels: x = image x / ${scale.x}, y = image y / ${scale.y}`
}

export const screenshot = defineTool({
  name: 'screenshot',
  title: 'Save a screenshot',
  description:
    'Takes a plain screenshot (no marks), its longest side at most max_size pixels. Over MCP max_size is 1024 unless given, on the command line full resolution; 0 is full resolution. Image pixels may not be screen pixels: the result gives the screen size and scale (tap x = image x / scale.x). The CLI writes it to --output: PNG or JPEG from the file extension (.png, .jpg, .jpeg), or - for stdout (PNG unless --format jpeg); MCP returns the image inline. For labelled boxes use annotate.',
  kind: 'read',
  needs: {screen: 'read', info: 'read'},
  holdsDevice: true,
  waitsForElement: true,
  group: 'screen',
  input: z.object({
    format: z.enum(['png', 'jpeg']).optional().describe('png or jpeg; default: from the --output extension, else png'),
    quality: z
      .number()
      .int()
      .min(1, 'must be 1 to 100')
      .max(100, 'must be 1 to 100')
      .default(90)
      .describe('JPEG quality 1-100'),
    max_size: z
      .number()
      .int()
      .min(0, 'must be 0 (full size) or 64 to 8192')
      .max(8192, 'must be 0 (full size) or 64 to 8192')
      .refine((n) => n === 0 || n >= 64, 'must be 0 (full size) or 64 to 8192')
      .default(0)
      .describe('Longest side in pixels (0: full size)'),
  }),
  // An agent gets about mobile-mcp's size (461x1024 from 1080x2400): an image costs context tokens by its pixels.
  mcpDefaults: {max_size: 1024},
  cli: {
    id: 'screenshot',
    input: z.object({
      output: z
        .string({
          error: (issue) =>
            issue.input === undefined
              ? 'required: the image file to write (-o shot.png, shot.jpg) or - for stdout'
              : undefined,
        })
        .min(1)
        .describe('Image file to write (.png, .jpg or .jpeg), or - for stdout'),
      ...elementInput.shape,
    }),
    char: {output: 'o'},
    namesElement,
    examples: [
      '<%= config.bin %> <%= command.id %> -o screen.png',
      '<%= config.bin %> <%= command.id %> -o - --format jpeg > screen.jpg',
      '<%= config.bin %> <%= command.id %> -o small.jpg --max-size 1024',
      '<%= config.bin %> <%= command.id %> --element node_s7ddgy -o button.png',
      '<%= config.bin %> <%= command.id %> --text ADD --exact-match -o button.png --wait 30s',
    ],
  },
  async handler(ctx, input) {
    const output = input.output
    if (output === '-' && ctx.json) {
      throw new InvalidInputError('--json cannot be used with -o - (both write to stdout)', {
        details: {input: 'output'},
      })
    }
    checkWaitNamesElement(input)
    const format = screenshotFormat(output, input.format)
    let data: Buffer
    let size: {width: number; height: number}
    let element: Awaited<ReturnType<typeof elementShot>>['element'] | undefined
    let black: boolean
    let screen: {width: number; height: number} | undefined
    let by = ''
    if (namesElement(input)) {
      const shot = await elementShot(ctx, input, format, input.quality)
      by = shot.by
      data = shot.data
      size = {width: shot.width, height: shot.height}
      element = shot.element
      black = shot.black
    } else {
      // A smaller image or a JPEG is asked of the device where one is wanted: a phone's helper scales and encodes
      // there, so the small image crosses USB. A driver that cannot returns the full PNG, fitted below as before; a
      // PNG asked for comes back a PNG.
      const want =
        format === 'jpeg' || input.max_size > 0 ? {maxSize: input.max_size, format, quality: input.quality} : undefined
      // The image is in its own pixels, not the screen's that tap and swipe take: a scaled one, and a full-size one
      // under `wm size`, whose screencap keeps the panel's resolution while `input` takes the logical display's
      // (LmeSzinc/AzurLaneAutoScript#1316). The screen size (current orientation, as the touch tools' on-screen
      // check reads it) is read beside it to say the scale.
      const [image, screenSize] = await Promise.all([ctx.driver.screenshot(want), ctx.driver.screenSize()])
      size = (isPng(image) ? pngSize(image) : jpegSize(image)) ?? {width: 0, height: 0}
      screen = screenSize && {width: screenSize.width, height: screenSize.height}
      black = await warnIfBlack(ctx, image)
      data = image
      const fits = !(input.max_size > 0 && Math.max(size.width, size.height) > input.max_size)
      if (format === 'jpeg' && isPng(image) && fits) {
        // Loaded only here: other commands must not load the canvas library.
        const {pngToJpeg} = await import('../encode-jpeg.js')
        data = await pngToJpeg(image, input.quality, ctx.driver.serial)
      }
    }
    if (input.max_size > 0 && Math.max(size.width, size.height) > input.max_size) {
      // Scaled from the image taken (the PNG, or the element's crop), then encoded once in the format asked.
      const {fitImage} = await import('../fit-image.js')
      const fitted = await fitImage(data, {
        maxSize: input.max_size,
        format,
        quality: input.quality,
        source: ctx.driver.serial,
      })
      data = fitted.data
      size = {width: fitted.width, height: fitted.height}
    }
    const mapping = screen && screenScale(ctx, size, screen)
    const facts = {
      format,
      width: size.width,
      height: size.height,
      bytes: data.length,
      ...mapping,
      ...element,
      ...(black ? {black} : {}),
    }
    const summary = `${size.width}x${size.height} ${format}, ${data.length} bytes`
    // Said in the text only where image pixels are not screen pixels.
    const where = mapping && (mapping.scale.x !== 1 || mapping.scale.y !== 1) ? `\n${scaleLine(mapping)}` : ''
    const what = element ? `Screenshot of ${element.element_id}${by}` : 'Screenshot'
    if (output === undefined) {
      return {
        text: `screenshot: ${summary}${where}`,
        data: facts,
        image: {data, mimeType: format === 'png' ? 'image/png' : 'image/jpeg'},
      }
    }
    if (output === '-')
      return {text: `${what} written to stdout (${summary})${where}`, data: {path: '-', ...facts}, cli: {stdout: data}}
    const target = path.resolve(ctx.cwd, output)
    await writeFilesAtomically([{path: target, data, input: '--output'}])
    return {text: `${what} saved: ${target} (${summary})${where}`, data: {path: target, ...facts}}
  },
})
