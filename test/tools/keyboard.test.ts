/**
 * `arc keyboard status` and `arc keyboard hide` against `arc emulate`, whose devices model the keyboard: the demo
 * screen shows one, a BACK closes it (the app sees nothing) and a tap on an edit field brings it back; a BACK with
 * no keyboard shown follows the scenario's transition, leaving the screen. And against the demo snapshot.
 */
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {buildScreenModel, DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {connectAdbDriver} from '@arc-cli/core/testing'
import {hideKeyboard, keyboardStatus} from '../../src/tools/keyboard.js'
import {dumpXml} from '@arc-cli/test-support/dump'
import {runArc} from '@arc-cli/test-support/run-arc'
import {toolContext} from '@arc-cli/test-support/tool-context'

describe('keyboard status and hide (arc emulate)', function () {
  this.timeout(60_000)
  let dir: string
  let emu: Emulator
  const device = () => emu.device('emu-1')

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arc-keyboard-'))
    await writeFile(
      path.join(dir, 'list.xml'),
      dumpXml([
        {
          pkg: 'com.example',
          bounds: [0, 0, 1080, 2400],
          children: [{cls: 'android.widget.TextView', text: 'List', bounds: [0, 0, 500, 100]}],
        },
      ])
    )
    emu = await startEmulator({
      port: 0,
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {form: DEMO_DIR, list: path.join(dir, 'list.xml')},
            // Where an input leads, not when its screen shows: a screen a tap or key opens shows at once (a phone's transition
            // time, which the reads after an action wait for, is test/tools/read-after-action.test.ts's).
            timing: {transitionMs: 0},
            transitions: [{from: 'form', keyevent: 'BACK', to: 'list'}],
          },
          'emu-9': {
            screens: {form: DEMO_DIR},
            properties: {'ro.build.version.sdk': '28', 'ro.build.version.release': '9'},
            windowsDump: true,
          },
        },
      },
    })
  })
  after(async () => {
    await emu?.close()
    await rm(dir, {recursive: true, force: true})
  })
  beforeEach(() => {
    for (const serial of ['emu-1', 'emu-9']) {
      const d = emu.device(serial)
      d.showScreen('form')
      d.keyboardDismissed = false
      d.clearFaults()
    }
  })

  async function run(tool: typeof hideKeyboard | typeof keyboardStatus, serial = 'emu-1') {
    const driver = await connectAdbDriver({serial, port: emu.port, host: '127.0.0.1', env: {}})
    const from = emu.commands.length
    try {
      const ctx = toolContext(driver, {cwd: dir})
      const result = await tool.handler(ctx, {})
      const sent = emu.commands
        .slice(from)
        .map((c) => c.argv)
        .filter((a) => a[0] === 'input')
      return {text: result.text, data: result.data, sent, screen: buildScreenModel(await driver.captureScreen())}
    } finally {
      await driver.close()
    }
  }
  const keyboardWindows = (r: {screen: ReturnType<typeof buildScreenModel>}) =>
    r.screen.windows.filter((w) => w.type === 'INPUT_METHOD').length

  it('status reads the input method service and the window list: the demo screen shows a keyboard', async () => {
    const r = await run(keyboardStatus)
    expect(r.text).to.equal('Keyboard shown')
    expect(r.data).to.deep.equal({shown: true, input_method: true, window: true})
    expect(r.sent).to.deep.equal([])
  })

  it('hide presses BACK once, stays on the screen, and the keyboard is gone from the dump and both sources', async () => {
    const hidden = await run(hideKeyboard)
    expect(hidden.text).to.equal('Keyboard hidden')
    expect(hidden.data).to.deep.equal({hidden: true, was_shown: true})
    expect(hidden.sent).to.deep.equal([['input', 'keyevent', 'KEYCODE_BACK']])
    expect(device().screenName).to.equal('form')
    expect(keyboardWindows(hidden)).to.equal(0)
    expect(hidden.screen.elements.some((e) => e.resId.endsWith(':id/add_button'))).to.equal(true)
    expect((await run(keyboardStatus)).data).to.deep.equal({shown: false, input_method: false, window: false})

    // Again: no keyboard, so nothing is sent and the screen stays; a plain BACK now leaves it.
    const again = await run(hideKeyboard)
    expect(again.text).to.equal('No keyboard shown: nothing sent')
    expect(again.data).to.deep.equal({hidden: false, was_shown: false})
    expect(again.sent).to.deep.equal([])
    expect(device().screenName).to.equal('form')
    const driver = await connectAdbDriver({serial: 'emu-1', port: emu.port, host: '127.0.0.1', env: {}})
    await driver.pressKey('BACK')
    await driver.close()
    expect(device().screenName).to.equal('list')
  })

  it('a tap on the edit field brings the keyboard back', async () => {
    await run(hideKeyboard)
    const field = (await run(keyboardStatus)).screen.elements.find((e) => e.resId.endsWith(':id/new_item'))!
    const driver = await connectAdbDriver({serial: 'emu-1', port: emu.port, host: '127.0.0.1', env: {}})
    await driver.tap({x: (field.bounds[0] + field.bounds[2]) >> 1, y: (field.bounds[1] + field.bounds[3]) >> 1})
    await driver.close()
    const r = await run(keyboardStatus)
    expect(r.data).to.deep.equal({shown: true, input_method: true, window: true})
    expect(keyboardWindows(r)).to.equal(1)
  })

  it('Android 9 layout of dumpsys input_method, and the --windows dump leaves the closed keyboard out', async () => {
    expect((await run(keyboardStatus, 'emu-9')).data).to.deep.equal({shown: true, input_method: true, window: true})
    const hidden = await run(hideKeyboard, 'emu-9')
    expect(hidden.data).to.deep.equal({hidden: true, was_shown: true})
    expect(emu.device('emu-9').windowsDump).to.equal(true)
    expect(keyboardWindows(hidden)).to.equal(0)
    expect(hidden.screen.windows.length).to.be.greaterThan(1)
  })

  it('sources that disagree for good (input method active, no keyboard window: a hardware keyboard) send nothing', async () => {
    await run(hideKeyboard)
    device().addFault({
      command: 'dumpsys input_method',
      kind: 'garbage',
      output: '  mShowRequested=true mShowExplicitlyRequested=false mShowForced=false mInputShown=true\n',
      times: 1000,
    })
    const started = Date.now()
    const r = await run(hideKeyboard)
    expect(r.text).to.equal(
      'No keyboard shown: nothing sent (the input method is active but no keyboard window is on screen, as with a hardware keyboard)'
    )
    expect(r.sent).to.deep.equal([])
    expect(Date.now() - started).to.be.at.least(1000)
    expect((await run(keyboardStatus)).data).to.deep.equal({shown: false, input_method: true, window: false})
  })

  it('a keyboard still reported after BACK fails with TIMEOUT, naming what the device says', async () => {
    device().addFault({command: 'dumpsys input_method', kind: 'garbage', output: '  mInputShown=true\n', times: 1000})
    const driver = await connectAdbDriver({serial: 'emu-1', port: emu.port, host: '127.0.0.1', env: {}})
    const ctx = toolContext(driver, {cwd: dir})
    const error = await hideKeyboard.handler(ctx, {}).then(
      () => undefined,
      (e: unknown) => e
    )
    await driver.close()
    expect(error).to.include({code: 'TIMEOUT'})
    expect((error as Error).message).to.equal('the keyboard still shows on emu-1 3 s after BACK was pressed')
    expect((error as {details: unknown}).details).to.deep.equal({input_method: true, window: false})
  })

  it('from the CLI: --json for both, exit 0; on the demo snapshot status reads the dump and hide is refused read-only', async () => {
    const env = {
      ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`,
      ANDROID_SERIAL: 'emu-1',
      ARC_CACHE_DIR: path.join(dir, 'cache'),
    }
    const first = await runArc(['keyboard', 'hide', '--json'], {env})
    expect(first.code).to.equal(0)
    expect(JSON.parse(first.stdout)).to.deep.equal({hidden: true, was_shown: true})
    const second = await runArc(['keyboard', 'hide'], {env})
    expect([second.code, second.stdout.trim()]).to.deep.equal([0, 'No keyboard shown: nothing sent'])
    expect(device().screenName).to.equal('form')

    const demo = await runArc(['keyboard', 'status', '--device', 'demo', '--json'], {
      env: {ARC_CACHE_DIR: path.join(dir, 'cache')},
    })
    expect(JSON.parse(demo.stdout)).to.deep.equal({shown: true, input_method: null, window: true})
    const refused = await runArc(['keyboard', 'hide', '--device', 'demo'], {
      env: {ARC_CACHE_DIR: path.join(dir, 'cache')},
    })
    expect(refused.code).to.equal(7)
    expect(refused.stderr).to.include('DEVICE_READ_ONLY')
  })
})
