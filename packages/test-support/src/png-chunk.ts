/** PNG building blocks for tests that make images by hand (cut short, odd chunks): PNG spec §5.3. */
import zlib from 'node:zlib'

/** One chunk: its length, its type, its data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(zlib.crc32(body), 8 + data.length)
  return out
}
