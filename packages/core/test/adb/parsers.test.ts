import {expect} from 'chai'

import {focusSection, parseForeground, parseRotation, shortActivity} from '../../src/driver/adb/parse-dumpsys.js'
import {
  formatLogLine,
  parseLogcatLine,
  parseLogTime,
  parseZoneOffset,
  toDeviceLocal,
} from '../../src/driver/adb/parse-logcat.js'
import {
  firstQueriedActivity,
  isInstalledOutput,
  parsePackageList,
  parseResolvedActivity,
} from '../../src/driver/adb/parse-packages.js'
import {currentSize, parseWmDensity, parseWmSize} from '../../src/driver/adb/parse-wm.js'
import {displayZeroPhysicalId, warnsOfSeveralDisplays} from '../../src/driver/adb/screencap-display.js'

describe('wm parsers', () => {
  it('prefers the override size and density', () => {
    expect(parseWmSize('Physical size: 1080x2400\n')).to.deep.equal({width: 1080, height: 2400})
    expect(parseWmSize('Physical size: 1080x2400\r\nOverride size: 720x1600\r\n')).to.deep.equal({
      width: 720,
      height: 1600,
    })
    expect(parseWmDensity('Physical density: 420\nOverride density: 480\n')).to.equal(480)
    expect(parseWmDensity('Physical density: 420')).to.equal(420)
  })

  it('turns the natural size by odd rotations only', () => {
    expect(currentSize({width: 1080, height: 2400}, 1)).to.deep.equal({width: 2400, height: 1080})
    expect(currentSize({width: 1080, height: 2400}, 2)).to.deep.equal({width: 1080, height: 2400})
  })

  it('rejects garbage with DEVICE_COMMAND_FAILED', () => {
    expect(() => parseWmSize('\x00\x13garbage'))
      .to.throw()
      .with.property('code', 'DEVICE_COMMAND_FAILED')
    expect(() => parseWmDensity(''))
      .to.throw()
      .with.property('code', 'DEVICE_COMMAND_FAILED')
  })
})

describe('screencap display choice', () => {
  const viewport = (displayId: number, uniqueId: string, active: boolean) =>
    `DisplayViewport{type=INTERNAL, valid=true, isActive=${active}, displayId=${displayId}, uniqueId='${uniqueId}', physicalPort=0, orientation=0, deviceWidth=1080, deviceHeight=2424}`

  it("reads display 0's physical id from its viewport, wherever it is listed", () => {
    const fold = `  mViewports=[${viewport(3, 'local:4619827551948147201', false)}, ${viewport(0, 'local:4619827259835644672', true)}]\n`
    expect(displayZeroPhysicalId(fold)).to.equal('4619827259835644672')
    // Android 12's form with a small id (the display's port)
    expect(displayZeroPhysicalId(`  mViewports=[${viewport(0, 'local:0', true)}]`)).to.equal('0')
    expect(displayZeroPhysicalId(`  mViewports=[${viewport(2, 'virtual:com.example,1', true)}]`)).to.equal(undefined)
    expect(displayZeroPhysicalId("Can't find service: display")).to.equal(undefined)
  })

  it('sees the several-displays warning only ahead of the image', () => {
    const png = Buffer.from('\x89PNG\r\n\x1a\n....Multiple displays were found', 'latin1')
    expect(warnsOfSeveralDisplays(png)).to.equal(false)
    const warned = Buffer.concat([
      Buffer.from('[Warning] Multiple displays were found, but no display id was specified!\n'),
      png,
    ])
    expect(warnsOfSeveralDisplays(warned)).to.equal(true)
  })
})

describe('dumpsys parsers', () => {
  const android14 = [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    '  Display: mDisplayId=0 rootTasks=3',
    '    mCurrentRotation=ROTATION_90 mLastOrientation=-1',
    '  mCurrentFocus=Window{4f1c2a5 u0 com.android.settings/com.android.settings.Settings}',
    '  mFocusedApp=ActivityRecord{c0ad5d7 u0 com.android.settings/.Settings t12}',
  ].join('\n')
  const android8 = [
    '  mCurrentFocus=Window{9c1d u0 com.example.app/com.example.app.ui.Main}',
    '  mFocusedApp=AppWindowToken{44a token=Token{5ee ActivityRecord{7bd u0 com.example.app/.ui.Main t3}}}',
    '    mRotation=0 mAltOrientation=false',
  ].join('\n')

  it("reads the foreground from display 0's block where several displays print focus lines (display 0 listed last)", () => {
    const cluster = [
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      '  Display: mDisplayId=3 rootTasks=1',
      '    init=1080x1920 320dpi cur=1080x1920 app=1080x1920',
      '  mCurrentFocus=Window{9a1b2c3 u0 com.example.cluster/com.example.cluster.Main}',
      '  mFocusedApp=ActivityRecord{5d6e7f8 u0 com.example.cluster/.Main t40}',
      ...android14.split('\n').slice(1),
    ].join('\n')
    expect(parseForeground(focusSection(cluster, ''))).to.deep.equal({
      package: 'com.android.settings',
      activity: '.Settings',
    })
    expect(parseForeground(focusSection(android14, ''))).to.deep.equal({
      package: 'com.android.settings',
      activity: '.Settings',
    })
    // Up to Android 9 the displays section has no focus lines: the windows section holds them.
    expect(focusSection('  Display: mDisplayId=0\n    init=1080x1920 420dpi', android8)).to.equal(android8)
  })

  it('reads rotation in its several spellings', () => {
    expect(parseRotation(android14)).to.equal(1)
    expect(parseRotation(android8)).to.equal(0)
    expect(parseRotation('  SurfaceOrientation: 3')).to.equal(3)
    expect(parseRotation('DisplayViewport{type=INTERNAL, valid=true, orientation=2, deviceWidth=1080}')).to.equal(2)
    expect(parseRotation('nothing here')).to.equal(undefined)
  })

  it('reads the foreground app from Android 10+ and older window dumps', () => {
    expect(parseForeground(android14)).to.deep.equal({package: 'com.android.settings', activity: '.Settings'})
    expect(parseForeground(android8)).to.deep.equal({package: 'com.example.app', activity: '.ui.Main'})
  })

  it('falls back to the resumed activity and the focused window', () => {
    expect(parseForeground('    topResumedActivity=ActivityRecord{a u0 com.foo/com.bar.Main t1}')).to.deep.equal({
      package: 'com.foo',
      activity: 'com.bar.Main',
    })
    expect(parseForeground('  mResumedActivity: ActivityRecord{a u0 com.foo/.Main t1}')).to.deep.equal({
      package: 'com.foo',
      activity: '.Main',
    })
    expect(parseForeground('  mCurrentFocus=Window{1 u0 com.foo/com.foo.Main}')).to.deep.equal({
      package: 'com.foo',
      activity: '.Main',
    })
    expect(parseForeground('  mCurrentFocus=null\n  mFocusedApp=null')).to.deep.equal({})
    expect(parseForeground('  mCurrentFocus=Window{1 u0 NotificationShade}')).to.deep.equal({})
  })

  it('shortens activities inside their package only', () => {
    expect(shortActivity('com.foo', 'com.foo.a.Main')).to.equal('.a.Main')
    expect(shortActivity('com.foo', 'com.foobar.Main')).to.equal('com.foobar.Main')
  })
})

describe('package parsers', () => {
  it('reads pm list packages with and without version codes, skipping noise', () => {
    const out =
      'package:com.a versionCode:12\r\npackage:com.b\nWARNING: linker: junk\n\npackage:/data/app/x/base.apk=com.c\n'
    expect(parsePackageList(out)).to.deep.equal([
      {packageId: 'com.a', versionCode: 12},
      {packageId: 'com.b'},
      {packageId: 'com.c'},
    ])
  })

  it('reads the last component line of resolve-activity and pm path', () => {
    const out =
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.android.settings/.Settings\n'
    expect(parseResolvedActivity(out)).to.equal('com.android.settings/.Settings')
    expect(parseResolvedActivity('No activity found\n')).to.equal(undefined)
    expect(isInstalledOutput('package:/system/app/Settings.apk\n')).to.equal(true)
    expect(isInstalledOutput('')).to.equal(false)
  })

  it("takes the first of the package's own activities from query-activities --brief (PackageManagerShellCommand form)", () => {
    const out = [
      '2 activities found:',
      '  Activity #0:',
      '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
      '    com.example.app/.MainActivity',
      '  Activity #1:',
      '    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
      '    com.example.app/leakcanary.internal.activity.LeakLauncherActivity',
      '',
    ].join('\n')
    expect(firstQueriedActivity(out, 'com.example.app')).to.equal('com.example.app/.MainActivity')
    // Another package's component (a prefix of the id included) is never taken.
    expect(firstQueriedActivity(out, 'com.example')).to.equal(undefined)
    expect(firstQueriedActivity('No activities found\n', 'com.example.app')).to.equal(undefined)
  })
})

describe('logcat parsers', () => {
  it('reads threadtime lines and prints them in the spec format', () => {
    const line = parseLogcatLine('01-26 20:52:41.820  1234  1256 I ActivityManager: Start proc: x\r')
    expect(line).to.deep.include({
      date: '01-26',
      time: '20:52:41.820',
      pid: 1234,
      tid: 1256,
      level: 'I',
      tag: 'ActivityManager',
    })
    expect(formatLogLine(line!)).to.equal('01-26 20:52:41.820 I/ActivityManager: Start proc: x')
    expect(parseLogcatLine('02-11 16:30:00.123   10   11 D MCP:ServerService: started')).to.deep.include({
      tag: 'MCP:ServerService',
      message: 'started',
    })
    expect(parseLogcatLine('--------- beginning of main')).to.equal(undefined)
  })

  it('reads -v year lines with their year', () => {
    expect(parseLogcatLine('2024-01-26 20:52:41.820  1234  1256 I ActivityManager: x')).to.deep.include({
      year: 2024,
      date: '01-26',
      time: '20:52:41.820',
    })
  })

  it('turns ISO 8601 times into logcat time keys with the year, and rejects impossible ones', () => {
    expect(parseLogTime('2024-01-15T10:30:00', 'since')).to.deep.equal({key: '2024-01-15 10:30:00.000'})
    expect(parseLogTime('2024-01-15T10:30', 'since').key).to.equal('2024-01-15 10:30:00.000')
    expect(parseLogTime('2024-01-15 10:30:05.5', 'since').key).to.equal('2024-01-15 10:30:05.500')
    expect(parseLogTime('2024-02-29T10:30:00Z', 'since')).to.deep.equal({
      key: '2024-02-29 10:30:00.000',
      zoneOffsetMinutes: 0,
    })
    expect(parseLogTime('2024-01-15T10:30:00+05:30', 'since').zoneOffsetMinutes).to.equal(330)
    for (const bad of [
      'yesterday',
      '2024-13-45T99:99:99',
      '2023-02-29T10:00:00',
      '2024-04-31T10:00:00',
      '2024-01-15T24:00:00',
      '2024-01-15T10:60:00',
    ]) {
      expect(() => parseLogTime(bad, 'since'), bad)
        .to.throw(/since/)
        .with.property('code', 'INVALID_INPUT')
    }
    expect(() => parseLogTime('2024-13-45T99:99:99', 'since')).to.throw(/month 13 does not exist/)
  })

  it('moves zoned times into the device zone', () => {
    expect(toDeviceLocal(parseLogTime('2024-12-31T23:30:00Z', 'since'), parseZoneOffset('+0100'))).to.equal(
      '2025-01-01 00:30:00.000'
    )
    expect(toDeviceLocal(parseLogTime('2024-01-15T10:30:00+02:00', 'since'), 0)).to.equal('2024-01-15 08:30:00.000')
    expect(toDeviceLocal(parseLogTime('2024-01-15T10:30:00', 'since'), 120)).to.equal('2024-01-15 10:30:00.000')
  })
})
