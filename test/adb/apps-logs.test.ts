import {mkdtemp, readFile, readdir} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

import {SnapshotDriver, parseSnapshotMeta} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {DEMO_DIR, useDemoDevice} from '@arc-cli/test-support/emulator-support'
import {toolContext} from '@arc-cli/test-support/tool-context'

const tool = (name: string) => tools.find((t) => t.name === name)!

describe('app, log and snapshot tools through the ADB driver (adbkit against arc emulate)', () => {
  const h = useDemoDevice({
    packages: [
      {
        name: 'com.example.calc',
        versionCode: 42,
        versionName: '1.2.3',
        launcher: '.Calculator',
        activities: ['.ui.SettingsActivity', {name: '.SecretActivity', exported: false}],
      },
      {name: 'com.example.nolauncher', versionName: null},
      // An updated system app: dumpsys lists its factory copy (versionCode 1) under Hidden system packages too.
      {
        name: 'com.example.maps',
        system: true,
        versionCode: 1170,
        versionName: '11.7 – Über 版本 [beta]',
        factoryVersionName: '9.0',
      },
      // A debug build: its own launcher activity and a leak viewer's, so resolve-activity answers the chooser.
      {
        name: 'com.example.debug',
        launcher: '.MainActivity',
        moreLaunchers: ['leakcanary.internal.activity.LeakLauncherActivity'],
      },
    ],
    logcat: [
      '2024-01-15 10:29:59.000  100  100 I Early: before the window',
      {time: '2023-01-15 10:30:00.500', level: 'I', tag: 'LastYear', message: 'a year earlier'},
      {
        time: '2024-01-15 10:30:01.000',
        level: 'D',
        tag: 'MCP:ServerService',
        message: 'started',
        package: 'com.example.calc',
      },
      {
        time: '2024-01-15 10:30:02.000',
        level: 'W',
        tag: 'MCP:ServerService',
        message: 'slow',
        package: 'com.example.calc',
      },
      {time: '2024-01-15 10:30:03.000', level: 'E', tag: 'Other', message: 'boom'},
      {time: '2024-01-15 10:30:04.000', level: 'V', tag: 'Other', message: 'chatty'},
    ],
  })

  async function run(name: string, input: Record<string, unknown>, cwd = process.cwd()) {
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver, {cwd})
    const result = await tool(name).handler(ctx, tool(name).input.parse(input))
    return {...result, argv: h.argvSince(from)}
  }

  it('logs read the last lines at the minimum level in the spec format', async () => {
    const r = await run('get_device_logs', {last_lines: 2, level: 'D'})
    // Above V the level is a filterspec, which logcat applies after logd's `-t N` count: the buffer is read whole,
    // and only its last lines (with room for the `beginning of` dividers) leave the device.
    // (The two programs of the pipeline start together, so they are logged in either order.)
    expect(r.argv).to.have.deep.members([
      ['logcat', '-v', 'threadtime', '-d', '*:D'],
      ['tail', '-n', '11'],
    ])
    const result = JSON.parse(r.text)
    expect(result).to.deep.equal({
      logs: '01-15 10:30:02.000 W/MCP:ServerService: slow\n01-15 10:30:03.000 E/Other: boom',
      line_count: 2,
      truncated: true,
    })
  })

  it('logs return the last lines at the level even when lines of lower levels follow them', async () => {
    const device = h.emu.device('emu-1')
    const before = device.logcat.length
    for (let i = 0; i < 5; i++) device.appendLog({level: 'V', tag: 'Chatty', message: `noise ${i}`})
    try {
      const errors = JSON.parse((await run('get_device_logs', {last_lines: 1, level: 'E'})).text)
      expect(errors).to.deep.equal({logs: '01-15 10:30:03.000 E/Other: boom', line_count: 1, truncated: false})
      // Many lines later, the last ones still come back, and the read says there were more.
      for (let i = 0; i < 40; i++) device.appendLog({level: 'D', tag: 'Busy', message: `line ${i}`})
      const last = JSON.parse((await run('get_device_logs', {last_lines: 3, level: 'D'})).text)
      expect(last.logs.split('\n').map((l: string) => l.replace(/^.*: /, ''))).to.deep.equal([
        'line 37',
        'line 38',
        'line 39',
      ])
      expect(last).to.include({line_count: 3, truncated: true})
      // At level V the tail is exact, so logcat's own `-t N` is used.
      const all = await run('get_device_logs', {last_lines: 2, level: 'V'})
      expect(all.argv).to.deep.equal([['logcat', '-v', 'threadtime', '-t', '3', '*:V']])
      expect(JSON.parse(all.text)).to.include({line_count: 2, truncated: true})
    } finally {
      device.logcat.length = before
    }
  })

  it('logs filter by exact tag (with a colon), level, package and time range', async () => {
    const tag = JSON.parse((await run('get_device_logs', {tag: 'MCP:ServerService', level: 'W'})).text)
    expect(tag).to.deep.equal({logs: '01-15 10:30:02.000 W/MCP:ServerService: slow', line_count: 1, truncated: false})
    // The app's lines carry the pid of its running process; lines of earlier runs would not match.
    const pkg = await run('get_device_logs', {package_name: 'com.example.calc'})
    expect(pkg.argv[0]).to.deep.equal(['pidof', 'com.example.calc'])
    expect(JSON.parse(pkg.text).line_count).to.equal(2)
    const range = await run('get_device_logs', {since: '2024-01-15T10:30:00', until: '2024-01-15T10:30:02', level: 'V'})
    expect(range.argv).to.deep.equal([
      ['logcat', '-v', 'threadtime', '-v', 'year', '-t', '2024-01-15 10:30:00.000', '*:V'],
    ])
    expect(JSON.parse(range.text).line_count).to.equal(2)
    // A range a year earlier finds that year's line (the year is no longer dropped), and a Z time is UTC.
    const lastYear = JSON.parse(
      (await run('get_device_logs', {since: '2023-01-01T00:00:00', until: '2023-12-31T23:59:59', level: 'V'})).text
    )
    expect(lastYear.logs).to.equal('01-15 10:30:00.500 I/LastYear: a year earlier')
    const zulu = await run('get_device_logs', {since: '2024-01-15T10:30:03Z', level: 'V'})
    expect(zulu.argv[0]).to.deep.equal(['date', '+%z'])
    expect(JSON.parse(zulu.text).line_count).to.equal(2)
    for (const input of [
      {until: '2024-01-15T10:30:02'},
      {since: '2024-13-45T99:99:99'},
      {since: '2024-01-15T10:30:02', until: '2024-01-15T10:30:01'},
    ]) {
      const error = await run('get_device_logs', input).catch((e: unknown) => e)
      expect(error, JSON.stringify(input)).to.have.property('code', 'INVALID_INPUT')
    }
    expect(tool('get_device_logs').input.safeParse({last_lines: 1001}).success).to.equal(false)
    expect(tool('get_device_logs').input.safeParse({level: 'X'}).success).to.equal(false)
  })

  it('app list asks pm for system and user packages with version codes, and dumpsys for version names', async () => {
    const r = await run('list_apps', {filter: 'user', name_query: 'CALC'})
    // The pipeline's two programs start together with pm, so they are logged in any order.
    expect(r.argv).to.have.deep.members([
      ['pm', 'list', 'packages', '-3', '--show-versioncode'],
      ['dumpsys', 'package', 'packages'],
      ['grep', '-E', '^[^ ]|^ *(Package \\[|versionName=|versionCode=|compat name=)'],
    ])
    expect(JSON.parse(r.text)).to.deep.equal([
      {
        package_id: 'com.example.calc',
        name: 'com.example.calc',
        version_name: '1.2.3',
        version_code: 42,
        is_system: false,
      },
    ])
    // The structured result is an object (MCP structured content must be one); the text keeps the spec's array.
    expect(r.data).to.deep.equal({apps: JSON.parse(r.text)})
    const all = JSON.parse((await run('list_apps', {})).text) as Array<{package_id: string; is_system: boolean}>
    expect(all.find((a) => a.package_id === 'com.android.settings')).to.include({is_system: true})
    expect(all.find((a) => a.package_id === 'com.example.nolauncher')).to.include({is_system: false})
    const system = JSON.parse((await run('list_apps', {filter: 'system'})).text) as Array<{is_system: boolean}>
    expect(system.every((a) => a.is_system)).to.equal(true)
    expect(tool('list_apps').input.safeParse({filter: 'mine'}).success).to.equal(false)
    // The installed version of an updated system app, not its factory copy; null where the manifest has none;
    // every app carries the same five keys.
    expect(all.find((a) => a.package_id === 'com.example.maps')).to.deep.equal({
      package_id: 'com.example.maps',
      name: 'com.example.maps',
      version_name: '11.7 – Über 版本 [beta]',
      version_code: 1170,
      is_system: true,
    })
    expect(all.find((a) => a.package_id === 'com.example.nolauncher')).to.include({version_name: null, version_code: 1})
    expect(all.find((a) => a.package_id === 'com.android.settings')).to.include({version_name: '14', version_code: 34})
    expect(all.every((a) => Object.keys(a).join() === 'package_id,name,version_name,version_code,is_system')).to.equal(
      true
    )
  })

  it('app list still lists every app when the version read fails, and fills version codes pm did not print', async () => {
    const device = h.emu.device('emu-1')
    // Android < 9: pm rejects --show-versioncode and is asked again without, so the codes come from dumpsys.
    device.addFault({
      command: 'pm list packages -3 --show-versioncode',
      kind: 'error',
      message: 'Error: Unknown option: --show-versioncode\n',
      exitCode: 255,
    })
    const old = await run('list_apps', {filter: 'user', name_query: 'calc'})
    expect(old.argv).to.deep.include(['pm', 'list', 'packages', '-3'])
    expect(JSON.parse(old.text)).to.deep.equal([
      {
        package_id: 'com.example.calc',
        name: 'com.example.calc',
        version_name: '1.2.3',
        version_code: 42,
        is_system: false,
      },
    ])
    // A device whose dumpsys will not answer still lists its apps, without version names.
    device.addFault({command: 'dumpsys package', kind: 'error', message: "Can't find service: package\n", exitCode: 0})
    expect(JSON.parse((await run('list_apps', {filter: 'user', name_query: 'calc'})).text)).to.deep.equal([
      {
        package_id: 'com.example.calc',
        name: 'com.example.calc',
        version_name: null,
        version_code: 42,
        is_system: false,
      },
    ])
    // Nor one whose dump is garbage.
    device.addFault({
      command: 'dumpsys package',
      kind: 'garbage',
      output: '\u0000Packages\u0013\n  Package [com.example.calc',
    })
    expect(JSON.parse((await run('list_apps', {filter: 'user', name_query: 'calc'})).text)[0]).to.include({
      version_name: null,
      version_code: 42,
    })
  })

  it('app open resolves the launcher activity and starts it', async () => {
    const r = await run('open_app', {package_id: 'com.example.calc'})
    expect(r.text).to.equal('App opened successfully: com.example.calc')
    expect(r.argv[0]?.slice(0, 4)).to.deep.equal(['cmd', 'package', 'resolve-activity', '--brief'])
    expect(r.argv[0]?.at(-1)).to.equal('com.example.calc')
    expect(r.argv[1]).to.deep.equal([
      'am',
      'start',
      '-W',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      '-n',
      'com.example.calc/.Calculator',
    ])
    expect(h.emu.device('emu-1').foreground).to.deep.equal({package: 'com.example.calc', activity: '.Calculator'})
    expect((await h.capture()).foreground.package).to.equal('com.example.calc')
  })

  it('app open starts the first launcher activity of an app with several, never the chooser resolve-activity names', async () => {
    const r = await run('open_app', {package_id: 'com.example.debug'})
    expect(r.text).to.equal('App opened successfully: com.example.debug')
    expect(r.argv[1]).to.deep.equal([
      'cmd',
      'package',
      'query-activities',
      '--brief',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      'com.example.debug',
    ])
    expect(r.argv[2]?.at(-1)).to.equal('com.example.debug/.MainActivity')
    expect(h.emu.device('emu-1').foreground).to.deep.equal({package: 'com.example.debug', activity: '.MainActivity'})
  })

  it('app open of a package the chooser stands for starts it with monkey where query-activities lists nothing readable', async () => {
    h.emu
      .device('emu-1')
      .addFault({command: 'cmd package query-activities', kind: 'garbage', output: 'No activities found\n'})
    const r = await run('open_app', {package_id: 'com.example.debug'})
    expect(r.text).to.equal('App opened successfully: com.example.debug')
    expect(r.argv.at(-1)?.slice(0, 3)).to.deep.equal(['monkey', '-p', 'com.example.debug'])
    expect(r.argv.some((argv) => argv.includes('android/com.android.internal.app.ResolverActivity'))).to.equal(false)
  })

  it('app open counts a slow cold start (am start -W says Status: timeout) as opened, not failed', async () => {
    // What am prints when the activity started but did not report itself drawn within the wait (a slow cold start).
    const slow = [
      'Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.calc/.Calculator }',
      'Status: timeout',
      'LaunchState: UNKNOWN (-1)',
      'Activity: com.example.calc/.Calculator',
      'WaitTime: 11639',
      'Complete',
      '',
    ].join('\n')
    h.emu.device('emu-1').addFault({command: 'am start', kind: 'garbage', output: slow})
    const r = await run('open_app', {package_id: 'com.example.calc'})
    expect(r.text).to.equal('App opened successfully: com.example.calc')
    h.emu.device('emu-1').addFault({
      command: 'am start',
      kind: 'garbage',
      output: slow.replace('cmp=com.example.calc/.Calculator', 'dat=calc://x'),
    })
    const driver = await h.driver()
    try {
      await driver.openUrl('calc://x')
    } finally {
      await driver.close()
    }
  })

  it('app open fails clearly for apps that are missing or not launchable', async () => {
    const missing = await run('open_app', {package_id: 'com.nope.app'}).catch((e: unknown) => e)
    expect(missing).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect((missing as Error).message).to.match(/not installed/)
    const noLauncher = await run('open_app', {package_id: 'com.example.nolauncher'}).catch((e: unknown) => e)
    expect((noLauncher as Error).message).to.match(/no launchable activity/)
    expect(tool('open_app').input.safeParse({package_id: ''}).success).to.equal(false)
  })

  /** Runs open_app as the CLI does: the MCP input and the CLI-only launch flags, each through its schema. */
  async function open(input: Record<string, unknown>) {
    const t = tool('open_app')
    const driver = await h.driver()
    const from = h.emu.commands.length
    const ctx = toolContext(driver)
    try {
      const result = await t.handler(ctx, {...t.input.parse(input), ...t.cli.input!.parse(input)})
      return {...result, argv: h.argvSince(from), raw: h.emu.commands.slice(from).map((c) => c.raw)}
    } finally {
      await driver.close()
    }
  }

  it('app open --activity starts it with am start -W -n, the action, data and extras as typed, every word quoted', async () => {
    const title = `it's a "test" $HOME; rm -rf / \\ \`id\` 日本語 👍🏽`
    const r = await open({
      package_id: 'com.example.calc',
      activity: '.ui.SettingsActivity',
      action: 'android.intent.action.EDIT',
      data: 'calc://x?a=1&b=2',
      extra: [`title=${title}`, 'empty=', 'eq=a=b'],
      extra_int: ['id=-42'],
      extra_bool: ['debug=true', 'off=false'],
    })
    expect(r.text).to.equal('App opened successfully: com.example.calc/.ui.SettingsActivity')
    expect(r.data).to.deep.equal({package_id: 'com.example.calc', activity: '.ui.SettingsActivity'})
    expect(r.argv).to.deep.equal([
      [
        'am',
        'start',
        '-W',
        '-n',
        'com.example.calc/.ui.SettingsActivity',
        '-a',
        'android.intent.action.EDIT',
        '-d',
        'calc://x?a=1&b=2',
        '--es',
        'title',
        title,
        '--es',
        'empty',
        '',
        '--es',
        'eq',
        'a=b',
        '--ei',
        'id',
        '-42',
        '--ez',
        'debug',
        'true',
        '--ez',
        'off',
        'false',
      ],
    ])
    // What went over the wire: single quotes around every word, a quote inside one written as '\''.
    expect(r.raw[0]).to.include(
      `'--es' 'title' 'it'\\''s a "test" $HOME; rm -rf / \\ \`id\` 日本語 👍🏽' '--es' 'empty' ''`
    )
    expect(h.emu.device('emu-1').foreground).to.deep.equal({
      package: 'com.example.calc',
      activity: '.ui.SettingsActivity',
    })
    // A component (pkg/.Name) of the package itself is the same activity; a full class name goes as given.
    const component = await open({
      package_id: 'com.example.calc',
      activity: 'com.example.calc/com.example.calc.ui.SettingsActivity',
    })
    expect(component.argv).to.deep.equal([
      ['am', 'start', '-W', '-n', 'com.example.calc/com.example.calc.ui.SettingsActivity'],
    ])
  })

  it('app open with extras and no activity puts them into the launcher intent', async () => {
    const r = await open({package_id: 'com.example.calc', extra: ['mode=scientific notation']})
    expect(r.text).to.equal('App opened successfully: com.example.calc')
    expect(r.argv.at(-1)).to.deep.equal([
      'am',
      'start',
      '-W',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      '-n',
      'com.example.calc/.Calculator',
      '--es',
      'mode',
      'scientific notation',
    ])
    // Where the launcher is started by monkey (no component to name), extras cannot go: refused, nothing started.
    h.emu
      .device('emu-1')
      .addFault({command: 'cmd package query-activities', kind: 'garbage', output: 'No activities found\n'})
    const from = h.emu.commands.length
    const monkey = await open({package_id: 'com.example.debug', extra: ['k=v']}).catch((e: unknown) => e)
    expect(monkey).to.have.property('code', 'UNSUPPORTED')
    expect(h.argvSince(from).some((argv) => argv[0] === 'monkey' || argv[0] === 'am')).to.equal(false)
  })

  it("app open --activity reads am's verdict, not its echo of the data: a URI saying Permission Denial started fine", async () => {
    // am echoes the intent first (`Starting: Intent { … dat=calc:Permission Denial … }`): that was taken for its refusal.
    const r = await open({
      package_id: 'com.example.calc',
      activity: '.ui.SettingsActivity',
      data: 'calc:Permission Denial',
    })
    expect(r.text).to.equal('App opened successfully: com.example.calc/.ui.SettingsActivity')
    // A line break would let the data forge a verdict line of its own: a URI or an action has none, so it is refused.
    for (const input of [{data: 'calc:x\nError type 3'}, {action: 'a\rb'}]) {
      const parsed = tool('open_app').cli!.input!.safeParse({activity: '.ui.SettingsActivity', ...input})
      expect(parsed.success, JSON.stringify(input)).to.equal(false)
      expect(JSON.stringify(parsed.error?.issues)).to.match(/line break/)
    }
  })

  it('app open --activity fails clearly for an activity that does not exist, one not exported, and a missing app', async () => {
    const device = h.emu.device('emu-1')
    device.goHome()
    const missing = await open({package_id: 'com.example.calc', activity: '.ui.Nope'}).catch((e: unknown) => e)
    expect(missing).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect((missing as Error).message).to.equal(
      'activity com.example.calc.ui.Nope does not exist in com.example.calc on emu-1'
    )
    expect(missing).to.have.nested.property('details.reason', 'ACTIVITY_NOT_FOUND')
    const hidden = await open({package_id: 'com.example.calc', activity: '.SecretActivity'}).catch((e: unknown) => e)
    expect(hidden).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect((hidden as Error).message).to.equal(
      'activity com.example.calc.SecretActivity of com.example.calc is not exported: emu-1 refused to start it from adb (Permission Denial)'
    )
    expect(hidden).to.have.nested.property('details.reason', 'NOT_EXPORTED')
    expect((hidden as {actions: string[]}).actions[0]).to.include('`arc app open com.example.calc`')
    const notInstalled = await open({package_id: 'com.nope.app', activity: '.Main'}).catch((e: unknown) => e)
    expect((notInstalled as Error).message).to.equal('app com.nope.app is not installed on emu-1')
    // Nothing came to the front.
    expect(device.foreground.package).to.equal('com.google.android.apps.nexuslauncher')
  })

  it('app open refuses malformed activities and extras, and an action without an activity, before anything is sent', async () => {
    const cli = tool('open_app').cli.input!
    for (const activity of [
      'Main',
      'com.example.calc/',
      '/.Main',
      '.',
      '.a..b',
      '.Main;id',
      'com.example.calc/.Main/x',
      '.9Lives',
    ]) {
      expect(cli.safeParse({activity}).success, activity).to.equal(false)
    }
    for (const activity of [
      '.Main',
      '.ui.Settings$Inner',
      'com.example.calc.Main',
      'com.example.calc/.Main',
      'com.example.calc/org.other.Main',
    ]) {
      expect(cli.safeParse({activity}).success, activity).to.equal(true)
    }
    expect(cli.safeParse({extra: ['=v']}).success).to.equal(false)
    expect(cli.safeParse({extra: ['novalue']}).success).to.equal(false)
    expect(cli.safeParse({extra_int: ['n=1.5']}).success).to.equal(false)
    expect(cli.safeParse({extra_bool: ['b=yes']}).success).to.equal(false)
    const from = h.emu.commands.length
    const refused = async (input: Record<string, unknown>) =>
      (await open({package_id: 'com.example.calc', ...input}).catch((e: unknown) => e)) as Error
    expect(await refused({activity: 'com.other/.Main'})).to.have.property(
      'message',
      '--activity: com.other/.Main names package com.other, not com.example.calc'
    )
    expect(await refused({action: 'android.intent.action.VIEW'})).to.have.property('code', 'INVALID_INPUT')
    expect((await refused({data: 'x://y'})).message).to.match(/^--data needs --activity/)
    expect((await refused({extra_int: ['n=2147483648']})).message).to.match(
      /^--extra-int: n=2147483648 is outside an int's range/
    )
    expect(h.emu.commands.length).to.equal(from)
  })

  it('app close checks the package and force-stops it', async () => {
    await run('open_app', {package_id: 'com.example.calc'})
    const r = await run('close_app', {package_id: 'com.example.calc'})
    expect(r.text).to.equal('App closed successfully: com.example.calc')
    expect(r.argv).to.deep.equal([
      ['pm', 'path', 'com.example.calc'],
      ['am', 'force-stop', 'com.example.calc'],
    ])
    expect(h.emu.device('emu-1').running.has('com.example.calc')).to.equal(false)
    const missing = await run('close_app', {package_id: 'com.nope.app'}).catch((e: unknown) => e)
    expect(missing).to.have.property('code', 'DEVICE_COMMAND_FAILED')
  })

  it('snapshot save writes window_dump.xml, screen.png and meta.json that read back as the same screen', async () => {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'arc-snap-')), 'saved')
    const r = await run('save_snapshot', {dir})
    expect(r.text).to.equal(`Snapshot saved to ${dir} (window_dump.xml, screen.png, meta.json)`)
    expect((await readdir(dir)).sort()).to.deep.equal(['meta.json', 'screen.png', 'window_dump.xml'])
    const meta = parseSnapshotMeta(await readFile(path.join(dir, 'meta.json'), 'utf8'), 'meta.json')
    expect(meta).to.include({
      format: 'arc-snapshot/1',
      serial: 'emu-1',
      width: 1080,
      height: 2400,
      density: 420,
      rotation: 0,
    })
    const saved = await (await SnapshotDriver.open(dir)).captureScreen()
    const live = await h.capture()
    expect(saved.xml).to.equal(live.xml)
    expect(saved.screen).to.deep.equal(live.screen)
    expect(saved.foreground).to.deep.equal(live.foreground)
    expect(
      (await readFile(path.join(dir, 'screen.png'))).equals(await readFile(path.join(DEMO_DIR, 'screen.png')))
    ).to.equal(true)
  })
})
