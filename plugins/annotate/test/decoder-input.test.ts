import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'

import {createCanvas, loadImage} from '@napi-rs/canvas'

import {fixturePath} from '@arc-cli/test-support/paths'
import {pixelChunksOnly} from '../src/screenshot-image.js'
import {pngChunk as chunk} from '@arc-cli/test-support/png-chunk'

/** The PNG's chunk types in order. */
function chunkTypes(png: Buffer): string[] {
  const types: string[] = []
  for (let offset = 8; offset + 12 <= png.length; offset += 12 + png.readUInt32BE(offset)) {
    types.push(png.toString('latin1', offset + 4, offset + 8))
  }
  return types
}

/** `png` with `extra` chunks put right after IHDR (where a phone's screencap has its sRGB and sBIT). */
function withChunks(png: Buffer, extra: Buffer[]): Buffer {
  const afterIhdr = 8 + 12 + png.readUInt32BE(8)
  return Buffer.concat([png.subarray(0, afterIhdr), ...extra, png.subarray(afterIhdr)])
}

/** Only IHDR, PLTE, IDAT, tRNS and IEND, built here independently of the code under test. */
function strip(png: Buffer): Buffer {
  const kept = [png.subarray(0, 8)]
  for (let offset = 8; offset + 12 <= png.length; offset += 12 + png.readUInt32BE(offset)) {
    const type = png.toString('latin1', offset + 4, offset + 8)
    if (['IHDR', 'PLTE', 'IDAT', 'tRNS', 'IEND'].includes(type))
      kept.push(png.subarray(offset, offset + 12 + png.readUInt32BE(offset)))
  }
  return Buffer.concat(kept)
}

async function pixels(png: Buffer): Promise<Uint8ClampedArray> {
  const image = await loadImage(png)
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext('2d')
  ctx.drawImage(image, 0, 0)
  return ctx.getImageData(0, 0, image.width, image.height).data
}

/** A 64x48 PNG of many colours (a gradient and a few shapes), so a colour conversion would show. */
function colourfulPng(): Buffer {
  const canvas = createCanvas(64, 48)
  const ctx = canvas.getContext('2d')
  const gradient = ctx.createLinearGradient(0, 0, 64, 48)
  gradient.addColorStop(0, '#ff2000')
  gradient.addColorStop(0.5, '#20c040')
  gradient.addColorStop(1, '#3050f0')
  ctx.fillStyle = gradient
  ctx.fillRect(0, 0, 64, 48)
  ctx.fillStyle = 'rgb(250, 240, 10)'
  ctx.fillRect(10, 10, 20, 12)
  return canvas.encodeSync('png')
}

const sRGB = chunk('sRGB', Buffer.from([0]))
const sBIT = chunk('sBIT', Buffer.from([8, 8, 8, 8]))

describe('annotate: what of a PNG reaches the decoder', () => {
  it("a phone's screencap chunks (sRGB, sBIT) reach it as they came, uncopied, and decode to the pixel chunks' pixels", async () => {
    const png = withChunks(colourfulPng(), [sRGB, sBIT])
    expect(chunkTypes(png)).to.include.members(['sRGB', 'sBIT'])
    expect(pixelChunksOnly(png)).to.equal(png)
    expect(await pixels(png)).to.deep.equal(await pixels(strip(png)))
  })

  it('a text chunk is dropped, and with it every other non-pixel chunk', () => {
    const png = withChunks(colourfulPng(), [sRGB, chunk('tEXt', Buffer.from('Comment\0hello', 'latin1')), sBIT])
    const input = pixelChunksOnly(png)
    expect(input).to.not.equal(png)
    expect(chunkTypes(input)).to.deep.equal(chunkTypes(strip(png)))
    expect(input.equals(strip(png))).to.equal(true)
  })

  it('an sRGB or sBIT chunk of a size the PNG spec does not allow is dropped', () => {
    for (const odd of [
      chunk('sRGB', Buffer.alloc(5)),
      chunk('sBIT', Buffer.alloc(0)),
      chunk('sBIT', Buffer.alloc(64)),
    ]) {
      const png = withChunks(colourfulPng(), [odd])
      expect(pixelChunksOnly(png).equals(strip(png))).to.equal(true)
    }
  })

  it('a real screencap (sRGB and sBIT) decodes to the same pixels with them as without', async function () {
    const file = fixturePath('bili-home-feed', 'screen.png')
    if (!existsSync(file)) this.skip()
    const png = readFileSync(file)
    expect(chunkTypes(png)).to.include.members(['sRGB', 'sBIT'])
    expect(pixelChunksOnly(png)).to.equal(png)
    const a = await pixels(png)
    const b = await pixels(strip(png))
    expect(a.length).to.equal(b.length)
    expect(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
    ).to.equal(true)
  })
})
