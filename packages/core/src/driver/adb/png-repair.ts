/**
 * `screencap -p` output as it arrives over a `shell:` stream. Android < 7 runs protocol-less shells in a cooked
 * PTY that turns every LF into CR LF, which corrupts PNGs; multi-display devices may print a warning before the
 * image. `readScreencapPng` strips a leading banner, undoes CR LF translation when the signature shows it, and
 * checks every chunk's CRC, so a damaged image is rejected rather than passed on.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'
import {checkPng, PNG_SIGNATURE} from '../../png.js'

/** The signature after LF → CR LF: `\x89PNG\r\r\n\x1a\r\n`. */
const MANGLED_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0d, 0x0a, 0x1a, 0x0d, 0x0a])

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
  const plainAt = output.subarray(0, 4096).indexOf(PNG_SIGNATURE)
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
