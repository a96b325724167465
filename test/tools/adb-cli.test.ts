import {mkdtemp, readdir} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {startEmulator, type Emulator} from '@arc-cli/emulator'
import {expect} from 'chai'

import {runArc} from '../support/run-arc.js'

/** Every device command of arc's core, run as a user would (bin/dev.js) against `arc emulate` over ADB_SERVER_SOCKET. */
describe('device commands from the CLI through the ADB driver', function () {
  let emu: Emulator
  let env: NodeJS.ProcessEnv
  const arc = (...args: string[]) => runArc(args, {env})

  before(async () => {
    emu = await startEmulator({port: 0, devices: [{serial: 'emu-1', snapshot: DEMO_DIR}]})
    env = {ADB_SERVER_SOCKET: `tcp:127.0.0.1:${emu.port}`}
  })
  after(async () => emu?.close())

  it('screen-state over ADB prints the same TSV as the snapshot it comes from', async () => {
    const [live, recorded] = await Promise.all([arc('screen-state'), runArc(['screen-state', '--device', DEMO_DIR])])
    expect(live.stderr).to.equal('')
    expect(live.code).to.equal(0)
    expect(live.stdout).to.equal(recorded.stdout)
  })

  const cases: Array<[string[], string | RegExp, string[][]]> = [
    [['devices'], /^emu-1\tdevice\t/, []],
    [['tap', '500', '1000'], 'Tap executed at (500, 1000)', [['wm', 'size'], ['dumpsys', 'window', 'displays'], ['input', 'tap', '500', '1000']]],
    [['long-press', '5', '6', '--duration', '2000'], 'Long press executed at (5, 6) for 2000ms', [['wm', 'size'], ['dumpsys', 'window', 'displays'], ['input', 'swipe', '5', '6', '5', '6', '2000']]],
    [['double-tap', '7', '8'], 'Double tap executed at (7, 8)', [['wm', 'size'], ['dumpsys', 'window', 'displays'], ['input', 'tap', '7', '8'], ['input', 'tap', '7', '8']]],
    [['swipe', '500', '1500', '500', '500'], 'Swipe executed from (500, 1500) to (500, 500) over 300ms', [['wm', 'size'], ['dumpsys', 'window', 'displays'], ['input', 'swipe', '500', '1500', '500', '500', '300']]],
    [['scroll', 'down', '--amount', 'large'], 'Scroll down (large) executed', [['wm', 'size'], ['dumpsys', 'window', 'displays'], ['input', 'swipe', '540', '2100', '540', '300', '300']]],
    [['press', 'back'], 'Back button press executed successfully', [['input', 'keyevent', 'KEYCODE_BACK']]],
    [['press', 'home'], 'Home button press executed successfully', [['input', 'keyevent', 'KEYCODE_HOME']]],
    [['press', 'recents'], 'Recents button press executed successfully', [['input', 'keyevent', 'KEYCODE_APP_SWITCH']]],
    [['press', 'key', 'ENTER'], "Key 'ENTER' pressed successfully", [['input', 'keyevent', 'KEYCODE_ENTER']]],
    [['notifications'], 'Open notifications executed successfully', [['cmd', 'statusbar', 'expand-notifications']]],
    [['quick-settings'], 'Open quick settings executed successfully', [['cmd', 'statusbar', 'expand-settings']]],
    [['app', 'close', 'com.android.settings'], 'App closed successfully: com.android.settings', [['pm', 'path', 'com.android.settings'], ['am', 'force-stop', 'com.android.settings']]],
    [['app', 'list', '--filter', 'system', '--name-query', 'settings'], /"package_id":"com.android.settings"/, [['pm', 'list', 'packages', '-s', '--show-versioncode']]],
    [['logs', '--last-lines', '5', '--level', 'I'], /^\{"logs":".*","line_count":\d+,"truncated":(true|false)\}$/, [['logcat', '-v', 'threadtime', '-t', '6', '*:I']]],
  ]
  for (const [args, text, argv] of cases) {
    it(`arc ${args.join(' ')}`, async () => {
      const from = emu.commands.length
      const run = await arc(...args)
      expect(run.stderr).to.equal('')
      expect(run.code).to.equal(0)
      if (typeof text === 'string') expect(run.stdout.trim()).to.equal(text)
      else expect(run.stdout.trim()).to.match(text)
      const sent = emu.commands.slice(from).map((c) => c.argv)
      // Reads a command makes in parallel (scroll's size and rotation) may arrive in either order.
      if (argv.length > 0) expect(sent).to.have.deep.members(argv)
      if (argv.length > 0) expect(sent.at(-1)).to.deep.equal(argv.at(-1))
    })
  }

  it('arc app open starts the launcher activity', async () => {
    const run = await arc('app', 'open', 'com.android.settings')
    expect(run.stdout.trim()).to.equal('App opened successfully: com.android.settings')
    expect(emu.device('emu-1').foreground.package).to.equal('com.android.settings')
  })

  it('arc snapshot save DIR writes the three files', async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'arc-cli-snap-')), 'snap')
    const run = await arc('snapshot', 'save', dir)
    expect(run.code).to.equal(0)
    expect((await readdir(dir)).sort()).to.deep.equal(['meta.json', 'screen.png', 'window_dump.xml'])
  })

  it('ANDROID_SERIAL and --device pick the device; a wrong one exits 4 with DEVICE_NOT_FOUND', async () => {
    expect((await runArc(['tap', '1', '1'], {env: {...env, ANDROID_SERIAL: 'emu-1'}})).code).to.equal(0)
    const wrong = await arc('tap', '1', '1', '--device', 'nope')
    expect(wrong.code).to.equal(4)
    expect(wrong.stderr).to.contain('[DEVICE_NOT_FOUND]')
  })

  it('--adb-host/--adb-port reach the server without the environment', async () => {
    const run = await runArc(['press', 'home', '--adb-host', '127.0.0.1', '--adb-port', String(emu.port)])
    expect(run.code).to.equal(0)
  })

  it('range errors exit 2 before anything is sent', async () => {
    const from = emu.commands.length
    const run = await arc('tap', '-5', '10')
    expect(run.code).to.equal(2)
    expect(emu.commands.length).to.equal(from)
  })
})
