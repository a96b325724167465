import {mkdtemp, readdir, readFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {DEMO_DIR} from '@arc-cli/core'
import {expect} from 'chai'

import {runArc} from '@arc-cli/test-support/run-arc'
import {useEmulator} from '@arc-cli/test-support/emulator-support'

/** Every device command of arc's core, run as a user would (bin/dev.js) against `arc emulate` over ADB_SERVER_SOCKET. */
describe('device commands from the CLI through the ADB driver', function () {
  const h = useEmulator()
  const arc = (...args: string[]) => runArc(args, {env: h.env})

  it('screen-state over ADB prints the snapshot it comes from, with the window titles the window manager reported', async () => {
    // The demo's dump carries `hint` attributes, which a device writes only where its uiautomator does (API 36 here).
    const device = h.emu.device('emu-1')
    device.properties.set('ro.build.version.sdk', '36')
    const [live, recorded] = await Promise.all([
      arc('screen-state'),
      runArc(['screen-state', '--device', DEMO_DIR]),
    ]).finally(() => device.properties.set('ro.build.version.sdk', '34'))
    expect(live.stderr).to.equal('')
    expect(live.code).to.equal(0)
    const headers = live.stdout.split('\n').filter((l) => l.startsWith('--- window:'))
    expect(headers.map((h) => /title:(\S+)/.exec(h)?.[1])).to.deep.equal([
      'InputMethod',
      'NavigationBar0',
      'StatusBar',
      'dev.arc.demo.groceries/dev.arc.demo.groceries.ListActivity',
    ])
    // The recorded dump has no window manager to ask: everything but the titles is the same.
    expect(live.stdout.replace(/ title:\S+/g, ' title:-')).to.equal(recorded.stdout)
  })

  /** Arguments, the output, the device programs run (the last one last, unless `pipeline`: its programs start together). */
  const cases: Array<[string[], string | RegExp, string[][], {pipeline: true}?]> = [
    [['devices'], /^emu-1\tdevice\t/, []],
    // A touch asks first whether the display is on (`dumpsys power`): a sleeping phone drops touches.
    [
      ['tap', '500', '1000'],
      'Tap executed at (500, 1000)',
      [
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'power'],
        ['input', 'tap', '500', '1000'],
      ],
    ],
    [
      ['long-press', '5', '6', '--duration', '2000'],
      'Long press executed at (5, 6) for 2000ms',
      [
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'power'],
        ['input', 'swipe', '5', '6', '5', '6', '2000'],
      ],
    ],
    [
      ['double-tap', '7', '8'],
      'Double tap executed at (7, 8)',
      [
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'power'],
        ['input', 'tap', '7', '8'],
        ['input', 'tap', '7', '8'],
      ],
    ],
    [
      ['swipe', '500', '1500', '500', '500'],
      'Swipe executed from (500, 1500) to (500, 500) over 300ms',
      [
        ['dumpsys', 'window', 'displays'],
        ['dumpsys', 'power'],
        ['input', 'swipe', '500', '1500', '500', '500', '300'],
      ],
    ],
    // scroll asks the window manager where the keyboard (1590-2274 on the demo) and the bars are, no dump: 90% of the 1527 px left.
    [
      ['scroll', 'down', '--amount', 'large'],
      'Scroll down (large) executed',
      [
        ['dumpsys', 'window', '-a'],
        ['dumpsys', 'power'],
        ['input', 'swipe', '540', '1513', '540', '139', '300'],
      ],
    ],
    [['press', 'back'], 'Back button press executed successfully', [['input', 'keyevent', 'KEYCODE_BACK']]],
    [['press', 'home'], 'Home button press executed successfully', [['input', 'keyevent', 'KEYCODE_HOME']]],
    [['press', 'recents'], 'Recents button press executed successfully', [['input', 'keyevent', 'KEYCODE_APP_SWITCH']]],
    [['press', 'key', 'BACK'], "Key 'BACK' pressed successfully", [['input', 'keyevent', 'KEYCODE_BACK']]],
    [
      ['press', 'key', 'VOLUME_UP'],
      "Key 'VOLUME_UP' pressed successfully",
      [['input', 'keyevent', 'KEYCODE_VOLUME_UP']],
    ],
    [
      ['press', 'key', 'keycode_dpad_center'],
      "Key 'DPAD_CENTER' pressed successfully",
      [['input', 'keyevent', 'KEYCODE_DPAD_CENTER']],
    ],
    [['press', 'key', '26'], "Key 'POWER' pressed successfully", [['input', 'keyevent', '26']]],
    [['press', 'key', 'KEYCODE_5'], "Key '5' pressed successfully", [['input', 'keyevent', 'KEYCODE_5']]],
    [['press', 'key', '900'], "Key '900' pressed successfully", [['input', 'keyevent', '900']]],
    [['notifications'], 'Open notifications executed successfully', [['cmd', 'statusbar', 'expand-notifications']]],
    [['quick-settings'], 'Open quick settings executed successfully', [['cmd', 'statusbar', 'expand-settings']]],
    [
      ['app', 'close', 'com.android.settings'],
      'App closed successfully: com.android.settings',
      [
        ['pm', 'path', 'com.android.settings'],
        ['am', 'force-stop', 'com.android.settings'],
      ],
    ],
    [
      ['app', 'list', '--filter', 'system', '--name-query', 'settings'],
      /^PACKAGE +VERSION +TYPE\n(.*\n)*com\.android\.settings +14 \(34\) +system$/m,
      [
        ['pm', 'list', 'packages', '-s', '--show-versioncode'],
        ['dumpsys', 'package', 'packages'],
        ['grep', '-E', '^[^ ]|^ *(Package \\[|versionName=|versionCode=|compat name=)'],
      ],
      {pipeline: true},
    ],
    [
      ['app', 'open-url', 'https://example.com/?q=a&b=c'],
      'URL opened successfully: https://example.com/?q=a&b=c',
      [['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', 'https://example.com/?q=a&b=c']],
    ],
    [
      ['logs', '--last-lines', '5', '--level', 'I'],
      /^(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [IWEF]\/\S+: .*\n?){5}$/,
      [
        ['logcat', '-v', 'threadtime', '-d', '*:I'],
        ['tail', '-n', '14'],
      ],
      {pipeline: true},
    ],
  ]
  // `press key 26` is POWER: the phone goes to sleep, as a real one does, and a sleeping phone refuses touches and
  // warns on reads. Each row after it starts with the display on again (no key event: the device's state alone).
  afterEach(() => {
    h.emu.device('emu-1').awake = true
  })
  for (const [args, text, argv, how] of cases) {
    it(`arc ${args.join(' ')}`, async () => {
      const from = h.emu.commands.length
      const run = await arc(...args)
      expect(run.stderr).to.equal('')
      expect(run.code).to.equal(0)
      if (typeof text === 'string') expect(run.stdout.trim()).to.equal(text)
      else expect(run.stdout.trim()).to.match(text)
      const sent = h.emu.commands.slice(from).map((c) => c.argv)
      // Reads a command makes in parallel (a touch's size and rotation, scroll's window reads) may arrive in any order.
      if (argv.length > 0) expect(sent).to.have.deep.members(argv)
      if (argv.length > 0 && !how?.pipeline) expect(sent.at(-1)).to.deep.equal(argv.at(-1))
    })
  }

  it('status-bar commands say which panel they opened under --json', async () => {
    expect(JSON.parse((await arc('notifications', '--json')).stdout)).to.deep.equal({panel: 'notifications'})
    expect(JSON.parse((await arc('quick-settings', '--json')).stdout)).to.deep.equal({panel: 'quick_settings'})
  })

  it('arc app open starts the launcher activity', async () => {
    const run = await arc('app', 'open', 'com.android.settings')
    expect(run.stdout.trim()).to.equal('App opened successfully: com.android.settings')
    expect(h.emu.device('emu-1').foreground.package).to.equal('com.android.settings')
  })

  it('arc snapshot save DIR writes the three files', async () => {
    // An earlier `press back` closed the demo's keyboard (the emulator models it): show it again, so it is recorded.
    h.emu.device('emu-1').keyboardDismissed = false
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'arc-cli-snap-')), 'snap')
    const run = await arc('snapshot', 'save', dir)
    expect(run.code).to.equal(0)
    expect((await readdir(dir)).sort()).to.deep.equal(['meta.json', 'screen.png', 'window_dump.xml'])
    // meta.json says what the window manager reported, and reading the snapshot back uses it.
    const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8'))
    // (An earlier test opened Settings, which this virtual screen does not show: the groceries window is then
    // an unfocused APPLICATION window, as a real device would report it.)
    expect(meta.windowManager.windows.map((w: {title: string; type: string}) => `${w.type} ${w.title}`)).to.deep.equal([
      'INPUT_METHOD InputMethod',
      'NAVIGATION_BAR NavigationBar0',
      'STATUS_BAR StatusBar',
      'APPLICATION dev.arc.demo.groceries',
      'WALLPAPER com.android.systemui.wallpapers.ImageWallpaper',
    ])
    const [live, saved] = await Promise.all([arc('screen-state'), runArc(['screen-state', '--device', dir])])
    expect(saved.stdout).to.equal(live.stdout)
  })

  it('ANDROID_SERIAL and --device pick the device; a wrong one exits 4 with DEVICE_NOT_FOUND', async () => {
    expect((await runArc(['tap', '1', '1'], {env: {...h.env, ANDROID_SERIAL: 'emu-1'}})).code).to.equal(0)
    const wrong = await arc('tap', '1', '1', '--device', 'nope')
    expect(wrong.code).to.equal(4)
    expect(wrong.stderr).to.contain('[DEVICE_NOT_FOUND]')
  })

  it('--adb-host/--adb-port reach the server without the environment', async () => {
    const run = await runArc(['press', 'home', '--adb-host', '127.0.0.1', '--adb-port', String(h.emu.port)])
    expect(run.code).to.equal(0)
  })

  it('every key command gives one --json shape: {key: KEYCODE_<NAME>, code}', async () => {
    const back = JSON.parse((await arc('press', 'back', '--json')).stdout)
    const del = JSON.parse((await arc('press', 'key', 'DEL', '--json')).stdout)
    const menu = JSON.parse((await arc('press', 'key', '82', '--json')).stdout)
    const recents = JSON.parse((await arc('press', 'recents', '--json')).stdout)
    expect([back, del, menu, recents]).to.deep.equal([
      {key: 'KEYCODE_BACK', code: 4},
      {key: 'KEYCODE_DEL', code: 67},
      {key: 'KEYCODE_MENU', code: 82},
      {key: 'KEYCODE_APP_SWITCH', code: 187},
    ])
    expect(h.emu.device('emu-1').inputEvents.at(-2)).to.deep.include({type: 'keyevent', code: 82})
  })

  for (const bad of ['VOLUME_UPP', 'KEYCODE_', '1000', 'ENTER;reboot']) {
    it(`press key ${bad} exits 2 with INVALID_INPUT and sends nothing`, async () => {
      const from = h.emu.commands.length
      const run = await arc('press', 'key', bad)
      expect(run.code).to.equal(2)
      expect(run.stderr).to.contain('[INVALID_INPUT]').and.contain('argument <key>').and.contain('docs/devices.md')
      expect(h.emu.commands.length).to.equal(from)
    })
  }

  it("a key newer than the device's release is refused, nothing sent: its input keyevent would send KEYCODE_UNKNOWN and exit 0", async () => {
    const device = h.emu.device('emu-1')
    // RECENT_APPS came in API 34 (developer.android.com/sdk/api_diff/34): an Android 13 phone does not have it.
    device.properties.set('ro.build.version.sdk', '33')
    try {
      const from = device.inputEvents.length
      const fromCommands = h.emu.commands.length
      const old = await arc('press', 'key', 'RECENT_APPS', '--json')
      expect(old.code, old.stdout).to.equal(12)
      const error = JSON.parse(old.stdout).error
      expect(error.code).to.equal('UNSUPPORTED')
      expect(error.message).to.contain('KEYCODE_RECENT_APPS exists from API level 34').and.contain('API level 33')
      expect(device.inputEvents.length).to.equal(from)
      expect(h.emu.commands.slice(fromCommands).map((c) => c.argv[0])).to.not.include('input')
      // A key the release has goes as before.
      expect((await arc('press', 'key', 'ALL_APPS')).code).to.equal(0)
      expect(device.inputEvents.at(-1)).to.deep.include({type: 'keyevent', code: 284})
    } finally {
      device.properties.set('ro.build.version.sdk', '34')
    }
    expect((await arc('press', 'key', 'RECENT_APPS')).code).to.equal(0)
    expect(device.inputEvents.at(-1)).to.deep.include({type: 'keyevent', code: 312})
  })

  it('an unknown key name suggests close names', async () => {
    const run = await arc('press', 'key', 'VOLUME', '--json')
    const error = JSON.parse(run.stdout).error
    expect(error.details.suggestions).to.include('VOLUME_UP')
    expect(error.message).to.contain('did you mean')
  })

  it('app actions on the demo snapshot exit 7 with DEVICE_READ_ONLY', async () => {
    for (const args of [
      ['app', 'clear', 'com.example.app'],
      ['app', 'grant', 'com.example.app', 'CAMERA'],
    ]) {
      const run = await runArc([...args, '--device', 'demo'])
      expect(run.code, args.join(' ')).to.equal(7)
      expect(run.stderr).to.contain('[DEVICE_READ_ONLY]')
    }
  })

  it('arc shell passes stdout, stderr and the exit status through, and flags after -- reach the device', async () => {
    const ok = await arc('shell', '--', 'getprop', 'ro.product.model')
    expect([ok.code, ok.stdout, ok.stderr]).to.deep.equal([0, 'arc emulated device\n', ''])
    const from = h.emu.commands.length
    const bad = await arc('shell', '--', 'ls', '-l', '/nope')
    expect([bad.code, bad.stdout, bad.stderr]).to.deep.equal([1, '', 'ls: /nope: No such file or directory\n'])
    expect(h.emu.commands.slice(from).map((c) => c.argv)).to.deep.equal([['ls', '-l', '/nope']])
    const json = await arc('shell', '--json', '--', 'ls', '/nope')
    expect(json.code).to.equal(1)
    expect(JSON.parse(json.stdout)).to.deep.equal({
      stdout: '',
      stderr: 'ls: /nope: No such file or directory\n',
      exit_code: 1,
    })
    const none = await arc('shell')
    expect(none.code).to.equal(2)
    expect(none.stderr).to.contain('argument <command>')
  })

  it('arc app open --activity with extras: am start -n with every word as typed; bad forms exit 2 naming the flag', async () => {
    const from = h.emu.commands.length
    const run = await arc(
      'app',
      'open',
      'com.android.settings',
      '--activity',
      '.Settings',
      '--extra',
      'note=a b \'c\' "d" é',
      '--extra-int',
      'n=7',
      '--extra-bool',
      'on=true'
    )
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout.trim()).to.equal('App opened successfully: com.android.settings/.Settings')
    expect(h.emu.commands.slice(from).map((c) => c.argv)).to.deep.equal([
      [
        'am',
        'start',
        '-W',
        '-n',
        'com.android.settings/.Settings',
        '--es',
        'note',
        'a b \'c\' "d" é',
        '--ei',
        'n',
        '7',
        '--ez',
        'on',
        'true',
      ],
    ])
    const json = await arc(
      'app',
      'open',
      'com.android.settings',
      '--activity',
      'com.android.settings/.Settings',
      '--json'
    )
    expect(JSON.parse(json.stdout)).to.deep.equal({package_id: 'com.android.settings', activity: '.Settings'})
    const before = h.emu.commands.length
    const bad = await arc('app', 'open', 'com.android.settings', '--activity', 'Settings')
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.match(
      /^Error \[INVALID_INPUT\]: --activity: expected \.Name \(in the package\), a full class name like com\.example\.app\.ui\.Name, or com\.example\.app\/\.Name/
    )
    const key = await arc('app', 'open', 'com.android.settings', '--extra', '=v')
    expect(key.code).to.equal(2)
    expect(key.stderr).to.match(/^Error \[INVALID_INPUT\]: --extra.*KEY=VALUE with a non-empty key/)
    const gone = await arc('app', 'open', 'com.android.settings', '--activity', '.NoSuchActivity')
    expect(gone.code).to.not.equal(0)
    expect(gone.stderr).to.match(
      /activity com\.android\.settings\.NoSuchActivity does not exist in com\.android\.settings on emu-1/
    )
    expect(h.emu.commands.slice(before).map((c) => c.argv[0])).to.deep.equal(['am', 'pm'])
  })

  it('arc device info prints one aligned line per fact', async () => {
    const run = await arc('device', 'info')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.match(/^serial {7}emu-1\nmodel {8}arc emulated device\n/)
  })

  it('range errors exit 2 before anything is sent', async () => {
    const from = h.emu.commands.length
    const run = await arc('tap', '-5', '10')
    expect(run.code).to.equal(2)
    expect(h.emu.commands.length).to.equal(from)
  })
})
