import {readFileSync} from 'node:fs'

import {fullActivity, shortActivity} from '../activity-names.js'
import {grantsOf, installedFor, userArg, type InstalledPackage, type VirtualDevice} from '../virtual-device.js'
import type {CommandContext} from './types.js'

function apkPath(p: InstalledPackage): string {
  return p.system
    ? `/system/app/${p.name.split('.').pop()}/${p.name.split('.').pop()}.apk`
    : `/data/app/~~arc==/${p.name}-1/base.apk`
}

/** `pm list packages [-3|-s|-e|-d|-f|-U|-i|--show-versioncode|--user N] [FILTER]` → `package:NAME` lines. */
function listPackages(ctx: CommandContext, args: string[]): number {
  let filter: string | undefined
  const flags = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--user') i++
    else if (a.startsWith('--')) flags.add(a)
    else if (a.startsWith('-')) for (const c of a.slice(1)) flags.add(`-${c}`)
    else filter = a
  }
  const unknown = [...flags].find(
    (f) =>
      !['-3', '-s', '-e', '-d', '-f', '-U', '-i', '-u', '-a', '--show-versioncode', '--apex-only', '--uid'].includes(f)
  )
  if (unknown) {
    ctx.err(`Error: Unknown option: ${unknown}\n`)
    return 255
  }
  // Without --user, pm lists the system user's (0) packages only: a work profile's or a second user's apps are not
  // there (AOSP PackageManagerShellCommand.runListPackages: userId defaults to UserHandle.USER_SYSTEM).
  const user = userArg(args)
  let packages = [...ctx.device.packages]
    .filter((p) => installedFor(p, user))
    .sort((a, b) => a.name.localeCompare(b.name))
  if (flags.has('-3')) packages = packages.filter((p) => !p.system)
  if (flags.has('-s')) packages = packages.filter((p) => p.system)
  if (flags.has('-d')) packages = []
  if (filter !== undefined) packages = packages.filter((p) => p.name.includes(filter as string))
  for (const p of packages) {
    let line = flags.has('-f') ? `package:${apkPath(p)}=${p.name}` : `package:${p.name}`
    if (flags.has('--show-versioncode')) line += ` versionCode:${p.versionCode}`
    if (flags.has('-i')) line += '  installer=null'
    if (flags.has('-U')) line += ` uid:${p.system ? 1000 : 10123}`
    ctx.out(`${line}\n`)
  }
  return 0
}

/** The platform's chooser, which resolve-activity answers when a package has several launcher activities. */
const RESOLVER = 'android/com.android.internal.app.ResolverActivity'

/** The intent's package: the last word that is neither an option nor an intent action or category. */
function intentPackage(args: string[]): string | undefined {
  return args.filter((a) => !a.startsWith('-') && !a.startsWith('android.intent.')).pop()
}

/** A package's launcher activities, in manifest order. */
function launchersOf(p: InstalledPackage): string[] {
  return p.launcher ? [p.launcher, ...(p.moreLaunchers ?? [])] : []
}

/**
 * `cmd package resolve-activity --brief PKG`: the match line, then `pkg/.Activity`; `No activity found`; or, as
 * PackageManager does when several activities match equally, its chooser `android/…ResolverActivity`.
 */
function resolveActivity(ctx: CommandContext, args: string[]): number {
  const name = intentPackage(args.filter((a, i) => a !== '--user' && args[i - 1] !== '--user'))
  const found = name ? ctx.device.findPackage(name) : undefined
  // The current user's (0) apps unless --user names another.
  const pkg = found && installedFor(found, userArg(args)) ? found : undefined
  const launchers = pkg ? launchersOf(pkg) : []
  if (!pkg || launchers.length === 0) {
    ctx.out('No activity found\n')
    return 0
  }
  if (launchers.length > 1) {
    ctx.out(`priority=0 preferredOrder=0 match=0x0 specificIndex=-1 isDefault=false\n${RESOLVER}\n`)
    return 0
  }
  ctx.out('priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n')
  ctx.out(`${pkg.name}/${shortActivity(pkg.name, launchers[0] as string)}\n`)
  return 0
}

/**
 * `cmd package query-activities [--brief] -a android.intent.action.MAIN -c android.intent.category.LAUNCHER [PKG]`:
 * `N activities found:`, then `  Activity #i:` and (brief) the match line and `pkg/.Activity`, or `ActivityInfo:`.
 */
function queryActivities(ctx: CommandContext, args: string[]): number {
  const name = intentPackage(args.filter((a, i) => a !== '--user' && args[i - 1] !== '--user'))
  // As resolve-activity: the current user's (0) apps unless --user names another (PackageManagerShellCommand).
  const user = userArg(args)
  const packages = (
    name === undefined ? ctx.device.packages : ctx.device.packages.filter((p) => p.name === name)
  ).filter((p) => installedFor(p, user))
  const found = packages.flatMap((p) => launchersOf(p).map((activity) => ({p, activity})))
  if (found.length === 0) {
    ctx.out('No activities found\n')
    return 0
  }
  ctx.out(`${found.length} activities found:\n`)
  found.forEach(({p, activity}, i) => {
    ctx.out(`  Activity #${i}:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n`)
    if (args.includes('--brief')) ctx.out(`    ${p.name}/${shortActivity(p.name, activity)}\n`)
    else ctx.out(`    ActivityInfo:\n      name=${fullActivity(p.name, activity)}\n      packageName=${p.name}\n`)
  })
  return 0
}

function packagePath(ctx: CommandContext, args: string[]): number {
  const name = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')
  const pkg = name ? ctx.device.findPackage(name) : undefined
  if (!pkg || !installedFor(pkg, userArg(args))) return 1
  ctx.out(`package:${apkPath(pkg)}\n`)
  return 0
}

/** The package named inside an emulated APK: a ZIP (`PK\3\4`) holding `ARC_EMULATE_PACKAGE=NAME[;versionCode=N]`. */
export const APK_MARKER = /ARC_EMULATE_PACKAGE=([A-Za-z][\w.]*)(?:;versionCode=(\d+))?/

/**
 * `pm install [-r] [-g] [-d] [-t] FILE`: FILE must be an emulated APK on the device. Without `-r` an installed
 * package fails with INSTALL_FAILED_ALREADY_EXISTS (as Android before 7 did; newer pm replaces anyway); a lower
 * version code without `-d` fails with INSTALL_FAILED_VERSION_DOWNGRADE. `-g` grants every declared permission.
 */
function install(ctx: CommandContext, args: string[]): number {
  const flags = new Set(args.filter((a) => a.startsWith('-')))
  const file = args.filter((a) => !a.startsWith('-')).pop()
  const unknown = [...flags].find((f) => !['-r', '-g', '-d', '-t'].includes(f))
  if (unknown) {
    ctx.err(`Error: Unknown option ${unknown}\n`)
    return 1
  }
  let bytes: Buffer
  try {
    bytes = readFileSync(ctx.device.files.hostPath(file ?? '', ctx.cwd))
  } catch {
    ctx.err(`Error: Can't open file: ${file ?? ''}\n`)
    return 1
  }
  const marker =
    bytes.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004' ? APK_MARKER.exec(bytes.toString('latin1')) : null
  if (!marker) {
    ctx.out(`Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${file}: not an APK]\n`)
    return 1
  }
  const name = marker[1] as string
  const versionCode = Number(marker[2] ?? 1)
  const existing = ctx.device.findPackage(name)
  if (existing && !flags.has('-r')) {
    ctx.out(`Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${name} without first uninstalling.]\n`)
    return 1
  }
  if (existing && versionCode < existing.versionCode && !flags.has('-d')) {
    ctx.out(
      `Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code ${versionCode} is older than current ${existing.versionCode}]\n`
    )
    return 1
  }
  const pkg = existing ?? {
    name,
    system: false,
    versionCode,
    versionName: '1.0',
    launcher: '.MainActivity',
    permissions: [],
    granted: new Set<string>(),
  }
  pkg.versionCode = versionCode
  if (!existing) ctx.device.packages.push(pkg)
  if (flags.has('-g')) pkg.granted = new Set(pkg.permissions ?? [])
  ctx.out('Performing Streamed Install\nSuccess\n')
  return 0
}

/**
 * `pm uninstall [-k] [--user N] PKG`: `Success`, or `Failure [DELETE_FAILED_INTERNAL_ERROR]` for unknown packages.
 * Without --user it removes the package for every user (AOSP PackageManagerShellCommand.runUninstall: userId
 * defaults to USER_ALL), and a system package is refused. With --user N only that user's copy goes, a system
 * package's too (the well-known `pm uninstall --user 0` of preinstalled apps), and a package that user lacks prints
 * `Failure [not installed for N]` (runUninstall's own line; widely quoted by debloat guides).
 */
function uninstall(ctx: CommandContext, args: string[]): number {
  const name = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user').pop()
  const device = ctx.device
  const index = device.packages.findIndex((p) => p.name === name)
  const pkg = device.packages[index]
  if (args.includes('--user')) {
    const user = userArg(args)
    if (user !== 'all') {
      if (!pkg || !name || !installedFor(pkg, user)) {
        ctx.out(`Failure [not installed for ${user}]\n`)
        return 1
      }
      device.forceStop(name, user)
      pkg.users = (pkg.users ?? [0]).filter((u) => u !== user)
      pkg.grantedByUser?.delete(user)
      if (user === 0) pkg.granted = new Set()
      if (pkg.users.length === 0) device.packages.splice(index, 1)
      ctx.out('Success\n')
      return 0
    }
  }
  if (!pkg || !name || pkg.system) {
    ctx.out('Failure [DELETE_FAILED_INTERNAL_ERROR]\n')
    return 1
  }
  device.forceStop(name)
  device.packages.splice(index, 1)
  ctx.out('Success\n')
  return 0
}

/**
 * `pm grant|revoke [--user N] PKG PERMISSION`: errors worded as PackageManagerShellCommand's exceptions. Runtime
 * permissions are kept per user, and the user defaults to the system user, 0 (runGrantRevokePermission:
 * UserHandle.USER_SYSTEM); a package that user lacks is an unknown package to it (PermissionManagerService filters
 * packages not installed for the user: `Unknown package`).
 */
function permission(ctx: CommandContext, verb: 'grant' | 'revoke', args: string[]): number {
  const [name, perm] = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user')
  const user = userArg(args)
  const listed = name ? ctx.device.findPackage(name) : undefined
  const pkg = listed && user !== 'all' && installedFor(listed, user) ? listed : undefined
  const fail = (message: string) => {
    ctx.err(
      `Exception occurred while executing '${verb}':\n${message}\n\tat com.android.server.pm.PackageManagerShellCommand.runGrantRevokePermission(PackageManagerShellCommand.java:2771)\n`
    )
    return 255
  }
  if (!pkg || user === 'all') return fail(`java.lang.IllegalArgumentException: Unknown package: ${name ?? ''}`)
  if (!perm || !/^[\w.]+\.[\w]+$/.test(perm))
    return fail(`java.lang.IllegalArgumentException: Unknown permission: ${perm ?? ''}`)
  if (!(pkg.permissions ?? []).includes(perm)) {
    return fail(`java.lang.SecurityException: Package ${pkg.name} has not requested permission ${perm}`)
  }
  const granted = grantsOf(pkg, user)
  if (verb === 'grant') granted.add(perm)
  // Revoking a granted runtime permission stops that user's copy of the app: revokeRuntimePermissionInternal
  // (PermissionManagerServiceImpl) calls the callback's onPermissionRevoked, which kills the uid ("permissions
  // revoked"); revoking one not granted changes nothing and stops nothing (uidState.revokePermission is false).
  else if (granted.delete(perm)) ctx.device.forceStop(pkg.name, user)
  return 0
}

/**
 * `pm clear [--user N] PKG`: the data of that user's copy (default: the system user, 0; AOSP
 * PackageManagerShellCommand.runClear reads `--user` only as its first option); `Failed` where that user lacks it.
 */
function clear(ctx: CommandContext, args: string[]): number {
  const device = ctx.device
  const user = args[0] === '--user' ? userArg(args) : 0
  const name = (args[0] === '--user' ? args.slice(2) : args).find((a) => !a.startsWith('-'))
  const pkg = name ? device.findPackage(name) : undefined
  if (!name || !pkg || user === 'all' || !installedFor(pkg, user)) {
    ctx.out('Failed\n')
    return 1
  }
  device.forceStop(name, user)
  grantsOf(pkg, user).clear()
  ctx.out('Success\n')
  return 0
}

/** The `package` service, shared by `pm …` and `cmd package …`. */
export function packageCommand(ctx: CommandContext, args: string[]): number {
  const [sub, ...rest] = args
  const device: VirtualDevice = ctx.device
  switch (sub) {
    case 'list':
      if (rest[0] === 'packages') return listPackages(ctx, rest.slice(1))
      if (rest[0] === 'users') {
        // UserManagerService's list: `UserInfo{id:name:flags}` and `running` (flags 0xc13 the owner: ADMIN, FULL,
        // PRIMARY, SYSTEM…; 0x1030 a managed profile; 0x410 a second full user), as `pm list users` prints it.
        ctx.out(
          `Users:\n${device.users.map((u) => `\tUserInfo{${u.id}:${u.name}:${u.id === 0 ? 'c13' : u.workProfile ? '1030' : '410'}} running\n`).join('')}`
        )
        return 0
      }
      break
    case 'resolve-activity':
      return resolveActivity(ctx, rest)
    case 'query-activities':
      return queryActivities(ctx, rest)
    case 'path':
      return packagePath(ctx, rest)
    case 'install':
      return install(ctx, rest)
    case 'uninstall':
      return uninstall(ctx, rest)
    case 'grant':
    case 'revoke':
      return permission(ctx, sub, rest)
    case 'clear':
      return clear(ctx, rest)
  }
  ctx.err(`Unknown command: ${sub ?? ''}\n`)
  return 255
}

export function pm(ctx: CommandContext): number {
  return packageCommand(ctx, ctx.argv.slice(1))
}
