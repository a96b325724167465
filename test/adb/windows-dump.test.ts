/**
 * A device whose uiautomator knows `dump --windows` answers in the `<displays>` form. Against `arc emulate` giving
 * its devices that uiautomator (scenario `windowsDump`), the ADB driver reads every real screen to the same
 * screen-state as from a device without it: the same rows and ids, the same window headers (the emulator takes
 * both reads' metadata from one window list; focus aside where the plain read has to guess it), and the capture
 * says every window is there.
 */
import {buildScreenModel} from '@arc-cli/core'
import {formatScreenState} from '@arc-cli/plugin-screen-state'
import {startEmulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {AdbServer} from '../../packages/core/src/driver/adb/adb-client.js'
import {connectAdbDriver} from '../../packages/core/src/driver/adb/connect.js'
import {fixtureNames, fixturePath, fixturesAvailable} from '../support/paths.js'
import {DEMO_DIR} from './emulator-support.js'

describe('uiautomator dump --windows in the <displays> form, over ADB against arc emulate', function () {
  const names = fixturesAvailable ? fixtureNames().filter((n) => !n.startsWith('variant-')) : []
  const folders = [{name: 'demo', dir: DEMO_DIR}, ...names.map((n) => ({name: n, dir: fixturePath(n)}))]
  let emu: Awaited<ReturnType<typeof startEmulator>>
  before(async () => {
    const devices: Record<string, {snapshot: string; windowsDump: boolean}> = {}
    folders.forEach((f, i) => {
      devices[`plain-${i}`] = {snapshot: f.dir, windowsDump: false}
      devices[`windows-${i}`] = {snapshot: f.dir, windowsDump: true}
    })
    emu = await startEmulator({port: 0, devices: [], scenario: {devices}})
  })
  after(async () => emu?.close())

  const connect = (serial: string) => connectAdbDriver({serial, port: emu.port, host: '127.0.0.1', env: {}})

  it('the device answers --windows with every window in <displays>, and without the flag with the plain dump', async () => {
    const server = new AdbServer({host: '127.0.0.1', port: emu.port, hostSource: 'test', portSource: 'test'}, 10_000)
    const windows = (await server.shell('windows-0', 'uiautomator dump --windows /dev/tty')).output.toString('utf8')
    expect(windows).to.match(/^<\?xml[^>]*\?><displays><display id="0"><window index="0" title="[^"]*" bounds="\[\d+,\d+\]\[\d+,\d+\]" active="(true|false)"/)
    expect(windows).to.match(/<\/hierarchy><\/window><\/display><\/displays>UI hierchary dumped to: \/dev\/tty\n$/)
    const plain = (await server.shell('windows-0', 'uiautomator dump /dev/tty')).output.toString('utf8')
    expect(plain).to.match(/^<\?xml[^>]*\?><hierarchy rotation="0">/)
    const ignored = (await server.shell('plain-0', 'uiautomator dump --windows /dev/tty')).output.toString('utf8')
    expect(ignored).to.equal(plain)
  })

  folders.forEach((folder, i) => {
    it(`${folder.name}: the same screen-state as from a device without the flag`, async () => {
      const [plain, windows] = await Promise.all([connect(`plain-${i}`), connect(`windows-${i}`)])
      const [a, b] = [await plain.captureScreen(), await windows.captureScreen()]
      expect(a.hierarchy!.listedWindows).to.equal(undefined)
      expect(b.hierarchy!.listedWindows).to.have.length(b.hierarchy!.windows.length)
      expect(b.xml).to.match(/<\/displays>$/)
      expect(b.allWindows).to.equal(true)
      const [modelA, modelB] = [buildScreenModel(a), buildScreenModel(b)]
      expect(modelB.elements.map((e) => e.id)).to.deep.equal(modelA.elements.map((e) => e.id))
      // Where the window manager names no focused window, the plain read guesses one; the <displays> form says
      // which window has focus, and here none has.
      const focus = a.windowManager?.focus
      const expected = formatScreenState(modelA)
      expect(formatScreenState(modelB)).to.equal(focus === undefined ? expected.replace(/( activity:\S+)? focused:true ---/g, ' focused:false ---') : expected)
      expect(modelB.windows.some((w) => w.focused)).to.equal(focus !== undefined)
    })
  })
})
