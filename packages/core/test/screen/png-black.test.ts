/**
 * pngLooksBlack: what tells `arc screenshot` that a capture is a FLAG_SECURE window's or a sleeping display's black.
 * It must undo every PNG row filter before it judges (a bright screen filtered with Up or Sub is mostly zero bytes),
 * read past the first inflate step on large near-black screens, and say "cannot tell" for what it does not decode.
 */
import {randomBytes} from 'node:crypto'
import {crc32, deflateSync} from 'node:zlib'

import {expect} from 'chai'

import {pngLooksBlack} from '../../src/png.js'

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** Raw 8-bit rows (`channels` a pixel) filtered with `filter(row)` (PNG spec §9.2), as an encoder would write them. */
function png(
  width: number,
  rows: Buffer[],
  options: {channels?: number; colorType?: number; filter?: (row: number) => number; interlace?: number} = {}
): Buffer {
  const channels = options.channels ?? 4
  const bpp = channels
  const filtered: Buffer[] = []
  rows.forEach((raw, y) => {
    const type = options.filter?.(y) ?? 0
    const up = y > 0 ? (rows[y - 1] as Buffer) : Buffer.alloc(raw.length)
    const out = Buffer.alloc(raw.length + 1)
    out[0] = type
    for (let i = 0; i < raw.length; i++) {
      const a = i >= bpp ? (raw[i - bpp] as number) : 0
      const b = up[i] as number
      const c = i >= bpp ? (up[i - bpp] as number) : 0
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][type] as number
      out[i + 1] = ((raw[i] as number) - predictor) & 0xff
    }
    filtered.push(out)
  })
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(rows.length, 4)
  ihdr[8] = 8
  ihdr[9] = options.colorType ?? (channels === 4 ? 6 : 2)
  ihdr[12] = options.interlace ?? 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(filtered))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const opaque = (width: number, value: number) => {
  const row = Buffer.alloc(width * 4, value)
  for (let i = 3; i < row.length; i += 4) row[i] = 0xff
  return row
}

describe('pngLooksBlack: a black capture told from a dark or bright screen', () => {
  it('an opaque black screen is black, whatever filter each row was written with', () => {
    const rows = Array.from({length: 20}, () => opaque(30, 0))
    for (const filter of [0, 1, 2, 3, 4])
      expect(pngLooksBlack(png(30, rows, {filter: () => filter})), `filter ${filter}`).to.equal(true)
  })

  it('a bright screen is not black even where its filtered bytes are nearly all zero (Up, Sub, Average, Paeth)', () => {
    const rows = Array.from({length: 20}, () => opaque(30, 200))
    for (const filter of [1, 2, 3, 4])
      expect(pngLooksBlack(png(30, rows, {filter: () => filter})), `filter ${filter}`).to.equal(false)
  })

  it('one lit pixel in the last row makes it not black; alpha alone does not', () => {
    const rows = Array.from({length: 10}, () => opaque(10, 0))
    const last = opaque(10, 0)
    last[4 * 7 + 1] = 9
    expect(pngLooksBlack(png(10, [...rows, last], {filter: (y) => y % 5}))).to.equal(false)
    const transparent = Array.from({length: 10}, () => Buffer.alloc(40, 0))
    expect(pngLooksBlack(png(10, transparent))).to.equal(true)
  })

  it('reads a large near-black screen to its last row (several inflate steps) and finds one lit pixel there', () => {
    const width = 600
    const rows = Array.from({length: 600}, () => {
      const row = randomBytes(width * 4)
      for (let i = 0; i < row.length; i++) row[i] = (i & 3) === 3 ? 0xff : (row[i] as number) % 9
      return row
    })
    const black = png(width, rows, {filter: (y) => y % 5})
    expect(black.length).to.be.greaterThan(4 * 64 * 1024)
    expect(pngLooksBlack(black)).to.equal(true)
    ;(rows[599] as Buffer)[width * 4 - 2] = 120
    expect(pngLooksBlack(png(width, rows, {filter: (y) => y % 5}))).to.equal(false)
  })

  it('RGB and grey screens are judged by their colour channels', () => {
    expect(pngLooksBlack(png(8, [Buffer.alloc(24, 3), Buffer.alloc(24, 0)], {channels: 3}))).to.equal(true)
    expect(pngLooksBlack(png(8, [Buffer.alloc(24, 3), Buffer.alloc(24, 90)], {channels: 3}))).to.equal(false)
    expect(pngLooksBlack(png(8, [Buffer.alloc(8, 0)], {channels: 1, colorType: 0}))).to.equal(true)
  })

  it('cannot tell (undefined) for what it does not decode: damaged, interlaced, paletted, not a PNG', () => {
    const good = png(
      10,
      Array.from({length: 10}, () => opaque(10, 0))
    )
    const damaged = Buffer.from(good)
    damaged[good.length - 20] = (damaged[good.length - 20] as number) ^ 0xff
    expect(pngLooksBlack(damaged)).to.equal(undefined)
    expect(pngLooksBlack(png(10, [opaque(10, 0)], {interlace: 1}))).to.equal(undefined)
    expect(pngLooksBlack(png(10, [Buffer.alloc(10, 0)], {channels: 1, colorType: 3}))).to.equal(undefined)
    expect(pngLooksBlack(Buffer.from('not a png'))).to.equal(undefined)
  })
})
