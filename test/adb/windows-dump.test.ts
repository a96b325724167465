/**
 * A device whose uiautomator knows `dump --windows` answers in the `<displays>` form. Against `arc emulate` giving
 * its devices that uiautomator (scenario `windowsDump`), the ADB driver reads every real screen to the same
 * screen-state as from a device without it: the same rows and ids, the same window headers (the emulator takes
 * both reads' metadata from one window list; focus aside where the plain read has to guess it), and the capture
 * says every window is there.
 */
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, MemoryDeviceState, runTool} from '@arc-cli/core'
import {formatCompact, formatScreenState, tools as screenTools} from '@arc-cli/plugin-screen-state'
import {startEmulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'

import {AdbServer, connectAdbDriver} from '@arc-cli/core/testing'
import {fixtureNames, fixturePath, fixturesAvailable} from '@arc-cli/test-support/paths'
import {displaysXml} from '@arc-cli/test-support/dump'
import {DEMO_DIR} from '@arc-cli/test-support/emulator-support'

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
    expect(windows).to.match(
      /^<\?xml[^>]*\?><displays><display id="0"><window index="0" title="[^"]*" bounds="\[\d+,\d+\]\[\d+,\d+\]" active="(true|false)"/
    )
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
      expect(formatScreenState(modelB)).to.equal(
        focus === undefined ? expected.replace(/( activity:\S+)? focused:true ---/g, ' focused:false ---') : expected
      )
      expect(modelB.windows.some((w) => w.focused)).to.equal(focus !== undefined)
    })
  })
})

describe('a <displays> dump with a window on another display, over ADB against arc emulate', function () {
  let dir: string
  let emu: Awaited<ReturnType<typeof startEmulator>>
  const button = (text: string, bounds: [number, number, number, number]) => ({
    cls: 'android.widget.Button',
    text,
    attrs: {clickable: 'true'},
    bounds,
  })
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-displays-'))
    const xml = displaysXml({
      0: [
        {
          type: 'TYPE_APPLICATION',
          title: 'Main',
          layer: 1,
          focused: true,
          tree: {pkg: 'com.main', bounds: [0, 0, 1080, 2400], children: [button('Play', [100, 300, 500, 400])]},
        },
      ],
      2: [
        {
          type: 'TYPE_APPLICATION',
          title: 'Cover',
          layer: 3,
          bounds: [0, 0, 720, 720],
          tree: {pkg: 'com.cover', bounds: [0, 0, 720, 720], children: [button('Pause', [100, 300, 500, 400])]},
        },
      ],
    })
    await writeFile(path.join(dir, 'window_dump.xml'), xml)
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {devices: {two: {snapshot: path.join(dir, 'window_dump.xml'), windowsDump: true}}},
    })
  })
  after(async () => {
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })

  const call = (name: string, input: Record<string, unknown>) =>
    runTool(
      [...tools, ...screenTools].find((t) => t.name === name)!,
      {input},
      {
        config: {},
        cwd: process.cwd(),
        openDriver: () => connectAdbDriver({serial: 'two', port: emu.port, host: '127.0.0.1', env: {}}),
        stateFor: () => new MemoryDeviceState(),
      }
    )

  it('says which display a window is on, and lists the main display first in compact form', async () => {
    const driver = await connectAdbDriver({serial: 'two', port: emu.port, host: '127.0.0.1', env: {}})
    const model = buildScreenModel(await driver.captureScreen())
    await driver.close()
    expect(model.windows.map((w) => [w.pkg, w.display, w.layer])).to.deep.equal([
      ['com.main', 0, 1],
      ['com.cover', 2, 3],
    ])
    const tsv = formatScreenState(model)
    expect(tsv).to.contain('--- window:0 type:APPLICATION pkg:com.main title:Main layer:1 focused:true ---')
    expect(tsv).to.contain(
      '--- window:1 display:2 type:APPLICATION pkg:com.cover title:Cover layer:3 focused:false ---'
    )
    const {data} = (await call('get_screen_state', {})) as {data: {windows: Array<{display: number}>}}
    expect(data.windows.map((w) => w.display)).to.deep.equal([0, 2])
    const compact = formatCompact(model)
      .split('\n')
      .filter((line) => line.startsWith('## '))
    expect(compact).to.deep.equal(['## application com.main focused', '## application com.cover display:2'])
  })

  it('refuses to act on an element of another display, and sends nothing; acts on the main display', async () => {
    const driver = await connectAdbDriver({serial: 'two', port: emu.port, host: '127.0.0.1', env: {}})
    const model = buildScreenModel(await driver.captureScreen())
    await driver.close()
    const id = (text: string) => model.elements.find((e) => e.text === text)!.id
    const from = emu.commands.length
    const refused = await call('click_element', {element_id: id('Pause')}).then(
      () => expect.fail('expected an error'),
      (e: Error & {code: string}) => e
    )
    expect(refused.code).to.equal('UNSUPPORTED')
    expect(refused.message).to.contain('is on display 2').and.contain('main display (0) only')
    expect(emu.commands.slice(from).map((c) => c.argv[0])).to.not.include('input')
    await call('click_element', {element_id: id('Play')})
    expect(emu.commands.slice(from).map((c) => c.argv.join(' '))).to.include('input tap 300 350')
  })
})
