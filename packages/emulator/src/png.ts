import {crc32, deflateSync} from 'node:zlib'

import {PNG_SIGNATURE} from '@arc-cli/core'

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/**
 * A solid grey RGB PNG of the given size, light (#f0f0f0) by default: what `screencap -p` answers for a snapshot
 * that has no screen.png, so the image at least has the device's dimensions; black (`level` 0) for a display that
 * is off.
 */
export function solidPng(width: number, height: number, level = 0xf0): Buffer {
  const raster = new Raster(width, height)
  raster.fill(0, 0, width, height, [level, level, level])
  return raster.png()
}

/** An RGB picture drawn with filled rectangles, encoded as a PNG (what a virtual app's screencap shows). */
export class Raster {
  /** One PNG scanline per row: a filter byte (0, none), then RGB. */
  private readonly raw: Buffer
  private readonly stride: number

  constructor(
    readonly width: number,
    readonly height: number
  ) {
    this.stride = 1 + width * 3
    this.raw = Buffer.alloc(this.stride * height)
  }

  /** Fills [left, top, right, bottom) with a colour, clipped to the picture. */
  fill(left: number, top: number, right: number, bottom: number, [r, g, b]: readonly [number, number, number]): void {
    const l = Math.max(0, Math.round(left))
    const t = Math.max(0, Math.round(top))
    const rr = Math.min(this.width, Math.round(right))
    const bb = Math.min(this.height, Math.round(bottom))
    if (rr <= l || bb <= t) return
    const row = Buffer.alloc((rr - l) * 3)
    for (let x = 0; x < rr - l; x++) row.set([r, g, b], x * 3)
    for (let y = t; y < bb; y++) row.copy(this.raw, y * this.stride + 1 + l * 3)
  }

  /** Darkens the whole picture to `factor` of its light (a dialog's scrim). */
  dim(factor: number): void {
    for (let y = 0; y < this.height; y++) {
      const start = y * this.stride + 1
      for (let i = start; i < start + this.width * 3; i++) this.raw[i] = Math.round(this.raw[i]! * factor)
    }
  }

  png(): Buffer {
    return encodePng(this.width, this.height, this.raw)
  }
}

function encodePng(width: number, height: number, raw: Buffer): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // colour type RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
