import {expect} from 'chai'
import {copyFile, mkdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import zlib from 'node:zlib'

import {checkPngPixels, DEMO_DIR, exitCodeFor, type ErrorCode} from '@arc-cli/core'

import {blackPng, garbagePixelsPng, lyingPng} from '@arc-cli/test-support/hostile-inputs'
import {scratch, tree} from '@arc-cli/test-support/hostile'
import {runArc} from '@arc-cli/test-support/run-arc'

interface PngCase {
  name: string
  png: () => Buffer
  /** meta.json beside it (else none: the size then comes from the PNG header). */
  meta?: boolean
  code: ErrorCode | 0
  says: string
}

const CASES: PngCase[] = [
  {
    name: 'a 69-byte PNG claiming 20000x20000',
    png: () => lyingPng(20000, 20000),
    code: 'INVALID_INPUT',
    says: "over arc's limit for a screenshot",
  },
  {name: 'a PNG claiming 0x0', png: () => lyingPng(0, 0), code: 'INVALID_INPUT', says: 'an image with no pixels'},
  {
    name: 'a PNG claiming 2^31-1 x 1',
    png: () => lyingPng(2 ** 31 - 1, 1),
    code: 'INVALID_INPUT',
    says: "over arc's limit",
  },
  {
    name: 'a PNG claiming 1080x2400 with one byte of pixels',
    png: () => lyingPng(1080, 2400),
    meta: true,
    code: 'INVALID_INPUT',
    says: 'its pixel data is 1 bytes',
  },
  {
    name: 'valid CRCs, garbage pixel data',
    png: () => garbagePixelsPng(1080, 2400),
    meta: true,
    code: 'INVALID_INPUT',
    says: 'its pixel data is damaged',
  },
  {
    name: 'a PNG of another shape than the screen',
    png: () => blackPng(2400, 2400),
    meta: true,
    code: 'INVALID_INPUT',
    says: 'not the shape of the 1080x2400 screen',
  },
  {
    name: 'a real black screen (secure window)',
    png: () => blackPng(540, 1200),
    meta: true,
    code: 0,
    says: 'entirely black',
  },
]

/** Hostile screenshots through annotate: refused before decoding, and a decode failure told from a black screen. */
describe('hostile: PNGs', function () {
  let dir: string
  before(async () => {
    dir = await scratch()
  })

  for (const c of CASES) {
    it(`${c.name}: exit ${c.code === 0 ? 0 : `${c.code} (${exitCodeFor(c.code)})`}, no file changed`, async () => {
      const snap = path.join(dir, c.name.replace(/\W+/g, '-'))
      await mkdir(snap)
      await copyFile(path.join(DEMO_DIR, 'window_dump.xml'), path.join(snap, 'window_dump.xml'))
      if (c.meta) await copyFile(path.join(DEMO_DIR, 'meta.json'), path.join(snap, 'meta.json'))
      await writeFile(path.join(snap, 'screen.png'), c.png())
      await writeFile(path.join(dir, 'out.jpg'), 'PRECIOUS\n')
      const before = await tree(dir)
      const run = await runArc(['annotate', '-d', snap, '-o', 'out.jpg'], {cwd: dir})
      expect(run.code, run.stderr).to.equal(c.code === 0 ? 0 : exitCodeFor(c.code))
      expect(run.stderr).to.include(c.says).and.not.include('INTERNAL')
      if (c.code !== 0) expect(await tree(dir)).to.deep.equal(before)
    })
  }

  it('screen-state refuses a lying header as the screen size (no `screen:20000x20000`)', async () => {
    const snap = path.join(dir, 'size-from-png')
    await mkdir(snap)
    await copyFile(path.join(DEMO_DIR, 'window_dump.xml'), path.join(snap, 'window_dump.xml'))
    await writeFile(path.join(snap, 'screen.png'), lyingPng(20000, 20000))
    const run = await runArc(['screen-state', '-d', snap])
    expect(run.code, run.stderr).to.equal(exitCodeFor('INVALID_INPUT'))
    expect(run.stdout).to.not.include('20000x20000')
  })

  it('a PNG carrying a 60 MB tEXt and a zTXt inflating to 400 MB: annotated at once (exit 0), its text never decoded (once past 180 s)', async () => {
    const demo = await readFile(path.join(DEMO_DIR, 'screen.png'))
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
      const length = Buffer.alloc(4)
      length.writeUInt32BE(data.length)
      const crc = Buffer.alloc(4)
      crc.writeUInt32BE(zlib.crc32(body))
      return Buffer.concat([length, body, crc])
    }
    const huge = Buffer.concat([
      demo.subarray(0, 33),
      chunk(
        'zTXt',
        Buffer.concat([
          Buffer.from('Comment\0\0', 'latin1'),
          zlib.deflateSync(Buffer.alloc(400 * 1024 * 1024, 65), {level: 9}),
        ])
      ),
      chunk('tEXt', Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(60 * 1024 * 1024, 66)])),
      demo.subarray(33),
    ])
    const snap = path.join(dir, 'huge-text-chunks')
    await mkdir(snap)
    await copyFile(path.join(DEMO_DIR, 'window_dump.xml'), path.join(snap, 'window_dump.xml'))
    await copyFile(path.join(DEMO_DIR, 'meta.json'), path.join(snap, 'meta.json'))
    await writeFile(path.join(snap, 'screen.png'), huge)
    const run = await runArc(['annotate', '-d', snap, '-o', 'huge.jpg'], {cwd: dir})
    expect(run.code, run.stderr).to.equal(0)
    expect((await readFile(path.join(dir, 'huge.jpg'))).subarray(0, 3)).to.deep.equal(Buffer.from([0xff, 0xd8, 0xff]))
  })

  it('checkPngPixels passes the demo screenshot and a real black one', async () => {
    expect(checkPngPixels(await readFile(path.join(DEMO_DIR, 'screen.png')))).to.equal(undefined)
    expect(checkPngPixels(blackPng(10, 10))).to.equal(undefined)
  })
})
