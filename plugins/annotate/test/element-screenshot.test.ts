/**
 * `arc screenshot --element ID`: the screenshot cut to the element's visible part, the id resolved as element
 * actions resolve it (STALE_ELEMENT rather than a guess), INVALID_INPUT for an element wholly off screen, and the
 * file written as a whole screenshot's is (announced; nothing written on a refusal).
 */
import {mkdtemp, readdir, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

import {createCanvas} from '@napi-rs/canvas'
import {buildScreenModel, DEMO_DIR, SnapshotDriver} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {decode, dumpXml, makeSnapshot} from './support.js'

const demo = buildScreenModel(await (await SnapshotDriver.open(DEMO_DIR)).captureScreen())
const ADD = demo.elements.find((e) => e.resId.endsWith(':id/add_button'))!

/** A 1080x2400 screen, grey with one blue block where the half-off-screen button lies on it. */
async function bluePng(): Promise<Buffer> {
  const canvas = createCanvas(1080, 2400)
  const ctx = canvas.getContext('2d')
  ctx.fillStyle = '#404040'
  ctx.fillRect(0, 0, 1080, 2400)
  ctx.fillStyle = '#0000ff'
  ctx.fillRect(900, 100, 180, 200)
  return canvas.encode('png')
}

describe('arc screenshot --element', function () {
  this.timeout(60_000)
  let out: string
  const env = () => ({ARC_CACHE_DIR: path.join(out, 'cache')})
  before(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'arc-element-shot-'))
  })
  after(async () => rm(out, {recursive: true, force: true}))

  it('cuts the demo screenshot to the element, pixel for pixel, and announces the file', async () => {
    const run = await runArc(['screenshot', '--device', 'demo', '--element', ADD.id, '-o', 'add.png'], {
      cwd: out,
      env: env(),
    })
    expect(run.code, run.stderr).to.equal(0)
    const file = path.join(out, 'add.png')
    const [left, top, right, bottom] = ADD.bounds
    const bytes = await readFile(file)
    expect(run.stdout.trim()).to.equal(
      `Screenshot of ${ADD.id} saved: ${file} (${right - left}x${bottom - top} png, ${bytes.length} bytes)`
    )
    const crop = await decode(bytes)
    const screen = await decode(await readFile(path.join(DEMO_DIR, 'screen.png')))
    expect([crop.width, crop.height]).to.deep.equal([right - left, bottom - top])
    for (let y = 0; y < crop.height; y++) {
      for (let x = 0; x < crop.width; x++) {
        if (crop.at(x, y).join() !== screen.at(left + x, top + y).join())
          expect.fail(`pixel ${x},${y} differs from the screen's ${left + x},${top + y}`)
      }
    }
  })

  it('--json names the element and its visible bounds; a compact id and JPEG work too', async () => {
    const run = await runArc(
      ['screenshot', '--device', 'demo', '--element', ADD.id.slice(5), '-o', 'add.jpg', '--json'],
      {cwd: out, env: env()}
    )
    expect(run.code, run.stderr).to.equal(0)
    const data = JSON.parse(run.stdout)
    const [left, top, right, bottom] = ADD.bounds
    const bytes = await readFile(path.join(out, 'add.jpg'))
    expect(data).to.deep.equal({
      path: path.join(out, 'add.jpg'),
      format: 'jpeg',
      width: right - left,
      height: bottom - top,
      bytes: bytes.length,
      element_id: ADD.id,
      bounds: {left, top, right, bottom},
    })
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xff, 0xd8, 0xff])
  })

  it('crops to the visible part of an element half off screen; refuses one wholly off screen, writing nothing; warns of a covered one', async () => {
    const dir = await makeSnapshot({
      xml: dumpXml([
        {
          bounds: [0, 0, 1080, 2400],
          children: [
            {
              cls: 'android.widget.Button',
              res: 'com.example:id/half',
              text: 'Half',
              attrs: {clickable: 'true'},
              bounds: [900, 100, 1300, 300],
            },
            {
              cls: 'android.widget.Button',
              res: 'com.example:id/gone',
              text: 'Gone',
              attrs: {clickable: 'true'},
              bounds: [0, 2500, 500, 2600],
            },
            {
              cls: 'android.widget.Button',
              res: 'com.example:id/covered',
              text: 'Covered',
              attrs: {clickable: 'true', 'visible-to-user': 'false'},
              bounds: [0, 1000, 500, 1100],
            },
          ],
        },
      ]),
      png: await bluePng(),
      meta: {width: 1080, height: 2400},
    })
    const model = buildScreenModel(await (await SnapshotDriver.open(dir)).captureScreen())
    const id = (text: string) => model.elements.find((e) => e.text === text)!.id
    const half = await runArc(['screenshot', '--device', dir, '--element', id('Half'), '-o', 'half.png', '--json'], {
      cwd: out,
      env: env(),
    })
    expect(half.code, half.stderr).to.equal(0)
    expect(JSON.parse(half.stdout)).to.include({width: 180, height: 200})
    expect(JSON.parse(half.stdout).bounds).to.deep.equal({left: 900, top: 100, right: 1080, bottom: 300})
    const pixels = await decode(await readFile(path.join(out, 'half.png')))
    for (const [x, y] of [
      [0, 0],
      [179, 0],
      [0, 199],
      [179, 199],
      [90, 100],
    ] as const)
      expect(pixels.at(x, y)).to.deep.equal([0, 0, 255, 255])

    const covered = await runArc(['screenshot', '--device', dir, '--element', id('Covered'), '-o', 'covered.png'], {
      cwd: out,
      env: env(),
    })
    expect(covered.code, covered.stderr).to.equal(0)
    expect(covered.stderr).to.include(
      `element ${id('Covered')} is marked not visible to the user: the image shows what covers it`
    )

    const before = (await readdir(out)).sort()
    const gone = await runArc(['screenshot', '--device', dir, '--element', id('Gone'), '-o', 'gone.png'], {
      cwd: out,
      env: env(),
    })
    expect(gone.code).to.equal(2)
    expect(gone.stderr).to.include(`INVALID_INPUT`)
    expect(gone.stderr).to.include(`element ${id('Gone')} is off screen: no part of it is visible to crop to`)
    const bad = await runArc(['screenshot', '--device', dir, '--element', 'not-an-id', '-o', 'bad.png'], {
      cwd: out,
      env: env(),
    })
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.include('--element "not-an-id" is not an element id')
    expect((await readdir(out)).sort()).to.deep.equal(before)
    await rm(dir, {recursive: true, force: true})
  })

  describe('over ADB', () => {
    let emu: Emulator
    before(async () => {
      const other = await makeSnapshot({
        xml: dumpXml([
          {
            bounds: [0, 0, 1080, 2400],
            children: [{cls: 'android.widget.TextView', text: 'Elsewhere', bounds: [0, 0, 500, 100]}],
          },
        ]),
      })
      emu = await startEmulator({
        port: 0,
        devices: [],
        scenario: {devices: {'emu-1': {screens: {demo: DEMO_DIR, other}}}},
      })
    })
    after(async () => emu?.close())

    it('an id the screen no longer shows fails with STALE_ELEMENT (exit 18), with no screencap and no file', async () => {
      const adb = {...env(), ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`, ANDROID_SERIAL: 'emu-1'}
      expect((await runArc(['screen-state'], {cwd: out, env: adb})).code).to.equal(0)
      const shot = await runArc(['screenshot', '--element', ADD.id, '-o', 'live.png'], {cwd: out, env: adb})
      expect(shot.code, shot.stderr).to.equal(0)
      expect((await decode(await readFile(path.join(out, 'live.png')))).width).to.equal(ADD.bounds[2] - ADD.bounds[0])

      emu.device('emu-1').showScreen('other')
      const from = emu.commands.length
      const stale = await runArc(['screenshot', '--element', ADD.id, '-o', 'stale.png'], {cwd: out, env: adb})
      expect(stale.code).to.equal(18)
      expect(stale.stderr).to.include('STALE_ELEMENT')
      expect(emu.commands.slice(from).some((c) => c.argv[0] === 'screencap')).to.equal(false)
      expect((await readdir(out)).includes('stale.png')).to.equal(false)
    })
  })
})
