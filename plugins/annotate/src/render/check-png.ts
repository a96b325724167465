import {crc32} from 'node:zlib'

const SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex')

/**
 * Checks a PNG's structure before decoding: signature, IHDR first, every chunk whole with a matching CRC, and
 * an IEND at the end. Skia decodes a truncated PNG without complaint (the missing rows come out blank), so this
 * is what turns a damaged screenshot into a clear error instead of a half-empty picture. Returns the problem,
 * or undefined when the file is sound. Other formats (a JPEG screenshot) are left to the decoder.
 */
export function pngProblem(data: Buffer): string | undefined {
  if (data.length < 8 || !data.subarray(0, 8).equals(SIGNATURE)) return undefined
  let offset = 8
  let first = true
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset)
    const type = data.toString('latin1', offset + 4, offset + 8)
    if (first && type !== 'IHDR') return `the first chunk is ${type}, not IHDR`
    first = false
    const end = offset + 12 + length
    if (end > data.length) return `truncated: chunk ${type} at byte ${offset} runs past the end of the file`
    const crc = data.readUInt32BE(end - 4)
    if (crc32(data.subarray(offset + 4, end - 4)) !== crc) return `chunk ${type} at byte ${offset} is damaged (CRC mismatch)`
    if (type === 'IEND') return undefined
    offset = end
  }
  return 'truncated: no IEND chunk'
}
