import {createRequire, syncBuiltinESMExports} from 'node:module'
import {fileURLToPath} from 'node:url'
import type * as Zlib from 'node:zlib'

import {DEMO_DIR, SnapshotDriver, buildScreenModel} from '@arc-cli/core'
import {expect} from 'chai'

import {annotateScreenshot} from '../src/annotate-screenshot.js'
import {jpegLooksBlack, pngToJpeg} from '../src/encode-jpeg.js'
import {fitImage} from '../src/fit-image.js'
import {DEFAULTS} from '../src/style/annotate-config.js'
import {resolveStyle} from '../src/style/resolve-style.js'
import {ROOT} from '@arc-cli/test-support/paths'
import {pngChunk as chunk} from '@arc-cli/test-support/png-chunk'
import {runProgram} from '@arc-cli/test-support/run-arc'
import {decode, isRed, solidPng} from './support.js'

const zlib = createRequire(import.meta.url)('node:zlib') as typeof Zlib

/** Counts the host's inflates of PNG pixel data (core's png.ts imports inflateSync from node:zlib) while `work` runs. */
async function inflatesDuring(work: () => Promise<unknown>): Promise<number> {
  const original = zlib.inflateSync
  let calls = 0
  zlib.inflateSync = ((...args: Parameters<typeof original>) => {
    calls++
    return original(...args)
  }) as typeof original
  syncBuiltinESMExports()
  try {
    await work()
  } finally {
    zlib.inflateSync = original
    syncBuiltinESMExports()
  }
  return calls
}

/**
 * The full garbage collections V8 runs in a process of its own (count-collections.ts) while it annotates or scales
 * a screenshot `times` times. The canvas library tells V8 about the memory it holds outside the heap (a decoded
 * 1080x2400 screenshot: 10 MB), and V8 runs a full collection for every few tens of MB told and not given back.
 */
async function fullCollections(what: 'annotate' | 'scale', times: number): Promise<number> {
  const script = fileURLToPath(new URL('./count-collections.ts', import.meta.url))
  const run = await runProgram(
    process.execPath,
    ['--conditions=arc-source', '--import', 'tsx', script, what, `${times}`],
    {
      cwd: ROOT,
      env: {...process.env, NODE_OPTIONS: ''},
    }
  )
  expect(run.code, run.stderr).to.equal(0)
  return Number(run.stdout.trim())
}

/** A PNG of `width`x`height` whose pixel data (valid zlib, valid CRCs) holds only the first `rows` rows. */
function shortPng(width: number, height: number, rows: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  const stride = 1 + width * 4
  const raw = Buffer.alloc(rows * stride, 0x80)
  for (let y = 0; y < rows; y++) raw[y * stride] = 0
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The screenshot is decoded once, by the canvas; its pixel data is inflated on the host only when the frame looks damaged. */
describe('annotate: one decode per screenshot', () => {
  const options = {...DEFAULTS, style: resolveStyle({}, undefined)}

  it("an ordinary screenshot is not inflated besides the canvas's own decode", async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR)
    const model = buildScreenModel(await driver.captureScreen())
    const png = await driver.screenshot()
    expect(await inflatesDuring(() => annotateScreenshot(model, png, options))).to.equal(0)
  })

  it('gives the decoded pixels back when it returns, not at a later garbage collection', async () => {
    // Pixels held by the Image until a collection finalised it made a full collection every one or two annotations.
    // In a process of its own: 1-2 in 40 (idle or loaded); 7-9 with the pixels held.
    expect(await fullCollections('annotate', 40), 'full collections in 40 annotations').to.be.at.most(4)
  })

  it("arc screenshot's scaling and re-encoding draw the screenshot's pixels, then give them back", async () => {
    const png = await solidPng(1080, 2400, '#d02020')
    const source = 'the test'
    const scaled = await fitImage(png, {maxSize: 700, format: 'jpeg', quality: 80, source})
    const jpeg = await pngToJpeg(png, 80, source)
    for (const image of [await decode(scaled.data), await decode(jpeg)]) {
      for (const [x, y] of [
        [0, 0],
        [image.width >> 1, image.height >> 1],
        [image.width - 1, image.height - 1],
      ]) {
        expect(isRed(image.at(x as number, y as number)), `${image.width}x${image.height} at ${x},${y}`).to.equal(true)
      }
    }
    expect(await jpegLooksBlack(jpeg)).to.equal(false)
    // 10 MB decoded per call, held until a collection. In a process of its own: 0-1 in 48 (idle or loaded); 8 with
    // the pixels held.
    expect(await fullCollections('scale', 48), 'full collections in 48 scalings').to.be.at.most(4)
  })

  it('pixel data that ends halfway is still refused, told by the blank rows the decoder left', async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR)
    const model = buildScreenModel(await driver.captureScreen())
    const error = await annotateScreenshot(model, shortPng(1080, 2400, 1200), options, 'the test').then(
      () => undefined,
      (e: Error) => e
    )
    expect(error?.message).to.match(
      /the screenshot from the test is not a readable PNG: its pixel data is \d+ bytes, its 1080x2400 header needs \d+/
    )
  })
})
