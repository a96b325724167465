import {readFileSync} from 'node:fs'
import path from 'node:path'

import {expect} from 'chai'
import {IDLE_STATE_ERROR, NULL_ROOT_ERROR, type Emulator} from '@arc-cli/emulator'

import {fixturePath, requireFixtures} from '@arc-cli/test-support/paths'
import {
  clientFor,
  DEMO_DIR,
  emulate,
  exec,
  makeSnapshot,
  readAll,
  shell,
  shellV2,
  tempDir,
  type AdbClient,
} from './support.js'

describe('emulator device commands', () => {
  let emu: Emulator
  let client: AdbClient
  const tmp = tempDir()
  const run = (command: string) => shell(client, 'emu-1', command)
  before(async () => {
    const login = makeSnapshot(path.join(tmp.dir, 'login'), 'Welcome')
    const home = makeSnapshot(path.join(tmp.dir, 'home'), 'Home', {
      activity: '.HomeActivity',
      rotation: 1,
      width: 1280,
      height: 720,
    })
    emu = await emulate({
      devices: [{serial: 'demo', snapshot: DEMO_DIR}],
      scenario: {
        devices: {
          'emu-1': {
            screens: {login, home},
            initialScreen: 'login',
            homeScreen: 'login',
            // This suite checks where an input leads, not when it shows: the new screen shows at once (no transition time).
            timing: {transitionMs: 0},
            transitions: [
              {from: 'login', tap: {resourceId: 'com.example:id/sign_in'}, to: 'home'},
              {from: 'home', keyevent: 'KEYCODE_BACK', to: 'login'},
              {statusbar: 'expand-notifications', to: 'home'},
            ],
            packages: [
              {
                name: 'com.example',
                versionCode: 7,
                versionName: '2.1',
                launcher: '.LoginActivity',
                screen: 'login',
                activities: ['.ui.SettingsActivity', {name: 'com.example.SecretActivity', exported: false}],
              },
              {name: 'com.example.nolauncher', versionName: null},
              {
                name: 'com.android.vending',
                system: true,
                versionCode: 84,
                versionName: '41.2.1 [0] [PR]',
                factoryVersionName: '30.0',
              },
            ],
            properties: {'ro.product.model': 'Pixel 7'},
            wm: {density: 280},
            logcat: [
              '01-26 20:52:41.820  1234  1256 I ActivityManager: started',
              '01-26 20:52:42.000  4321  4321 E Example: boom',
              '01-26 20:52:43.000  4321  4322 D Example: detail',
              {time: '01-26 20:52:44.000', level: 'W', tag: 'Other', message: 'careful', pid: 999},
            ],
          },
        },
      },
    })
    client = clientFor(emu)
  })
  after(async () => {
    await emu.close()
    tmp.cleanup()
  })

  describe('uiautomator dump', () => {
    it('writes the default file and prints the (misspelled) message', async () => {
      expect(await run('uiautomator dump')).to.equal('UI hierchary dumped to: /sdcard/window_dump.xml\n')
      expect(await run('cat /sdcard/window_dump.xml')).to.equal(emu.device('emu-1').screen.xml)
      expect(await run('uiautomator dump /data/local/tmp/d.xml')).to.equal(
        'UI hierchary dumped to: /data/local/tmp/d.xml\n'
      )
    })

    it('writes to /dev/tty: XML without a newline, then the message', async () => {
      const xml = emu.device('emu-1').screen.xml
      expect((await exec(client, 'emu-1', 'uiautomator dump /dev/tty')).toString()).to.equal(
        `${xml}UI hierchary dumped to: /dev/tty\n`
      )
    })

    it('fails the next dumps the way devices do: stderr, exit 0, no file written', async () => {
      emu.device('emu-1').failNextDumps(1, 'idle-timeout')
      emu.device('emu-1').failNextDumps(1, 'null-root')
      const first = await shellV2(client, 'emu-1', 'uiautomator dump /sdcard/x.xml')
      expect([first.stderr.toString(), first.exitCode]).to.deep.equal([IDLE_STATE_ERROR, 0])
      expect(await run('uiautomator dump /sdcard/x.xml')).to.equal(NULL_ROOT_ERROR)
      expect(await run('ls /sdcard/x.xml')).to.equal('ls: /sdcard/x.xml: No such file or directory\n')
      expect(await run('uiautomator dump /sdcard/x.xml')).to.equal('UI hierchary dumped to: /sdcard/x.xml\n')
    })
  })

  it('screencap -p gives the snapshot PNG byte-exact (exec, and adbkit’s screencap())', async () => {
    const png = readFileSync(path.join(DEMO_DIR, 'screen.png'))
    expect((await exec(client, 'demo', 'screencap -p')).equals(png)).to.equal(true)
    expect((await readAll(await client.getDevice('demo').screencap())).equals(png)).to.equal(true)
  })

  it('screencap -p without screen.png gives a PNG of the screen size', async () => {
    const png = await exec(client, 'emu-1', 'screencap -p')
    expect(png.subarray(1, 4).toString()).to.equal('PNG')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).to.deep.equal([720, 1280])
  })

  it('wm size and density: physical values, overrides after wm size WxH', async () => {
    expect(await run('wm size')).to.equal('Physical size: 720x1280\n')
    expect(await run('wm density')).to.equal('Physical density: 320\nOverride density: 280\n')
    expect(await run('wm size 600x1000; wm size; wm size reset; wm size')).to.equal(
      'Physical size: 720x1280\nOverride size: 600x1000\nPhysical size: 720x1280\n'
    )
    expect(await shell(client, 'demo', 'wm size; wm density')).to.equal(
      'Physical size: 1080x2400\nPhysical density: 420\n'
    )
    // An override equal to the physical value is none, as on a device.
    expect(await run('wm size 720x1280; wm size; wm size reset')).to.equal('Physical size: 720x1280\n')
  })

  it('dumpsys window displays shows what wm size and wm density show: init= physical, base= while overridden', async () => {
    const sizeLine = async () => /^ {4}init=.*$/m.exec(await run('dumpsys window displays'))?.[0]
    // The scenario overrides the density only: base= repeats the physical size with the density in force.
    expect(await sizeLine()).to.equal(
      '    init=720x1280 320dpi mMinSizeOfResizeableTaskDp=220 base=720x1280 280dpi cur=720x1280 app=720x1280 rng=720x720-1280x1280'
    )
    await run('wm size 600x1000')
    expect(await sizeLine()).to.equal(
      '    init=720x1280 320dpi mMinSizeOfResizeableTaskDp=220 base=600x1000 280dpi cur=600x1000 app=600x1000 rng=600x600-1000x1000'
    )
    await run('wm size reset; wm density reset')
    expect(await sizeLine()).to.equal(
      '    init=720x1280 320dpi mMinSizeOfResizeableTaskDp=220 cur=720x1280 app=720x1280 rng=720x720-1280x1280'
    )
    await run('wm density 280')
    expect(await shell(client, 'demo', 'dumpsys window displays')).to.match(
      /^ {4}init=1080x2400 420dpi mMinSizeOfResizeableTaskDp=220 cur=1080x2400 /m
    )
  })

  it('dumpsys window names one section, or prints every section: with -a each after dashes and holding what the section prints alone', async () => {
    const displays = await run('dumpsys window displays')
    const windows = await run('dumpsys window windows')
    expect(displays)
      .to.match(/^WINDOW MANAGER DISPLAY CONTENTS \(dumpsys window displays\)$/m)
      .and.not.match(/WINDOW MANAGER WINDOWS|Window #0/)
    expect(windows)
      .to.match(/^WINDOW MANAGER WINDOWS \(dumpsys window windows\)$/m)
      .and.not.match(/DISPLAY CONTENTS|init=|mCurrentFocus/)
    const whole = await run('dumpsys window -a')
    const headers = [...whole.matchAll(/^WINDOW MANAGER .*\(dumpsys window (\w+)\):?$/gm)].map((m) => m[1])
    // Android 13's sections, in its order (shared/fixtures/device-output/dumpsys-window).
    expect(headers).to.deep.equal([
      'lastanr',
      'policy',
      'animator',
      'sessions',
      'displays',
      'tokens',
      'windows',
      'trace',
      'logging',
      'refresh',
      'constants',
    ])
    const dashes = `${'-'.repeat(79)}\n`
    expect(whole.split(dashes)).to.have.length(headers.length + 1)
    // Each section as printed alone, then the blank line doDump prints after it.
    expect(whole).to.contain(`${dashes}${displays}\n${dashes}`).and.contain(`${dashes}${windows}\n${dashes}`)
    expect(await run('dumpsys window -a windows')).to.equal(windows)
  })

  it('dumpsys window without -a prints the sections after blank lines, the windows without their layer, visibility and frame lines', async () => {
    const plain = await run('dumpsys window')
    expect(plain).to.not.contain('-----')
    expect(plain).to.match(/^WINDOW MANAGER DISPLAY CONTENTS \(dumpsys window displays\)$/m)
    expect(plain)
      .to.match(/^ {2}Window #0 Window\{/m)
      .and.match(/^ {4}isVisible=true$/m)
    expect(plain).to.not.match(/mBaseLayer=|mViewVisibility=|Frames: /)
    expect(await run('dumpsys window windows'))
      .to.match(/mBaseLayer=/)
      .and.match(/mViewVisibility=/)
      .and.match(/Frames: /)
  })

  it('dumpsys window/activity name the foreground in the formats clients parse', async () => {
    const window = await run('dumpsys window displays')
    expect(window).to.match(/^ {2}mCurrentFocus=Window\{[0-9a-f]{7} u0 com\.example\/com\.example\.LoginActivity\}$/m)
    expect(window).to.match(/^ {2}mFocusedApp=ActivityRecord\{[0-9a-f]{7} u0 com\.example\/\.LoginActivity t\d+\}$/m)
    const activity = await run('dumpsys activity activities')
    expect(activity).to.match(/topResumedActivity=ActivityRecord\{[0-9a-f]+ u0 com\.example\/\.LoginActivity t\d+\}/)
    expect(activity).to.match(/ResumedActivity: ActivityRecord\{[^}]*com\.example\/\.LoginActivity/)
  })

  it('taps inside a scenario element switch the screen; rotation shows in dumpsys input/display', async () => {
    const device = emu.device('emu-1')
    await run('input tap 10 10')
    expect(device.screenName).to.equal('login')
    await run('input tap 360 1050')
    expect(device.screenName).to.equal('home')
    expect(device.foreground).to.deep.equal({package: 'com.example', activity: '.HomeActivity'})
    expect(await run('dumpsys input')).to.match(/^ {6}SurfaceOrientation: 1$/m)
    expect(await run('dumpsys display')).to.match(
      /DisplayViewport\{type=INTERNAL, valid=true, isActive=true, displayId=0, .*orientation=1, .*deviceWidth=1280, deviceHeight=720\}/
    )
    expect(await run('wm size')).to.equal('Physical size: 720x1280\n')
    // The window manager's size line: the natural size as wm size prints it, cur= turned to the rotation.
    expect(await run('dumpsys window displays')).to.match(
      /^ {4}init=720x1280 320dpi .*base=720x1280 280dpi cur=1280x720 /m
    )
    await run('input keyevent KEYCODE_BACK')
    expect(device.screenName).to.equal('login')
    await run('cmd statusbar expand-notifications')
    expect(device.screenName).to.equal('home')
    await run('input keyevent 4')
  })

  it('records input events: tap, swipe, keyevent, text, motionevent', async () => {
    const device = emu.device('emu-1')
    const from = device.inputEvents.length
    await run(
      "input swipe 1 2 3 4 500; input keyevent --longpress 66 HOME; input text 'hello%sworld'; input touchscreen motionevent DOWN 5 6; input tap 1.5 2"
    )
    expect(device.inputEvents.slice(from)).to.deep.equal([
      {type: 'swipe', x1: 1, y1: 2, x2: 3, y2: 4, durationMs: 500},
      {type: 'keyevent', code: 66, name: 'KEYCODE_ENTER', longpress: true},
      {type: 'keyevent', code: 3, name: 'KEYCODE_HOME', longpress: true},
      {type: 'text', text: 'hello world'},
      {type: 'motionevent', action: 'DOWN', x: 5, y: 6},
      {type: 'tap', x: 1.5, y: 2},
    ])
    // A phone sends KEYCODE_UNKNOWN for a word it cannot read (a lower-case name too: labels are case-sensitive),
    // prints nothing and exits 0 (AOSP InputShellCommand.runKeyEvent, KeyEvent.keyCodeFromString).
    const before = device.inputEvents.length
    const bad = await shellV2(client, 'emu-1', 'input keyevent KEYCODE_NOPE enter KEYCODE_ENTER 7')
    expect([bad.stdout.toString(), bad.stderr.toString(), bad.exitCode]).to.deep.equal(['', '', 0])
    expect(device.inputEvents.slice(before).map((e) => (e as {code: number}).code)).to.deep.equal([0, 0, 66, 7])
  })

  it('pm list packages with -3/-s/filter/--show-versioncode; adbkit getPackages()', async () => {
    const user = (await run('pm list packages -3')).trim().split('\n')
    expect(user).to.deep.equal(['package:com.example', 'package:com.example.nolauncher'])
    expect(await run('pm list packages -s settings')).to.equal(
      'package:com.android.providers.settings\npackage:com.android.settings\n'
    )
    expect(await run('pm list packages --show-versioncode com.example.no')).to.equal(
      'package:com.example.nolauncher versionCode:1\n'
    )
    expect(await client.getDevice('emu-1').getPackages()).to.include('com.android.systemui')
    expect(await run('dumpsys package com.example')).to.include('versionName=2.1')
  })

  it('dumpsys package packages: every package block, factory copies under Hidden system packages; grep -E filters it', async () => {
    const dump = await run('dumpsys package packages')
    const [installed, hidden] = dump.split('\nHidden system packages:\n') as [string, string]
    expect(installed.startsWith('Packages:\n  Package [android] (')).to.equal(true)
    expect(installed.match(/^  Package \[[\w.]+\]/gm)).to.have.length(emu.device('emu-1').packages.length)
    expect(installed).to.match(
      /  Package \[com\.example\.nolauncher\] \([0-9a-f]{7}\):\n(    .*\n)*?    versionName=null\n/
    )
    expect(installed).to.match(
      /  Package \[com\.android\.vending\] \([0-9a-f]{7}\):\n(    .*\n)*?    versionCode=84 minSdk=26 targetSdk=34\n(    .*\n)*?    versionName=41\.2\.1 \[0\] \[PR\]\n/
    )
    expect(hidden).to.match(
      /^  Package \[com\.android\.vending\] \([0-9a-f]{7}\):\n(    .*\n)*?    codePath=\/system\/app\/vending\n(    .*\n)*?    versionName=30\.0\n/
    )
    expect(hidden.match(/^  Package /gm)).to.have.length(1)
    const filtered = await run("dumpsys package packages | grep -E '^[^ ]|^ *(Package \\[|versionName=)'")
    expect(filtered.split('\n').slice(0, 3)).to.deep.equal([
      'Packages:',
      `  Package [android] (${/\[android\] \(([0-9a-f]+)\)/.exec(dump)?.[1]}):`,
      '    versionName=14',
    ])
  })

  it('resolves launcher activities and launches apps with am start / monkey; force-stop', async () => {
    expect(await run('cmd package resolve-activity --brief com.example')).to.equal(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.example/.LoginActivity\n'
    )
    expect(await run('cmd package resolve-activity --brief com.example.nolauncher')).to.equal('No activity found\n')
    const device = emu.device('emu-1')
    expect(await run('am start -W -n com.android.settings/.Settings')).to.match(
      /^Starting: Intent \{ cmp=com\.android\.settings\/\.Settings \}\nStatus: ok\n/
    )
    expect(device.foreground).to.deep.equal({package: 'com.android.settings', activity: '.Settings'})
    expect(await run('pidof com.android.settings')).to.match(/^\d+\n$/)
    await run('am force-stop com.android.settings')
    expect(device.foreground.package).to.equal('com.google.android.apps.nexuslauncher')
    expect(await run('pidof com.android.settings; echo $?')).to.equal('1\n')
    expect(await run('monkey -p com.example -c android.intent.category.LAUNCHER 1')).to.include('Events injected: 1\n')
    expect(device.foreground).to.deep.equal({package: 'com.example', activity: '.LoginActivity'})
    expect(await run('monkey -p com.example.nolauncher -c android.intent.category.LAUNCHER 1')).to.include(
      '** No activities found to run, monkey aborted.'
    )
  })

  it('am start -n knows the activities of a package: its launchers, its declared ones and those its screens name', async () => {
    const device = emu.device('emu-1')
    try {
      // A screen's activity shows that screen; extras are skipped as key and value, and said in the intent.
      expect(await run("am start -W -n com.example/.HomeActivity --es 'a b' 'c d' --ez on true --ei n 5")).to.match(
        /^Starting: Intent \{ cmp=com\.example\/\.HomeActivity \(has extras\) \}\nStatus: ok\n(.*\n)*Activity: com\.example\/\.HomeActivity\n/
      )
      expect(device.foreground).to.deep.equal({package: 'com.example', activity: '.HomeActivity'})
      expect(device.screenName).to.equal('home')
      // A declared activity, named in full: the intent shows it short; the package's screen comes up.
      expect(await run('am start -W -n com.example/com.example.ui.SettingsActivity')).to.match(
        /^Starting: Intent \{ cmp=com\.example\/\.ui\.SettingsActivity \}\nStatus: ok\n/
      )
      expect(device.foreground).to.deep.equal({package: 'com.example', activity: '.ui.SettingsActivity'})
      expect(device.screenName).to.equal('login')
      // A class the package does not declare, and a package that is not installed: with -W on stdout, else stderr.
      const waited = await shellV2(client, 'emu-1', 'am start -W -n com.example/.Nope')
      expect(waited.stdout.toString()).to.equal(
        'Starting: Intent { cmp=com.example/.Nope }\nError type 3\nError: Activity class {com.example/com.example.Nope} does not exist.\n'
      )
      expect(waited.stderr.toString()).to.equal('')
      const quiet = await shellV2(client, 'emu-1', 'am start -n com.nope/.Main')
      expect(quiet.stdout.toString()).to.equal('Starting: Intent { cmp=com.nope/.Main }\n')
      expect(quiet.stderr.toString()).to.equal(
        'Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n'
      )
      // Not exported: the shell user is refused, as Android 11+ report the SecurityException; nothing comes to the front.
      const denied = await shellV2(client, 'emu-1', 'am start -W -n com.example/.SecretActivity --es k v')
      expect(denied.exitCode).to.equal(255)
      expect(denied.stdout.toString()).to.equal('Starting: Intent { cmp=com.example/.SecretActivity (has extras) }\n')
      expect(denied.stderr.toString().split('\n').slice(0, 3)).to.deep.equal([
        '',
        "Exception occurred while executing 'start':",
        `java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 cmp=com.example/.SecretActivity (has extras) } from null (pid=5123, uid=2000) not exported from uid ${10_000 + device.packages.findIndex((p) => p.name === 'com.example')}`,
      ])
      expect(denied.stderr.toString()).to.match(
        /\n\tat com\.android\.server\.wm\.ActivityTaskSupervisor\.checkStartAnyActivityPermission\(/
      )
      expect(device.foreground.activity).to.equal('.ui.SettingsActivity')
    } finally {
      device.goHome()
    }
  })

  it('logcat -d with -t, filterspecs, --pid and -v', async () => {
    expect(await run('logcat -d')).to.equal(
      '--------- beginning of main\n' +
        '01-26 20:52:41.820  1234  1256 I ActivityManager: started\n' +
        '01-26 20:52:42.000  4321  4321 E Example: boom\n' +
        '01-26 20:52:43.000  4321  4322 D Example: detail\n' +
        '01-26 20:52:44.000   999   999 W Other: careful\n'
    )
    expect(await run('logcat -d -t 1')).to.equal(
      '--------- beginning of main\n01-26 20:52:44.000   999   999 W Other: careful\n'
    )
    expect(await run("logcat -d 'Example:E' '*:S'")).to.equal(
      '--------- beginning of main\n01-26 20:52:42.000  4321  4321 E Example: boom\n'
    )
    expect(await run('logcat -d --pid=4321 *:I')).to.equal(
      '--------- beginning of main\n01-26 20:52:42.000  4321  4321 E Example: boom\n'
    )
    expect(await run("logcat -d -t '01-26 20:52:43.000' -v brief")).to.equal(
      '--------- beginning of main\nD/Example( 4321): detail\nW/Other(  999): careful\n'
    )
  })

  it('getprop (adbkit getProperties), settings, cmd statusbar', async () => {
    const props = await client.getDevice('emu-1').getProperties()
    expect(props['ro.product.model']).to.equal('Pixel 7')
    expect(props['ro.serialno']).to.equal('emu-1')
    expect(await run('getprop sys.boot_completed; getprop no.such.prop')).to.equal('1\n\n')
    expect(
      await run(
        'settings put global window_animation_scale 0; settings get global window_animation_scale; settings get secure nope'
      )
    ).to.equal('0\nnull\n')
    await run('cmd statusbar collapse')
    expect(emu.device('emu-1').inputEvents.at(-1)).to.deep.equal({type: 'statusbar', action: 'collapse'})
    expect(await run('cmd statusbar wiggle')).to.equal('Unknown command: wiggle\n')
  })

  describe('with the real screens', () => {
    before(function () {
      requireFixtures(this)
    })

    it('serves a real dump and screenshot byte-exact', async () => {
      const dir = fixturePath('bili-home-feed')
      const real = await emulate({devices: [{serial: 'real', snapshot: dir}]})
      try {
        const c = clientFor(real)
        expect((await exec(c, 'real', 'screencap -p')).equals(readFileSync(path.join(dir, 'screen.png')))).to.equal(
          true
        )
        const out = (await exec(c, 'real', 'uiautomator dump /dev/tty')).toString('utf8')
        expect(out).to.equal(
          `${readFileSync(path.join(dir, 'window_dump.xml'), 'utf8')}UI hierchary dumped to: /dev/tty\n`
        )
        expect(await shell(c, 'real', 'wm size')).to.equal('Physical size: 1080x2400\n')
      } finally {
        await real.close()
      }
    })
  })
})
