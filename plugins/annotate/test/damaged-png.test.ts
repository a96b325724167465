import {expect} from 'chai'

import {InvalidInputError} from '@arc-cli/core'

import {annotateSnapshot, dumpXml, makeSnapshot, solidPng} from './support.js'

const xml = dumpXml([{bounds: [0, 0, 1080, 1920], children: [{text: 'x', bounds: [10, 10, 200, 200]}]}])

async function failure(png: Buffer): Promise<Error> {
  const dir = await makeSnapshot({xml, png})
  try {
    await annotateSnapshot(dir)
  } catch (error) {
    return error as Error
  }
  return expect.fail('annotated a damaged PNG')
}

describe('annotate: damaged screenshots', () => {
  it('refuses a PNG cut off in the middle (Skia would decode it with blank rows)', async () => {
    const png = await solidPng(1080, 1920)
    const error = await failure(png.subarray(0, Math.floor(png.length / 2)))
    expect(error).to.be.instanceOf(InvalidInputError)
    // A snapshot's driver refuses it before annotate decodes anything, as the live driver refuses such a screencap.
    expect(error.message).to.include('screen.png is not a whole PNG').and.include('truncated')
  })

  it('refuses a PNG whose data fails its CRC', async () => {
    const png = Buffer.from(await solidPng(1080, 1920))
    const idat = png.indexOf('IDAT', 0, 'latin1')
    png[idat + 10] = (png[idat + 10] as number) ^ 0xff
    const error = await failure(png)
    expect(error).to.be.instanceOf(InvalidInputError)
    expect(error.message).to.include('chunk IDAT').and.include('CRC')
  })

  it('refuses bytes that are no image at all', async () => {
    const error = await failure(Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(40)]))
    expect(error).to.be.instanceOf(InvalidInputError)
  })
})
