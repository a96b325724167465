/**
 * `windowInfo()`: the window manager's view without a dump. The ADB driver sends one `dumpsys window -a` only (to
 * `arc emulate`) and reads it as a capture does, and windowInfoOrCapture's capture reuses the reading (the dump
 * alone); a snapshot answers from meta.json, with the window list where it
 * recorded one, and from the files without one.
 */
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {SnapshotDriver, type WindowManagerState} from '@arc-cli/core'
import {expect} from 'chai'

import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml} from '@arc-cli/test-support/dump'

describe('windowInfo: screen and window list without a dump', () => {
  describe('ADB driver (adbkit against arc emulate)', () => {
    const h = useEmulator()

    it('sends one dumpsys window -a only, and reads the screen and windows a capture reads', async () => {
      const driver = await h.driver()
      const from = h.emu.commands.length
      const requests = h.emu.requests.length
      const info = await driver.windowInfo()
      expect(h.argvSince(from)).to.have.deep.members([['dumpsys', 'window', '-a']])
      expect(h.emu.requests.slice(requests).filter((r) => /^(shell|exec)[,:]/.test(r.raw))).to.have.length(1)
      const capture = await driver.captureScreen()
      expect(info.screen).to.deep.equal(capture.screen)
      expect(info.windowManager).to.deep.equal(capture.windowManager)
      expect(info.windowManager!.windows.find((w) => w.type === 'INPUT_METHOD'))
        .to.include({visible: true})
        .and.have.deep.property('frame', [0, 1590, 1080, 2274])
    })

    it("windowInfoOrCapture then dumps only: the window manager's reading is reused, and the capture is a fresh one's", async () => {
      const driver = await h.driver()
      const from = h.emu.commands.length
      const {info, capture: reused} = await driver.windowInfoOrCapture(() => true)
      expect(h.argvSince(from)).to.deep.equal([
        ['dumpsys', 'window', '-a'],
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
      ])
      expect(info).to.deep.equal(await driver.windowInfo())
      expect(reused).to.deep.equal(await driver.captureScreen())
      // Not asked for a dump, it reads the window manager alone; a capture on its own reads the window manager again.
      const alone = h.emu.commands.length
      expect(await driver.windowInfoOrCapture(() => false)).to.deep.equal({info})
      expect(h.argvSince(alone)).to.deep.equal([['dumpsys', 'window', '-a']])
      const again = h.emu.commands.length
      await driver.captureScreen()
      expect(h.argvSince(again)).to.have.deep.members([
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['dumpsys', 'window', '-a'],
      ])
    })

    it('a capture given a reading that names no foreground app asks the activity manager, as a fresh capture does', async () => {
      const driver = await h.driver()
      const whole = (await h.server().shell('emu-1', 'dumpsys window -a')).output.toString('utf8')
      const unfocused = whole.replace(/^.*(mFocusedApp|mCurrentFocus).*$/gm, '')
      expect(unfocused).to.not.equal(whole)
      h.emu.device('emu-1').addFault({command: 'dumpsys window -a', kind: 'garbage', output: unfocused})
      const from = h.emu.commands.length
      const {capture} = await driver.windowInfoOrCapture(() => true)
      expect(h.argvSince(from)).to.have.deep.members([
        ['dumpsys', 'window', '-a'],
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['dumpsys', 'activity', 'activities'],
      ])
      if (!capture) throw new Error('no capture')
      expect(capture.foreground.package).to.be.a('string').and.not.equal('')
    })

    it('a capture given a reading that says mFocusedApp=null dumps only, as a fresh capture does', async () => {
      const driver = await h.driver()
      const device = h.emu.device('emu-1')
      const shown = {...device.foreground}
      try {
        device.foreground = {}
        const from = h.emu.commands.length
        const {capture} = await driver.windowInfoOrCapture(() => true)
        expect(h.argvSince(from)).to.deep.equal([
          ['dumpsys', 'window', '-a'],
          ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ])
        if (!capture) throw new Error('no capture')
        expect(capture.foreground).to.deep.equal({})
      } finally {
        device.foreground = shown
      }
    })

    it('gives no window list when the windows section lists none', async () => {
      const driver = await h.driver()
      const whole = (await h.server().shell('emu-1', 'dumpsys window -a')).output.toString('utf8')
      const empty = whole.replace(/^(WINDOW MANAGER WINDOWS \(dumpsys window windows\)\n)[\s\S]*?(?=^-{10,}$)/m, '$1')
      expect(empty).to.not.equal(whole)
      h.emu.device('emu-1').addFault({command: 'dumpsys window -a', kind: 'garbage', output: empty})
      const info = await driver.windowInfo()
      expect(info).to.not.have.property('windowManager')
      expect(info.screen).to.include({width: 1080, height: 2400, rotation: 0})
    })
  })

  describe('SnapshotDriver', () => {
    let dir: string
    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'arc-window-info-'))
    })
    after(async () => rm(dir, {recursive: true, force: true}))

    it('a snapshot whose meta.json has no window list: its screen, and no list', async () => {
      const info = await (await SnapshotDriver.open(DEMO_DIR, 'demo')).windowInfo()
      expect(info).to.deep.equal({screen: {width: 1080, height: 2400, density: 420, rotation: 0}})
    })

    it('a snapshot that recorded the window manager: its list as recorded, without reading the dump', async () => {
      const snap = path.join(dir, 'recorded')
      const windowManager: WindowManagerState = {
        windows: [
          {
            title: 'InputMethod',
            package: 'com.example.ime',
            type: 'INPUT_METHOD',
            z: 0,
            layer: 141000,
            displayId: 0,
            visible: true,
            frame: [0, 1500, 1080, 2400],
          },
        ],
        focus: 'com.example/com.example.Main',
      }
      const meta = JSON.parse(await readFile(path.join(DEMO_DIR, 'meta.json'), 'utf8'))
      await mkdir(snap)
      // The dump is not valid XML: windowInfo must not need it (captureScreen refuses it).
      await writeFile(path.join(snap, 'window_dump.xml'), 'not a dump')
      await writeFile(
        path.join(snap, 'meta.json'),
        JSON.stringify({...meta, rotation: 1, width: 2400, height: 1080, windowManager})
      )
      const driver = await SnapshotDriver.open(snap)
      expect(await driver.windowInfo()).to.deep.equal({
        screen: {width: 2400, height: 1080, density: 420, rotation: 1},
        windowManager,
      })
      expect(
        await driver.captureScreen().then(
          () => 'read',
          (e: {code: string}) => e.code
        )
      ).to.equal('INVALID_DUMP')
    })

    it('a bare .xml dump: the screen from the dump, and no list', async () => {
      const file = path.join(dir, 'bare.xml')
      await writeFile(file, dumpXml([{pkg: 'com.example', bounds: [0, 0, 720, 1280]}]))
      expect(await (await SnapshotDriver.open(file)).windowInfo()).to.deep.equal({
        screen: {width: 720, height: 1280, density: undefined, rotation: 0},
      })
    })
  })
})
