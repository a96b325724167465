/**
 * `screencap -p` output as it arrives over a `shell:` stream. Android < 7 runs protocol-less shells in a cooked
 * PTY that turns every LF into CR LF, which corrupts PNGs; multi-display devices may print a warning before the
 * image. `readScreencapPng` strips a leading banner, undoes CR LF translation when the signature shows it, and
 * checks every chunk's CRC, so a damaged image is rejected rather than passed on.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** The signature after LF → CR LF: `\x89PNG\r\r\n\x1a\r\n`. */
const MANGLED_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0d, 0x0a, 0x1a, 0x0d, 0x0a])

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32(data: Buffer): number {
  let c = 0xffffffff
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** Undoes LF → CR LF translation: every CR LF becomes LF (a lone CR was never touched). */
export function undoCrlf(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length)
  let j = 0
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0x0d && data[i + 1] === 0x0a) continue
    out[j++] = data[i] as number
  }
  return out.subarray(0, j)
}

/** Where an intact PNG ends (after IEND), or why the buffer is not a complete, intact PNG. */
export function checkPng(png: Buffer): {end: number} | {problem: string} {
  const problem = (text: string) => ({problem: text})
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) return problem('no PNG signature')
  let offset = 8
  let first = true
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.subarray(offset + 4, offset + 8).toString('latin1')
    if (first && type !== 'IHDR') return problem('the first chunk is not IHDR')
    first = false
    const end = offset + 12 + length
    if (end > png.length) return problem(`chunk ${type} is cut short`)
    const crc = png.readUInt32BE(end - 4)
    if (crc32(png.subarray(offset + 4, end - 4)) !== crc) return problem(`chunk ${type} fails its CRC check`)
    if (type === 'IEND') return {end}
    offset = end
  }
  return problem('the image ends before its IEND chunk')
}

export interface ScreencapPng {
  png: Buffer
  /** True when CR LF translation was found and undone. */
  repaired: boolean
}

export function readScreencapPng(output: Buffer, serial: string): ScreencapPng {
  const fail = (why: string) =>
    new DeviceCommandError(`screencap on ${serial} returned an unusable image: ${why}`, {
      details: {bytes: output.length, head: output.subarray(0, 32).toString('latin1')},
      actions: ['Check the screen is on and not showing secure content, then try again.'],
    })
  if (output.length === 0) throw fail('it printed nothing')
  const mangledAt = output.subarray(0, 4096).indexOf(MANGLED_SIGNATURE)
  const plainAt = output.subarray(0, 4096).indexOf(SIGNATURE)
  if (plainAt === -1 && mangledAt === -1) {
    const text = output.subarray(0, 200).toString('utf8').trim().split(/\r?\n/, 1)[0]
    throw fail(`it is not a PNG (it starts with ${JSON.stringify(text)})`)
  }
  const repaired = plainAt === -1 || (mangledAt !== -1 && mangledAt < plainAt)
  const png = repaired ? undoCrlf(output.subarray(mangledAt)) : output.subarray(plainAt)
  const checked = checkPng(png)
  if ('problem' in checked) {
    throw fail(repaired ? `CR LF translation could not be undone (${checked.problem})` : checked.problem)
  }
  return {png: Buffer.from(png.subarray(0, checked.end)), repaired}
}
