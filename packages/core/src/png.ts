import {crc32, inflateSync} from 'node:zlib'

/**
 * PNG structure checks shared by every reader of screenshots: the ADB driver (screencap output), annotate
 * (before decoding: Skia decodes a truncated PNG without complaint, leaving the missing rows blank) and
 * snapshots. Nothing here decodes pixels.
 */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export function isPng(data: Buffer): boolean {
  return data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)
}

/** Width and height from the IHDR chunk, without decoding; undefined when it is not a PNG. */
export function pngSize(png: Buffer): {width: number; height: number} | undefined {
  if (png.length < 24 || !isPng(png) || png.toString('latin1', 12, 16) !== 'IHDR') return undefined
  return {width: png.readUInt32BE(16), height: png.readUInt32BE(20)}
}

/**
 * Where an intact PNG ends (just after IEND), or why the buffer is not one: the signature, IHDR first, every
 * chunk whole with a matching CRC, and an IEND. Problems name the chunk and its byte offset.
 */
export function checkPng(png: Buffer): {end: number} | {problem: string} {
  if (!isPng(png)) return {problem: 'no PNG signature'}
  let offset = 8
  let first = true
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    if (first && type !== 'IHDR') return {problem: `the first chunk is ${type}, not IHDR`}
    first = false
    const end = offset + 12 + length
    if (end > png.length) return {problem: `truncated: chunk ${type} at byte ${offset} runs past the end of the data`}
    if (crc32(png.subarray(offset + 4, end - 4)) !== png.readUInt32BE(end - 4)) {
      return {problem: `chunk ${type} at byte ${offset} is damaged (CRC mismatch)`}
    }
    if (type === 'IEND') return {end}
    offset = end
  }
  return {problem: 'truncated: no IEND chunk'}
}

/**
 * Limits on a screenshot before anything decodes it: the largest phone and tablet screens are under 4000 pixels a
 * side and 10 million pixels; the limits leave room for any real screen while keeping a decode under ~100 MB.
 */
export const PNG_LIMITS = {maxSide: 16384, maxPixels: 25_000_000} as const

/** Why a PNG's declared size is not a screen's (0 or over PNG_LIMITS), or undefined when it is fine. */
export function pngSizeProblem(size: {width: number; height: number}): string | undefined {
  const {width, height} = size
  if (width === 0 || height === 0) return `its header says ${width}x${height}, an image with no pixels`
  if (width > PNG_LIMITS.maxSide || height > PNG_LIMITS.maxSide || width * height > PNG_LIMITS.maxPixels) {
    return `its header says ${width}x${height}, over arc's limit for a screenshot (${PNG_LIMITS.maxSide} pixels a side, ${PNG_LIMITS.maxPixels} pixels in all)`
  }
  return undefined
}

const CHANNELS: Record<number, number> = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const

/** Bytes of filtered scanlines the header promises (each row: a filter byte, then its pixels). */
function expectedPixelBytes(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? h * (1 + Math.ceil((w * bitsPerPixel) / 8)) : 0)
  if (!interlaced) return rows(width, height)
  return ADAM7.reduce(
    (sum, [xs, ys, dx, dy]) => sum + rows(Math.ceil((width - xs) / dx), Math.ceil((height - ys) / dy)),
    0
  )
}

/**
 * Checks a PNG all the way to its pixel data, without decoding it into an image: the structure (checkPng), the
 * declared size (pngSizeProblem), and that the compressed data inflates to exactly the bytes the header promises
 * with a valid filter byte on every row. A decoder handed garbage pixel data returns a black image without
 * complaint; this tells that apart from a screen that really is black. Inflating is bounded by the size limit.
 */
export function checkPngPixels(png: Buffer): {problem: string} | undefined {
  const structure = checkPng(png)
  if ('problem' in structure) return structure
  const size = pngSize(png) as {width: number; height: number}
  const sizeProblem = pngSizeProblem(size)
  if (sizeProblem) return {problem: sizeProblem}
  const bitDepth = png[24] as number
  const colorType = png[25] as number
  const interlaced = png[28] === 1
  const channels = CHANNELS[colorType]
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(bitDepth)) {
    return {problem: `its header has an invalid colour type ${colorType} or bit depth ${bitDepth}`}
  }
  const idat: Buffer[] = []
  for (let offset = 8; offset + 12 <= structure.end;) {
    const length = png.readUInt32BE(offset)
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT')
      idat.push(png.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  if (idat.length === 0) return {problem: 'it has no pixel data (no IDAT chunk)'}
  const expected = expectedPixelBytes(size.width, size.height, channels * bitDepth, interlaced)
  let pixels: Buffer
  try {
    pixels = inflateSync(Buffer.concat(idat), {maxOutputLength: expected + 1})
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      return {problem: `its pixel data is larger than its ${size.width}x${size.height} header says`}
    }
    return {problem: `its pixel data is damaged (${(error as Error).message})`}
  }
  if (pixels.length !== expected) {
    return {
      problem: `its pixel data is ${pixels.length} bytes, its ${size.width}x${size.height} header needs ${expected}`,
    }
  }
  if (!interlaced) {
    const stride = expected / size.height
    for (let row = 0; row < size.height; row++) {
      const filter = pixels[row * stride] as number
      if (filter > 4) return {problem: `its pixel data is damaged (row ${row} has filter type ${filter}; 0-4 exist)`}
    }
  }
  return undefined
}
