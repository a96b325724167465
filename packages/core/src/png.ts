/**
 * node:zlib, loaded on the first PNG checked or decoded: the core's bundle runs this module at every start-up, and
 * loading zlib there (some 2 ms of CPU compiling it) was paid by `arc --version` and every screen read that checks
 * no image.
 */
let loadedZlib: typeof import('node:zlib') | undefined
const zlib = (): typeof import('node:zlib') => (loadedZlib ??= process.getBuiltinModule('node:zlib'))

/**
 * PNG structure checks shared by every reader of screenshots: the ADB driver (screencap output), annotate
 * (before decoding: Skia decodes a truncated PNG without complaint, leaving the missing rows blank) and
 * snapshots. Nothing here decodes an image; pngLooksBlack reads the pixel rows to tell a black capture.
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
    if (zlib().crc32(png.subarray(offset + 4, end - 4)) !== png.readUInt32BE(end - 4)) {
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
    pixels = zlib().inflateSync(Buffer.concat(idat), {maxOutputLength: expected + 1})
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

/** A channel at most this counts as black (noise from scaling or JPEG on a secure window's black). */
export const BLACK_LEVEL = 8
/** Compressed pixel data inflated first; each further step takes four times as much (most screens end in the first). */
const FIRST_INFLATE_BYTES = 64 * 1024

/**
 * Whether every pixel of a screenshot is black: what Android captures of a FLAG_SECURE window or a display that is
 * off. Reads the pixel data row by row (the filters undone, PNG spec §9), inflating a growing prefix of it so a
 * screen with anything on it stops after its first rows; alpha is not looked at. Undefined where it cannot tell
 * without a full decoder: a PNG that is damaged, interlaced, paletted or of 16 bits a channel (screencap writes 8-bit
 * RGBA, non-interlaced).
 */
export function pngLooksBlack(png: Buffer): boolean | undefined {
  const structure = checkPng(png)
  if ('problem' in structure) return undefined
  const size = pngSize(png) as {width: number; height: number}
  if (pngSizeProblem(size)) return undefined
  const bitDepth = png[24] as number
  const colorType = png[25] as number
  const channels = CHANNELS[colorType]
  if (bitDepth !== 8 || colorType === 3 || channels === undefined || png[28] !== 0) return undefined
  const colours = colorType === 0 || colorType === 4 ? 1 : 3
  const idat: Buffer[] = []
  for (let offset = 8; offset + 12 <= structure.end;) {
    const length = png.readUInt32BE(offset)
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT')
      idat.push(png.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  const compressed = Buffer.concat(idat)
  const stride = size.width * channels
  const expected = size.height * (stride + 1)
  let previous = Buffer.alloc(stride)
  let current = Buffer.alloc(stride)
  let row = 0
  for (let take = FIRST_INFLATE_BYTES; ; take *= 4) {
    const whole = take >= compressed.length
    let pixels: Buffer
    try {
      pixels = zlib().inflateSync(compressed.subarray(0, take), {
        finishFlush: zlib().constants.Z_SYNC_FLUSH,
        maxOutputLength: expected + 1,
      })
    } catch {
      return undefined
    }
    for (; (row + 1) * (stride + 1) <= Math.min(pixels.length, expected); row++) {
      const at = row * (stride + 1)
      if (!unfilter(pixels[at] as number, pixels.subarray(at + 1, at + 1 + stride), previous, current, channels))
        return undefined
      for (let x = 0; x < stride; x += channels) {
        for (let c = 0; c < colours; c++) if ((current[x + c] as number) > BLACK_LEVEL) return false
      }
      ;[previous, current] = [current, previous]
    }
    if (row === size.height) return true
    if (whole) return undefined
  }
}

/** Undoes one row's filter (PNG spec §9.2) into `out`; false for a filter type that does not exist. */
function unfilter(type: number, line: Buffer, up: Buffer, out: Buffer, bpp: number): boolean {
  const n = line.length
  switch (type) {
    case 0:
      line.copy(out)
      return true
    case 1:
      for (let i = 0; i < n; i++) out[i] = ((line[i] as number) + (i >= bpp ? (out[i - bpp] as number) : 0)) & 0xff
      return true
    case 2:
      for (let i = 0; i < n; i++) out[i] = ((line[i] as number) + (up[i] as number)) & 0xff
      return true
    case 3:
      for (let i = 0; i < n; i++) {
        const left = i >= bpp ? (out[i - bpp] as number) : 0
        out[i] = ((line[i] as number) + ((left + (up[i] as number)) >> 1)) & 0xff
      }
      return true
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? (out[i - bpp] as number) : 0
        const b = up[i] as number
        const c = i >= bpp ? (up[i - bpp] as number) : 0
        const p = a + b - c
        const pa = Math.abs(p - a)
        const pb = Math.abs(p - b)
        const pc = Math.abs(p - c)
        out[i] = ((line[i] as number) + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff
      }
      return true
    default:
      return false
  }
}

/**
 * A JPEG's width and height and where it ends, without decoding it: SOI first, markers walked by their lengths to
 * the frame header (SOF0-SOF15 bar DHT/JPG/DAC, ITU-T T.81 §B.1.1.3 and Table B.1), and the EOI marker the last two
 * bytes. What the on-device helper's Bitmap.compress writes is such a file; a reply cut short is a problem named.
 */
export function checkJpeg(data: Buffer): {width: number; height: number} | {problem: string} {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return {problem: 'no JPEG start-of-image marker'}
  if (data[data.length - 2] !== 0xff || data[data.length - 1] !== 0xd9)
    return {problem: 'truncated: it does not end with the end-of-image marker'}
  let offset = 2
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return {problem: `no marker at byte ${offset}`}
    const marker = data[offset + 1] as number
    if (marker === 0xff) {
      offset++
      continue
    }
    const length = data.readUInt16BE(offset + 2)
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) {
      if (offset + 9 > data.length) return {problem: 'truncated frame header'}
      const height = data.readUInt16BE(offset + 5)
      const width = data.readUInt16BE(offset + 7)
      if (width === 0 || height === 0) return {problem: `its frame header says ${width}x${height}`}
      return {width, height}
    }
    if (marker === 0xda || marker === 0xd9) return {problem: 'no frame header before the image data'}
    offset += 2 + length
  }
  return {problem: 'truncated: no frame header'}
}

/** Width and height of a JPEG (checkJpeg), else undefined. */
export function jpegSize(data: Buffer): {width: number; height: number} | undefined {
  const checked = checkJpeg(data)
  return 'problem' in checked ? undefined : checked
}
