import {mkdtemp, readdir, readFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {DEMO_DIR, SnapshotDriver, type ToolContext} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {screenshot, screenshotFormat} from '../src/tools/screenshot.js'
import {decode} from './support.js'

describe('arc screenshot', function () {
  let out: string
  let demoPng: Buffer
  before(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'arc-shot-'))
    demoPng = await readFile(path.join(DEMO_DIR, 'screen.png'))
  })

  it('takes the format from the extension and refuses unknown ones and contradictions', () => {
    expect(screenshotFormat('a.PNG', undefined)).to.equal('png')
    expect(screenshotFormat('a.jpg', undefined)).to.equal('jpeg')
    expect(screenshotFormat('a.jpeg', 'jpeg')).to.equal('jpeg')
    expect(screenshotFormat('-', undefined)).to.equal('png')
    expect(screenshotFormat('-', 'jpeg')).to.equal('jpeg')
    expect(() => screenshotFormat('a.gif', undefined)).to.throw(/\.png, \.jpg or \.jpeg/)
    expect(() => screenshotFormat('noext', undefined)).to.throw(/cannot tell the image format/)
    expect(() => screenshotFormat('a.png', 'jpeg')).to.throw('--format jpeg contradicts --output a.png')
  })

  it('writes the device PNG byte for byte to a .png and announces it', async () => {
    const run = await runArc(['screenshot', '--device', 'demo', '-o', 'shot.png'], {cwd: out})
    expect(run.code).to.equal(0)
    const file = path.join(out, 'shot.png')
    expect(run.stdout.trim()).to.equal(`Screenshot saved: ${file} (1080x2400 png, ${demoPng.length} bytes)`)
    expect((await readFile(file)).equals(demoPng)).to.equal(true)
  })

  it('encodes a .jpg as JPEG of the same size, and --json reports it', async () => {
    const run = await runArc(['screenshot', '--device', 'demo', '-o', 'shot.jpg', '--quality', '70', '--json'], {
      cwd: out,
    })
    expect(run.code).to.equal(0)
    const data = await readFile(path.join(out, 'shot.jpg'))
    expect([...data.subarray(0, 3)]).to.deep.equal([0xff, 0xd8, 0xff])
    expect(JSON.parse(run.stdout)).to.deep.equal({
      path: path.join(out, 'shot.jpg'),
      format: 'jpeg',
      width: 1080,
      height: 2400,
      bytes: data.length,
      screen: {width: 1080, height: 2400},
      scale: {x: 1, y: 1},
    })
    const pixels = await decode(data)
    expect([pixels.width, pixels.height]).to.deep.equal([1080, 2400])
  })

  it('--max-size scales the longest side (never up), as a valid PNG or JPEG of the size it reports', async () => {
    const run = await runArc(['screenshot', '--device', 'demo', '-o', 'small.png', '--max-size', '1024', '--json'], {
      cwd: out,
    })
    expect(run.code, run.stderr).to.equal(0)
    const png = await decode(await readFile(path.join(out, 'small.png')))
    expect([png.width, png.height]).to.deep.equal([461, 1024])
    expect(JSON.parse(run.stdout)).to.include({format: 'png', width: 461, height: 1024})
    const jpeg = await runArc(['screenshot', '--device', 'demo', '-o', 'small.jpg', '--max-size', '300'], {cwd: out})
    expect(jpeg.stdout).to.match(/\(135x300 jpeg, \d+ bytes\)/)
    const pixels = await decode(await readFile(path.join(out, 'small.jpg')))
    expect([pixels.width, pixels.height]).to.deep.equal([135, 300])
  })

  it('-o - writes the image to stdout and the note to stderr', async () => {
    const run = await runArc(['screenshot', '--device', 'demo', '-o', '-'], {cwd: out})
    expect(run.code).to.equal(0)
    // runArc decodes stdout as UTF-8, so the signature's first byte (0x89) is not comparable; the rest is.
    expect(run.stdout.slice(1, 4)).to.equal('PNG')
    expect(run.stderr.trim()).to.equal(`Screenshot written to stdout (1080x2400 png, ${demoPng.length} bytes)`)
  })

  it('input errors exit 2 and leave no file behind', async () => {
    const before = (await readdir(out)).sort()
    for (const args of [
      [],
      ['-o', 'x.gif'],
      ['-o', 'x.png', '--format', 'jpeg'],
      ['-o', '-', '--json'],
      ['-o', 'x.jpg', '--quality', '0'],
      ['-o', 'x.png', '--max-size', '10'],
    ]) {
      const run = await runArc(['screenshot', '--device', 'demo', ...args], {cwd: out})
      expect(run.code, args.join(' ')).to.equal(2)
      expect(run.stderr + run.stdout).to.contain('INVALID_INPUT')
    }
    expect((await readdir(out)).sort()).to.deep.equal(before)
  })

  it('without an output (MCP) returns the image inline', async () => {
    const driver = await SnapshotDriver.open(DEMO_DIR, 'demo')
    const result = await screenshot.handler({driver, cwd: out, json: false} as unknown as ToolContext, {
      quality: 90,
      max_size: 0,
    })
    expect(result.image?.mimeType).to.equal('image/png')
    expect(result.image?.data.equals(demoPng)).to.equal(true)
    expect(result.text).to.equal(`screenshot: 1080x2400 png, ${demoPng.length} bytes`)
  })

  it('a scaled image (MCP: max_size 1024) says the screen size and scale, so an agent taps screen pixels', async () => {
    // An agent reads a point off the 461x1024 image; tap takes screen pixels (1080x2400). Without the scale it
    // would tap (230, 512): another element than the one it saw at the image's centre.
    const driver = await SnapshotDriver.open(DEMO_DIR, 'demo')
    const result = await screenshot.handler({driver, cwd: out, json: false} as unknown as ToolContext, {
      quality: 90,
      max_size: 1024,
    })
    expect(result.data).to.deep.include({
      width: 461,
      height: 1024,
      screen: {width: 1080, height: 2400},
      scale: {x: 0.426852, y: 0.426667},
    })
    expect(result.text).to.match(/^screenshot: 461x1024 png, \d+ bytes\n/)
    expect(result.text).to.include(
      'screen 1080x2400: tap, swipe and long_press take screen pixels: x = image x / 0.426852, y = image y / 0.426667'
    )
    // The image's far corner maps back onto the screen's last pixel, not past it.
    expect(Math.floor(460 / 0.426852)).to.be.below(1080)
    expect(Math.floor(1023 / 0.426667)).to.be.below(2400)
    const cli = await runArc(['screenshot', '--device', 'demo', '-o', 'scaled.jpg', '--max-size', '300', '--json'], {
      cwd: out,
    })
    expect(JSON.parse(cli.stdout)).to.deep.include({screen: {width: 1080, height: 2400}, scale: {x: 0.125, y: 0.125}})
  })

  describe('over ADB', () => {
    let emu: Emulator
    before(async () => {
      emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    })
    after(async () => emu?.close())

    it('sends screencap -p (and reads the screen size) and saves what it returns', async () => {
      const from = emu.commands.length
      const run = await runArc(['screenshot', '-o', 'live.png'], {
        cwd: out,
        env: {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`},
      })
      expect(run.code).to.equal(0)
      // The screen size beside the capture, in parallel: the result's screen and scale (a wm size would show there).
      expect(emu.commands.slice(from).map((c) => c.argv)).to.have.deep.members([
        ['dumpsys', 'window', 'displays'],
        ['screencap', '-p'],
      ])
      expect((await readFile(path.join(out, 'live.png'))).equals(demoPng)).to.equal(true)
    })

    it("a full-size capture under wm size is the panel's pixels: it says the screen and the scale a tap needs", async () => {
      // A phone's screencap keeps the panel's resolution under `wm size` while `input tap` takes the smaller logical
      // display's pixels (LmeSzinc/AzurLaneAutoScript#1316: 1920x1080 screencap, taps in 720x1280): a point read off
      // the full-size image is twice too far on this 1080x2400 panel at 540x1200.
      const env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
      await runArc(['shell', '--', 'wm', 'size', '540x1200'], {env})
      try {
        const run = await runArc(['screenshot', '-o', 'panel.png', '--json'], {cwd: out, env})
        expect(run.code, run.stderr).to.equal(0)
        expect(JSON.parse(run.stdout)).to.deep.include({
          width: 1080,
          height: 2400,
          screen: {width: 540, height: 1200},
          scale: {x: 2, y: 2},
        })
        const text = await runArc(['screenshot', '-o', 'panel.png'], {cwd: out, env})
        expect(text.stdout).to.include(
          'screen 540x1200: tap, swipe and long_press take screen pixels: x = image x / 2, y = image y / 2'
        )
      } finally {
        await runArc(['shell', '--', 'wm', 'size', 'reset'], {env})
      }
    })

    describe('with the on-device helper', () => {
      const env = () => ({ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ARC_HELPER: 'auto'})
      const device = () => emu.device('emu-1')

      it('--max-size with a .jpg asks the helper for that JPEG on the device and writes what arrives', async () => {
        const from = emu.commands.length
        const run = await runArc(['screenshot', '-o', 'small.jpg', '--max-size', '1024', '--quality', '70', '--json'], {
          cwd: out,
          env: env(),
        })
        expect(run.code, run.stderr).to.equal(0)
        expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '1024', '1024', '70', 'jpeg'])
        expect(emu.commands.slice(from).filter((c) => c.argv[0] === 'screencap')).to.deep.equal([])
        const data = await readFile(path.join(out, 'small.jpg'))
        expect(JSON.parse(run.stdout)).to.deep.include({format: 'jpeg', width: 461, height: 1024, bytes: data.length})
        // The device's scaled image of the demo screen: the same picture as the full-size PNG, scaled.
        const [small, full] = [await decode(data), await decode(demoPng)]
        expect([small.width, small.height]).to.deep.equal([461, 1024])
        for (const [x, y] of [
          [20, 20],
          [230, 512],
          [440, 1000],
        ] as const) {
          const a = small.at(x, y)
          const b = full.at(Math.round((x * 1080) / 461), Math.round((y * 2400) / 1024))
          for (let c = 0; c < 3; c++)
            expect(Math.abs((a[c] as number) - (b[c] as number)), `channel ${c} at ${x},${y}`).to.be.at.most(24)
        }
      })

      it('a plain .png still takes the full-size PNG; --max-size with a .png asks for a scaled PNG', async () => {
        const plain = await runArc(['screenshot', '-o', 'helper.png'], {cwd: out, env: env()})
        expect(plain.code, plain.stderr).to.equal(0)
        expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '0', '0', '100', 'png'])
        expect((await readFile(path.join(out, 'helper.png'))).equals(demoPng)).to.equal(true)
        const scaled = await runArc(['screenshot', '-o', 'scaled.png', '--max-size', '512', '--json'], {
          cwd: out,
          env: env(),
        })
        expect(scaled.code, scaled.stderr).to.equal(0)
        expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '512', '512', '100', 'png'])
        expect(JSON.parse(scaled.stdout)).to.deep.include({format: 'png', width: 230, height: 512})
      })

      it('arc annotate asks the helper for a PNG at its output size and draws on it', async () => {
        const run = await runArc(['annotate', '-o', 'marks.jpg', '--json'], {cwd: out, env: env()})
        expect(run.code, run.stderr).to.equal(0)
        expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '700', '700', '100', 'png'])
        const image = await decode(await readFile(path.join(out, 'marks.jpg')))
        expect([image.width, image.height]).to.deep.equal([315, 700])
      })

      it('a black capture sent as a JPEG is still told as black', async () => {
        device().awake = false
        try {
          const run = await runArc(['screenshot', '-o', 'black.jpg', '--max-size', '256', '--json'], {
            cwd: out,
            env: env(),
          })
          expect(run.code, run.stderr).to.equal(0)
          expect(device().helperRequests.at(-1)).to.deep.equal(['screenshot', '256', '256', '90', 'jpeg'])
          expect(JSON.parse(run.stdout)).to.deep.include({format: 'jpeg', black: true})
          expect(run.stderr).to.match(/display .*off|asleep|black/i)
        } finally {
          device().awake = true
        }
      })
    })
  })
})
