/**
 * `dumpsys package packages` as Android 7 and Android 13 print it (block layouts from AOSP's Settings.dumpPackageLPr
 * of those releases), read for version names; and the grep pattern the ADB driver filters it with on the device.
 */
import {expect} from 'chai'

import {PACKAGE_VERSION_LINES, parsePackageVersions} from '../../src/driver/adb/parse-package-versions.js'

/** Android 7.1: `userId=`, `applicationInfo=`, `dataDir=`; a stub without a parsed package has no versionName line. */
const ANDROID_7 = `Packages:
  Package [com.android.cts.priv.ctsshim] (3b9e0f2):
    userId=10011
    pkg=Package{a04c71d com.android.cts.priv.ctsshim}
    codePath=/system/priv-app/CtsShimPrivPrebuilt
    resourcePath=/system/priv-app/CtsShimPrivPrebuilt
    legacyNativeLibraryDir=/system/priv-app/CtsShimPrivPrebuilt/lib
    primaryCpuAbi=null
    secondaryCpuAbi=null
    versionCode=24 minSdk=24 targetSdk=24
    versionName=7.0-4711234
    splits=[base]
    apkSigningVersion=2
    applicationInfo=ApplicationInfo{6d2e8a1 com.android.cts.priv.ctsshim}
    flags=[ SYSTEM ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]
    privateFlags=[ PRIVILEGED RESIZEABLE_ACTIVITIES ]
    dataDir=/data/user/0/com.android.cts.priv.ctsshim
    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]
    timeStamp=2018-03-02 09:14:40
    firstInstallTime=2018-05-21 17:02:13
    lastUpdateTime=2018-03-02 09:14:40
    signatures=PackageSignatures{5e9b0c3 [91ac44d0]}
    installPermissionsFixed=false installStatus=1
    pkgFlags=[ SYSTEM ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]
    User 0: ceDataInode=20871 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0
  Package [com.example.store] (e27c90b):
    userId=10042
    pkg=Package{41f7d6a com.example.store}
    codePath=/data/app/com.example.store-1
    versionCode=83120500 minSdk=21 targetSdk=25
    versionName=31.2.15-21 [0] [PR] 601234567
    splits=[base]
    flags=[ SYSTEM HAS_CODE UPDATED_SYSTEM_APP ALLOW_CLEAR_USER_DATA ]
    requested permissions:
      android.permission.INTERNET
    install permissions:
      android.permission.INTERNET: granted=true
    User 0: ceDataInode=20890 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0
      gids=[3003]
  Package [com.example.stub] (9c04b57):
    userId=10050
    pkg=null
    codePath=/data/app/com.example.stub-2
    versionCode=3
    timeStamp=2018-03-02 09:14:41
    User 0: ceDataInode=0 installed=false hidden=false suspended=false stopped=true notLaunched=true enabled=0

Renamed packages:
  com.example.newname,com.example.oldname

Hidden system packages:
  Package [com.example.store] (70a2d18):
    userId=10042
    pkg=Package{c3e1f05 com.example.store}
    codePath=/system/app/Store
    versionCode=80412000 minSdk=21 targetSdk=25
    versionName=8.0.0 (factory)
    flags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ]
`

/** Android 13: `minExtensionVersions=`, `usesNonSdkApi=`; renamed packages carry `compat name=`. */
const ANDROID_13 = [
  'Packages:',
  '  Package [com.example.newname] (a1b2c3d):',
  '    compat name=com.example.oldname',
  '    userId=10201',
  '    pkg=Package{e4f5a6b com.example.oldname}',
  '    codePath=/data/app/~~Qx8d1w==/com.example.oldname-aZ3s==',
  '    versionCode=33 minSdk=26 targetSdk=33',
  '    minExtensionVersions=[]',
  '    versionName=3.3',
  '    usesNonSdkApi=false',
  '  Package [com.example.bare] (7c8d9e0):',
  '    userId=10202',
  '    versionCode=1 minSdk=24 targetSdk=33',
  '    minExtensionVersions=[]',
  '    versionName=null',
  '    usesNonSdkApi=false',
  '  Package [com.example.intl] (0f1e2d3):',
  '    userId=10203',
  '    versionCode=9007199254740993 minSdk=24 targetSdk=33',
  '    versionName=2.0 – Über 版本 ✓',
  '    splits=[base, config.xxhdpi]',
  '  Package [com.example.padded] (4a5b6c7):',
  '    versionCode=7 minSdk=24 targetSdk=33',
  '    versionName= 1.0 beta ',
  '',
].join('\r\n')

describe('dumpsys package packages: version names', () => {
  it('reads Android 7 blocks; the factory copy under Hidden system packages never replaces the installed one', () => {
    const versions = parsePackageVersions(ANDROID_7)
    expect(Object.fromEntries(versions)).to.deep.equal({
      'com.android.cts.priv.ctsshim': {versionName: '7.0-4711234', versionCode: 24},
      'com.example.store': {versionName: '31.2.15-21 [0] [PR] 601234567', versionCode: 83120500},
      // A package with no parsed APK prints no versionName line: known, without a name.
      'com.example.stub': {versionName: null, versionCode: 3},
    })
  })

  it('reads Android 13 blocks (CRLF lines): compat names, versionName=null, unicode and spaces kept as printed', () => {
    const versions = parsePackageVersions(ANDROID_13)
    // pm list packages prints a renamed package by its compat (original) name: both names find it.
    expect(versions.get('com.example.oldname')).to.deep.equal({versionName: '3.3', versionCode: 33})
    expect(versions.get('com.example.newname')).to.equal(versions.get('com.example.oldname'))
    expect(versions.get('com.example.bare')).to.deep.equal({versionName: null, versionCode: 1})
    // A version code beyond JavaScript's safe integers is not guessed at.
    expect(versions.get('com.example.intl')).to.deep.equal({versionName: '2.0 – Über 版本 ✓'})
    expect(versions.get('com.example.padded')).to.deep.equal({versionName: ' 1.0 beta ', versionCode: 7})
  })

  it('counts nothing outside the Packages section, and nothing from output that is no dump', () => {
    expect(parsePackageVersions(ANDROID_7.slice(ANDROID_7.indexOf('Hidden system packages:'))).size).to.equal(0)
    expect(parsePackageVersions('').size).to.equal(0)
    expect(parsePackageVersions('/system/bin/sh: grep: not found\n').size).to.equal(0)
    expect(parsePackageVersions("Can't find service: package\n").size).to.equal(0)
    // Blocks before any section title (a cut-off read) are not trusted either.
    expect(parsePackageVersions('  Package [com.example.x] (1):\n    versionName=1\n').size).to.equal(0)
  })

  it('the device-side grep pattern keeps every line the parser reads, and drops the rest', () => {
    const re = new RegExp(PACKAGE_VERSION_LINES)
    for (const dump of [ANDROID_7, ANDROID_13]) {
      const lines = dump.split('\n')
      const kept = lines.filter((line) => re.test(line))
      expect(parsePackageVersions(kept.join('\n'))).to.deep.equal(parsePackageVersions(dump))
    }
    expect(ANDROID_7.split('\n').filter((line) => re.test(line)).length).to.be.below(ANDROID_7.split('\n').length / 2)
    // What survives of a block: its header and the three fields.
    const kept = ANDROID_13.split('\r\n').filter((line) => re.test(line))
    expect(kept.slice(0, 5)).to.deep.equal([
      'Packages:',
      '  Package [com.example.newname] (a1b2c3d):',
      '    compat name=com.example.oldname',
      '    versionCode=33 minSdk=26 targetSdk=33',
      '    versionName=3.3',
    ])
  })
})
