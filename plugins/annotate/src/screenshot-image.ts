/**
 * A device screenshot as pixels the canvas can draw, checked against the dump it goes with: shared by annotate
 * (marks drawn on it) and `arc screenshot --element` (cut to one element).
 */
import {loadImage, type Image} from '@napi-rs/canvas'

import {checkPng, checkPngPixels, InvalidInputError, isPng, pngSize, pngSizeProblem} from '@arc-cli/core'

function unreadable(source: string, detail: string): InvalidInputError {
  return new InvalidInputError(`the screenshot from ${source} is not a readable PNG${detail}`, {
    details: {input: 'screenshot', source},
    actions: ['Take the screenshot again, or replace screen.png in the snapshot folder.'],
  })
}

/**
 * Decodes a screenshot once, with the canvas. A PNG's structure (every chunk whole, CRCs) and declared size are
 * checked first, before the decoder allocates anything; its pixel data is not inflated a second time here. Skia
 * decodes pixel data that ends early or is garbage without complaint, leaving the rows it could not read blank, so
 * the caller looks at what was decoded (`blankFrame`) and asks `confirmPixels` only when it looks that way.
 * `verify: true` inflates and checks the pixel data first (a caller that cannot look at the whole frame).
 */
/** The chunks that make a PNG's pixels (PNG spec §4.3: the critical ones, and tRNS for transparency). */
const PIXEL_CHUNKS = new Set(['IHDR', 'PLTE', 'IDAT', 'tRNS', 'IEND'])

/**
 * Ancillary chunks the decoder reads nothing from that changes a pixel, each of a size fixed by the PNG spec, so
 * they cannot slow it: sRGB (1 byte: the colour space the decoder assumes anyway) and sBIT (1 to 4 bytes: the
 * significant bits, which it does not apply). A phone's screencap carries both; with nothing else to drop, the
 * screenshot reaches the decoder as it came, not as a 2 MB copy (which only the garbage collector frees).
 */
const HARMLESS_CHUNKS = new Map<string, (length: number) => boolean>([
  ['sRGB', (length) => length === 1],
  ['sBIT', (length) => length >= 1 && length <= 4],
])

/**
 * The PNG with only the chunks that make its pixels, each copied whole (CRC included). Text and other ancillary
 * chunks are for people, not pixels: a 60 MB tEXt and a zTXt inflating to 400 MB made the decoder run past 60 s
 * (180 s in the issue). Called on a PNG checkPng accepted, so every chunk is whole. The PNG itself, uncopied, when
 * it holds no other chunks than those and HARMLESS_CHUNKS.
 */
export function pixelChunksOnly(png: Buffer): Buffer {
  const kept: Buffer[] = [png.subarray(0, 8)]
  let dropped = false
  for (let offset = 8; offset + 12 <= png.length;) {
    const length = png.readUInt32BE(offset)
    const end = offset + 12 + length
    const type = png.toString('latin1', offset + 4, offset + 8)
    if (PIXEL_CHUNKS.has(type)) kept.push(png.subarray(offset, end))
    else if (!HARMLESS_CHUNKS.get(type)?.(length)) dropped = true
    if (type === 'IEND') break
    offset = end
  }
  return dropped ? Buffer.concat(kept) : png
}

export async function decodeScreenshot(
  screenshot: Buffer,
  source: string,
  options: {verify?: boolean} = {}
): Promise<Image> {
  if (isPng(screenshot)) {
    const structure = checkPng(screenshot)
    const problem =
      'problem' in structure
        ? structure.problem
        : options.verify
          ? checkPngPixels(screenshot)?.problem
          : pngSizeProblem(pngSize(screenshot) as {width: number; height: number})
    if (problem) throw unreadable(source, `: ${problem}`)
  }
  try {
    const image = await loadImage(isPng(screenshot) ? pixelChunksOnly(screenshot) : screenshot)
    if (image.width > 0 && image.height > 0) return image
  } catch {
    // reported below with a message that names the source
  }
  // Say why where the pixel data tells (a PNG inflated only now, on this failure path).
  const problem = isPng(screenshot) ? checkPngPixels(screenshot)?.problem : undefined
  throw unreadable(source, problem ? `: ${problem}` : ' (corrupt or truncated)')
}

/** What an Image's src is set to to drop its pixels (an empty src clears an image, as in a browser). */
const EMPTY = Buffer.alloc(0)

/**
 * Lets a decoded image's pixels go, once it has been drawn: a canvas's recording holds its own reference to them
 * for as long as it needs them. Left to the Image, the memory (10 MB for a 1080x2400 screenshot) stays counted
 * towards V8's external memory until a garbage collection finalises the Image, and that count is what makes V8
 * collect: a warm loop of annotations ran a full collection every two or three calls (5-25 ms each here), against
 * about one in ten with the pixels let go.
 */
export function releasePixels(image: Image): void {
  image.src = EMPTY
}

/**
 * Refuses a PNG whose pixel data is damaged or short (checkPngPixels: inflated, sized, filter bytes), for a frame
 * that decoded blank or black: that is how the decoder shows both a damaged PNG and a real black screen.
 */
export function confirmPixels(screenshot: Buffer, source: string): void {
  const problem = isPng(screenshot) ? checkPngPixels(screenshot)?.problem : undefined
  if (problem) throw unreadable(source, `: ${problem}`)
}

/** A pixel whose channels are all at most this counts as black (JPEG noise on a secure window's black). */
const BLACK_LEVEL = 8

/**
 * What a decoded frame, drawn onto `ctx`, shows of its source: `black` when every sampled pixel is black (every 4th
 * row, stopping at the first pixel that is not: an ordinary screenshot answers on the first row), `blank` when the
 * bottom rows are not opaque. A screenshot is opaque, and rows the decoder could not read (pixel data that ends
 * early, on any interlace pass: the last pass holds every odd row) are left transparent, so a blank bottom or a
 * black frame is when the pixel data must be checked (confirmPixels). Reads one row at a time: no full-frame copy.
 */
export function frameLooks(
  ctx: {getImageData(x: number, y: number, w: number, h: number): {data: Uint8ClampedArray}},
  width: number,
  height: number
): {black: boolean; blank: boolean} {
  let blank = false
  for (let y = Math.max(0, height - 2); y < height && !blank; y++) {
    const {data} = ctx.getImageData(0, y, width, 1)
    for (let i = 3; i < data.length; i += 4) {
      if ((data[i] as number) < 255) {
        blank = true
        break
      }
    }
  }
  for (let y = 0; y < height; y += 4) {
    const {data} = ctx.getImageData(0, y, width, 1)
    for (let i = 0; i < data.length; i += 4) {
      if (
        (data[i] as number) > BLACK_LEVEL ||
        (data[i + 1] as number) > BLACK_LEVEL ||
        (data[i + 2] as number) > BLACK_LEVEL
      )
        return {black: false, blank}
    }
  }
  return {black: true, blank}
}

/** Largest difference between the screenshot's and the screen's aspect ratios (scaling is fine, distortion is not). */
const MAX_ASPECT_DIFFERENCE = 0.05

/** Whether an image of this size can show the screen: the same shape in either orientation (checkAgainstScreen). */
export function fitsScreen(image: {width: number; height: number}, screen: {width: number; height: number}): boolean {
  if (screen.width <= 0 || screen.height <= 0) return true
  const ratio = (w: number, h: number) => Math.max(w, h) / Math.min(w, h)
  return Math.abs(ratio(image.width, image.height) / ratio(screen.width, screen.height) - 1) <= MAX_ASPECT_DIFFERENCE
}

/**
 * The screenshot must show the dump's screen: the same shape (either orientation, any scale). Otherwise every
 * mark would land in the wrong place, so it is refused with both sizes named.
 */
export function checkAgainstScreen(
  image: {width: number; height: number},
  screen: {width: number; height: number},
  source: string
): void {
  if (fitsScreen(image, screen)) return
  throw new InvalidInputError(
    `the screenshot from ${source} is ${image.width}x${image.height}, which is not the shape of the ${screen.width}x${screen.height} screen in the dump: the two are not of the same screen`,
    {
      details: {input: 'screenshot', source, image: [image.width, image.height], screen: [screen.width, screen.height]},
      actions: [
        'Take the screenshot and the dump again together (`arc snapshot save`), or fix meta.json width and height.',
      ],
    }
  )
}
