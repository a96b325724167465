/**
 * `dumpsys package packages` and `dumpsys package PKG`: PackageManager's package blocks in Android 13's layout, a
 * `Packages:` section with every installed package, then `Hidden system packages:` with the factory copy of each
 * system app updated over it (a scenario package's `factoryVersionName`).
 */
import type {InstalledPackage, VirtualDevice} from '../virtual-device.js'
import {oid} from '../window-list.js'

const TIME = '2024-01-15 10:00:00'

/** One `  Package [NAME] (hash):` block; `factory` prints the system image's copy of an updated system app. */
function packageBlock(pkg: InstalledPackage, factory = false): string[] {
  const short = pkg.name.split('.').pop() as string
  const updated = pkg.system && pkg.factoryVersionName !== undefined && !factory
  const onData = !pkg.system || updated
  const codePath = onData ? `/data/app/~~${oid(`d${pkg.name}`)}==/${pkg.name}-1` : `/system/app/${short}`
  const flags = `[ ${pkg.system ? 'SYSTEM ' : ''}HAS_CODE ${updated ? 'UPDATED_SYSTEM_APP ' : ''}ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`
  return [
    `  Package [${pkg.name}] (${oid(`${factory ? 'f' : 'p'}${pkg.name}`)}):`,
    `    userId=${pkg.system ? 1000 : 10123}`,
    `    pkg=Package{${oid(`k${factory}${pkg.name}`)} ${pkg.name}}`,
    `    codePath=${codePath}`,
    `    resourcePath=${codePath}`,
    `    legacyNativeLibraryDir=${codePath}/lib`,
    '    primaryCpuAbi=null',
    '    secondaryCpuAbi=null',
    `    versionCode=${factory ? 1 : pkg.versionCode} minSdk=26 targetSdk=34`,
    '    minExtensionVersions=[]',
    `    versionName=${factory ? pkg.factoryVersionName : pkg.versionName}`,
    '    usesNonSdkApi=false',
    '    splits=[base]',
    '    apkSigningVersion=3',
    `    flags=${flags}`,
    `    timeStamp=${TIME}`,
    `    lastUpdateTime=${TIME}`,
    `    installerPackageName=${pkg.system && !updated ? 'null' : 'com.android.vending'}`,
    `    pkgFlags=${flags}`,
    '    User 0: ceDataInode=4001 installed=true hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false',
  ]
}

function hiddenSection(packages: InstalledPackage[]): string[] {
  const updated = packages.filter((p) => p.system && p.factoryVersionName !== undefined)
  return updated.length === 0 ? [] : ['', 'Hidden system packages:', ...updated.flatMap((p) => packageBlock(p, true))]
}

/** `dumpsys package packages` (or `p`): every installed package, by name, then the hidden factory copies. */
export function packagesDump(device: VirtualDevice): string {
  const packages = [...device.packages].sort((a, b) => a.name.localeCompare(b.name))
  return [
    ...(packages.length > 0 ? ['Packages:'] : []),
    ...packages.flatMap((p) => packageBlock(p)),
    ...hiddenSection(packages),
    '',
  ].join('\n')
}

/** `dumpsys package PKG`: that package's blocks only; undefined when it is not installed. */
export function packageDump(device: VirtualDevice, name: string | undefined): string | undefined {
  const pkg = name ? device.findPackage(name) : undefined
  if (!pkg) return undefined
  return ['Packages:', ...packageBlock(pkg), ...hiddenSection([pkg]), ''].join('\n')
}
