import {readFileSync} from 'node:fs'
import path from 'node:path'

import {SnapshotDriver, buildScreenModel} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'
import {startEmulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {AdbServer, connectAdbDriver, parseWmDensity, parseWmSize} from '@arc-cli/core/testing'
import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {DEMO_DIR, useEmulator} from '@arc-cli/test-support/emulator-support'

describe('AdbDriver captureScreen and screenshot (adbkit against arc emulate)', () => {
  const h = useEmulator()

  it('sends the dump and one dumpsys window -a (size and density come from its displays section), and reads them like the snapshot', async () => {
    const driver = await h.driver()
    // The demo's dump carries `hint` attributes, which uiautomator writes from Android 16 (API 36) on.
    h.emu.device('emu-1').properties.set('ro.build.version.sdk', '36')
    const from = h.emu.commands.length
    const requests = h.emu.requests.length
    const capture = await driver
      .captureScreen()
      .finally(() => h.emu.device('emu-1').properties.set('ro.build.version.sdk', '34'))
    const argv = h.argvSince(from)
    expect(argv).to.have.deep.members([
      ['uiautomator', 'dump', '--windows', '/dev/tty'],
      ['dumpsys', 'window', '-a'],
    ])
    // One device shell connection per command.
    expect(h.emu.requests.slice(requests).filter((r) => /^(shell|exec)[,:]/.test(r.raw))).to.have.length(2)
    const expected = await (await SnapshotDriver.open(DEMO_DIR)).captureScreen()
    expect(capture.xml).to.equal(expected.xml)
    expect(capture.screen).to.deep.equal(expected.screen)
    expect(capture.foreground).to.deep.equal(expected.foreground)
    expect(capture.allWindows).to.equal(true)
  })

  it('asks wm size and wm density only when the displays section shows no size, and reads the same screen', async () => {
    const driver = await h.driver()
    const device = h.emu.device('emu-1')
    const whole = await h.server().shell('emu-1', 'dumpsys window -a')
    device.addFault({
      command: 'dumpsys window -a',
      kind: 'garbage',
      output: whole.output.toString('utf8').replace(/^ {4}init=.*\n/m, ''),
    })
    const from = h.emu.commands.length
    const capture = await driver.captureScreen()
    expect(h.argvSince(from)).to.have.deep.members([
      ['uiautomator', 'dump', '--windows', '/dev/tty'],
      ['dumpsys', 'window', '-a'],
      ['wm', 'size'],
      ['wm', 'density'],
    ])
    expect(capture.screen).to.deep.equal((await (await SnapshotDriver.open(DEMO_DIR)).captureScreen()).screen)
  })

  it('takes mFocusedApp=null as the answer (no dumpsys activity), and asks dumpsys activity only when the window manager prints no mFocusedApp', async () => {
    const driver = await h.driver()
    const device = h.emu.device('emu-1')
    const shown = {...device.foreground}
    expect(shown.package, 'the demo names its app').to.be.a('string')
    try {
      device.foreground = {}
      let from = h.emu.commands.length
      const none = await driver.captureScreen()
      expect(h.argvSince(from)).to.have.deep.members([
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['dumpsys', 'window', '-a'],
      ])
      expect(none.foreground).to.deep.equal({})

      device.foreground = shown
      const whole = await h.server().shell('emu-1', 'dumpsys window -a')
      const silent = whole.output.toString('utf8').replace(/^ *(mFocusedApp|mCurrentFocus)=.*\n/gm, '')
      expect(silent).to.not.match(/mFocusedApp|mCurrentFocus/)
      device.addFault({command: 'dumpsys window -a', kind: 'garbage', output: silent})
      from = h.emu.commands.length
      const asked = await driver.captureScreen()
      expect(h.argvSince(from)).to.have.deep.members([
        ['uiautomator', 'dump', '--windows', '/dev/tty'],
        ['dumpsys', 'window', '-a'],
        ['dumpsys', 'activity', 'activities'],
      ])
      expect(asked.foreground.package).to.equal(shown.package)

      // One display in a format arc cannot read, another with no app: not an answer, the activities are asked.
      let n = 0
      const mixed = whole.output
        .toString('utf8')
        .replace(/^( *)mCurrentFocus=.*$/gm, '$1mCurrentFocus=null')
        .replace(
          /^( *)mFocusedApp=.*$/gm,
          (_line, indent: string) => `${indent}mFocusedApp=${n++ === 0 ? 'VendorRecord{7 display0}' : 'null'}`
        )
      expect(n).to.be.greaterThan(1)
      device.addFault({command: 'dumpsys window -a', kind: 'garbage', output: mixed})
      from = h.emu.commands.length
      const vendor = await driver.captureScreen()
      expect(h.argvSince(from)).to.deep.include(['dumpsys', 'activity', 'activities'])
      expect(vendor.foreground.package).to.equal(shown.package)
    } finally {
      device.foreground = shown
    }
  })

  it('takes a screenshot with `screencap -p` and returns the PNG byte for byte', async () => {
    const driver = await h.driver('emu-1')
    const from = h.emu.commands.length
    const png = await driver.screenshot()
    expect(h.argvSince(from)).to.deep.equal([['screencap', '-p']])
    expect(png.equals(readFileSync(path.join(DEMO_DIR, 'screen.png')))).to.equal(true)
  })

  it('captures display 0 by its physical id where screencap warns of several displays (a foldable), not the first one SurfaceFlinger lists', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {devices: {fold: {snapshot: DEMO_DIR, otherDisplay: {width: 1080, height: 2424}}}},
    })
    try {
      const driver = await connectAdbDriver({port: emu.port, host: '127.0.0.1', env: {}})
      const png = await driver.screenshot()
      expect(png.equals(readFileSync(path.join(DEMO_DIR, 'screen.png')))).to.equal(true)
      // Known to have several displays now: the next screenshot looks display 0 up first and captures once.
      const from = emu.commands.length
      expect((await driver.screenshot()).equals(png)).to.equal(true)
      expect(emu.commands.slice(from).map((c) => c.argv)).to.deep.equal([
        ['dumpsys', 'display'],
        ['screencap', '-p', '-d', '4619827259835644672'],
      ])
    } finally {
      await emu.close()
    }
  })

  it('retries the known transient uiautomator failures and succeeds', async () => {
    const driver = await h.driver()
    h.emu.device('emu-1').failNextDumps(1, 'idle-timeout')
    h.emu.device('emu-1').failNextDumps(1, 'null-root')
    const from = h.emu.commands.length
    const capture = await driver.captureScreen()
    expect(capture.xml).to.contain('</hierarchy>')
    expect(h.argvSince(from).filter((a) => a[0] === 'uiautomator')).to.have.length(3)
  })

  it('gives up with SCREEN_NOT_IDLE after three dumps that found no idle state instead of returning an old screen', async () => {
    const driver = await h.driver()
    h.emu.device('emu-1').failNextDumps(3, 'idle-timeout')
    const error = await driver.captureScreen().catch((e: unknown) => e)
    expect(error).to.have.property('code', 'SCREEN_NOT_IDLE')
    expect((error as Error).message).to.match(/never went idle.*could not get idle state.*3 tries/)
  })

  it('gives up with INVALID_DUMP after three null-root dumps', async () => {
    const driver = await h.driver()
    h.emu.device('emu-1').failNextDumps(3, 'null-root')
    const error = await driver.captureScreen().catch((e: unknown) => e)
    expect(error).to.have.property('code', 'INVALID_DUMP')
    expect((error as Error).message).to.match(/null root/)
  })

  it('uses the override size and density (base= in the displays dump, as wm size/density report them) and turns it with the rotation', async () => {
    const emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {devices: {small: {snapshot: DEMO_DIR, wm: {size: '720x1600', density: 320}}}},
    })
    try {
      const driver = await connectAdbDriver({port: emu.port, host: '127.0.0.1', env: {}})
      const capture = await driver.captureScreen()
      expect(capture.screen).to.include({width: 720, height: 1600, density: 320})
      // An override set at run time, and a screen read through wm size/density instead: the same answer.
      const server = new AdbServer({host: '127.0.0.1', port: emu.port, hostSource: 'test', portSource: 'test'}, 10_000)
      await server.shell('small', 'wm size 600x1000; wm density 280')
      expect((await driver.captureScreen()).screen).to.include({width: 600, height: 1000, density: 280})
      const viaWm = await server.shell('small', 'wm size; wm density')
      expect(parseWmSize(viaWm.output.toString())).to.deep.equal({width: 600, height: 1000})
      expect(parseWmDensity(viaWm.output.toString())).to.equal(280)
      const device = emu.device('small')
      device.addFault({command: 'dumpsys window displays', kind: 'garbage', output: ''})
      expect((await driver.captureScreen()).screen).to.include({width: 600, height: 1000, density: 280})
      await server.shell('small', 'wm size reset; wm density reset')
      expect((await driver.captureScreen()).screen).to.include({width: 1080, height: 2400, density: 420})
    } finally {
      await emu.close()
    }
  })
})

describe('screen-state parity: ADB driver against arc emulate vs the snapshot itself', function () {
  const names = fixturesAvailable ? fixtureNames().filter((n) => !n.startsWith('variant-')) : []
  const folders = [{name: 'demo', dir: DEMO_DIR}, ...names.map((n) => ({name: n, dir: fixturePath(n)}))]
  let emu: Awaited<ReturnType<typeof startEmulator>>
  before(async () => {
    emu = await startEmulator({port: 0, devices: folders.map((f, i) => ({serial: `fx-${i}`, snapshot: f.dir}))})
    // Devices that write what the snapshots recorded: `hint` attributes are written from Android 16 (API 36) on.
    for (const device of emu.devices()) device.properties.set('ro.build.version.sdk', '36')
  })
  after(async () => emu?.close())

  folders.forEach((folder, i) => {
    it(`${folder.name}: same TSV (density aside where the snapshot has none)`, async () => {
      const live = await connectAdbDriver({serial: `fx-${i}`, port: emu.port, host: '127.0.0.1', env: {}})
      const recorded = await SnapshotDriver.open(folder.dir)
      const [a, b] = [await live.captureScreen(), await recorded.captureScreen()]
      if (b.screen.density === undefined) a.screen.density = undefined
      // The live read adds what the window manager reported; the recorded dump, given the same, reads alike.
      expect(a.windowManager?.windows.length).to.be.greaterThan(0)
      if (a.windowManager) b.windowManager = a.windowManager
      b.allWindows = a.allWindows
      expect(formatScreenState(buildScreenModel(a))).to.equal(formatScreenState(buildScreenModel(b)))
    })
  })
})
