import {crc32} from 'node:zlib'

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
