/** Listing, launching and stopping apps with `pm`, `cmd package` and `am` (adb.md §3.10). */
import {DeviceCommandError, TimeoutError, UnsupportedError} from '../../errors/arc-error.js'
import type {AppFilter, AppInfo, IntentExtra} from '../device-driver.js'
import {isMissingCommand, type DeviceShell} from './device-shell.js'
import {extraWords} from './intent-extras.js'
import {PACKAGE_VERSION_LINES, parsePackageVersions, type PackageVersion} from './parse-package-versions.js'
import {
  firstQueriedActivity,
  isInstalledOutput,
  isUnknownOption,
  parsePackageList,
  parseResolvedActivity,
  type ListedPackage,
} from './parse-packages.js'
import {raw} from './shell-quote.js'
import {amStartFailed} from './am-status.js'

/** `--user N` where a user is named: pm and am default to the system (and current) user, 0. */
export const userWords = (user: number | undefined) => (user === undefined ? [] : ['--user', user])

/** What pm printed besides its `package:` lines (which name packages, whatever their names say). */
const pmSaid = (output: string) =>
  output
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('package:'))
    .join('\n')

async function listPackages(dev: DeviceShell, flag: '-s' | '-3', user?: number): Promise<ListedPackage[]> {
  const output = await dev.text(['pm', 'list', 'packages', flag, '--show-versioncode', ...userWords(user)])
  // `--show-versioncode` arrived in Android 9; older pm rejects it, so ask again without. pm's own words are read
  // apart from the package lines: a package may be named com.example.ExceptionViewer.
  const text = isUnknownOption(pmSaid(output))
    ? await dev.text(['pm', 'list', 'packages', flag, ...userWords(user)])
    : output
  const packages = parsePackageList(text)
  if (/Exception|^Error/m.test(pmSaid(text)) || (text.trim() !== '' && packages.length === 0)) {
    throw dev.failed(`pm list packages ${flag}`, text)
  }
  return packages
}

/**
 * Version names (and codes) of every installed package: `dumpsys package packages`, filtered on the device by
 * grep to the lines the parser reads (some 3 of the 40 or so each app's block has). Anything but an answer (a device
 * without grep, a dumpsys that failed or was refused) gives no versions, never a failed listing.
 */
async function packageVersions(dev: DeviceShell): Promise<Map<string, PackageVersion>> {
  try {
    return parsePackageVersions(
      await dev.text(['dumpsys', 'package', 'packages', raw('|'), 'grep', '-E', PACKAGE_VERSION_LINES])
    )
  } catch (error) {
    if (error instanceof DeviceCommandError || error instanceof TimeoutError) return new Map()
    throw error
  }
}

/**
 * Installed packages, system (`pm list packages -s`) and user (`-3`) ones, sorted by package id, with the
 * version name dumpsys reports (read in parallel). Plain ADB has no way to read an app's label, so `name` is the
 * package id. `version_name` and `version_code` are null where the device reports none.
 */
export async function listApps(dev: DeviceShell, filter: AppFilter, forUser?: number): Promise<AppInfo[]> {
  const [system, user, versions] = await Promise.all([
    filter === 'user' ? [] : listPackages(dev, '-s', forUser),
    filter === 'system' ? [] : listPackages(dev, '-3', forUser),
    packageVersions(dev),
  ])
  const toApp = (pkg: ListedPackage, isSystem: boolean): AppInfo => {
    const version = versions.get(pkg.packageId)
    return {
      package_id: pkg.packageId,
      name: pkg.packageId,
      version_name: version?.versionName ?? null,
      version_code: pkg.versionCode ?? version?.versionCode ?? null,
      is_system: isSystem,
    }
  }
  return [...system.map((p) => toApp(p, true)), ...user.map((p) => toApp(p, false))].sort((a, b) =>
    a.package_id.localeCompare(b.package_id)
  )
}

export async function isInstalled(dev: DeviceShell, packageId: string, user?: number): Promise<boolean> {
  return isInstalledOutput(await dev.text(['pm', 'path', ...userWords(user), packageId]))
}

export function notInstalled(dev: DeviceShell, packageId: string, user?: number): DeviceCommandError {
  const forUser = user === undefined ? '' : ` for user ${user}`
  return new DeviceCommandError(`app ${packageId} is not installed${forUser} on ${dev.serial}`, {
    details: {package_id: packageId, reason: 'APP_NOT_INSTALLED', ...(user === undefined ? {} : {user})},
    actions: [
      'Run `arc app list --name-query <part of the name>` to find the package id.',
      'An app of a work profile or another user is listed with `arc app list --user N` (`arc shell -- pm list users` names the users) and opened with `arc app open PKG --user N` (close, clear, grant, revoke and uninstall take --user N too).',
    ],
  })
}

function noLauncher(dev: DeviceShell, packageId: string): DeviceCommandError {
  return new DeviceCommandError(`app ${packageId} has no launchable activity on ${dev.serial}`, {
    details: {package_id: packageId},
  })
}

/**
 * Resolves the launcher activity (`cmd package resolve-activity --brief`, Android 7+; `query-activities` when that
 * answers the chooser) and starts it with `am start -W`, with `extras` in its intent; devices without
 * `cmd package` fall back to `monkey -p PKG -c LAUNCHER 1`, which cannot carry extras.
 */
export async function openApp(
  dev: DeviceShell,
  packageId: string,
  extras: readonly IntentExtra[] = [],
  user?: number
): Promise<void> {
  const monkeyLaunch = (dev: DeviceShell, packageId: string) => {
    if (extras.length > 0) {
      throw new UnsupportedError(
        `${dev.serial} does not name the launcher activity of ${packageId}, so its intent cannot carry extras`,
        {
          details: {package_id: packageId},
          actions: ['Name the activity with --activity (`arc app open PKG --activity .MainActivity --extra k=v`).'],
        }
      )
    }
    // monkey starts the app of the current user: for another user it could start the wrong copy of the package.
    if (user !== undefined) {
      throw new UnsupportedError(
        `${dev.serial} does not name the launcher activity of ${packageId} for user ${user}, and its fallback (monkey) starts the current user's app`,
        {
          details: {package_id: packageId, user},
          actions: [
            `Name the activity with --activity (\`arc app open ${packageId} --activity .MainActivity --user ${user}\`).`,
          ],
        }
      )
    }
    return monkeyStart(dev, packageId)
  }
  const resolved = await dev.text([
    'cmd',
    'package',
    'resolve-activity',
    '--brief',
    ...userWords(user),
    '-a',
    'android.intent.action.MAIN',
    '-c',
    'android.intent.category.LAUNCHER',
    packageId,
  ])
  let component = parseResolvedActivity(resolved)
  // A package with several launcher activities (a second icon, a debug build's leak viewer) resolves to the
  // platform's chooser, `android/com.android.internal.app.ResolverActivity` (a vendor's own on some builds):
  // starting that shows an "open with" list of every app. Take the package's first launcher activity instead;
  // where the device lists none arc can read, monkey starts the package's launcher itself.
  if (component && !component.startsWith(`${packageId}/`)) {
    const queried = await dev.text([
      'cmd',
      'package',
      'query-activities',
      '--brief',
      ...userWords(user),
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      packageId,
    ])
    component = firstQueriedActivity(queried, packageId)
    if (!component) return monkeyLaunch(dev, packageId)
  }
  if (!component) {
    if (!(await isInstalled(dev, packageId, user))) throw notInstalled(dev, packageId, user)
    if (isMissingCommand(resolved)) return monkeyLaunch(dev, packageId)
    throw noLauncher(dev, packageId)
  }
  const {output, exitCode} = await dev.run([
    'am',
    'start',
    '-W',
    ...userWords(user),
    '-a',
    'android.intent.action.MAIN',
    '-c',
    'android.intent.category.LAUNCHER',
    '-n',
    component,
    ...extraWords(extras),
  ])
  const text = output.toString('utf8')
  // `Status: timeout` is no failure: am prints a status only for an activity it started, and `timeout` when that
  // activity did not report itself drawn within the wait (a slow cold start); a refused launch prints `Error: …`.
  // am's verdict lines are read, not its echo of the package (am-status.ts).
  if (amStartFailed(text, exitCode)) throw dev.failed(`launching ${packageId}`, text, exitCode)
}

async function monkeyStart(dev: DeviceShell, packageId: string): Promise<void> {
  const output = await dev.text(['monkey', '-p', packageId, '-c', 'android.intent.category.LAUNCHER', 1])
  if (/No activities found|monkey aborted/i.test(output) && !/Events injected: 1/.test(output)) {
    throw noLauncher(dev, packageId)
  }
}

/**
 * `am force-stop PKG`: stops the app and its services whether it is in the foreground or not (the spec's
 * Android service could only kill background processes; over ADB arc can do more). Refuses unknown packages.
 */
export async function closeApp(dev: DeviceShell, packageId: string, user?: number): Promise<void> {
  if (!(await isInstalled(dev, packageId, user))) throw notInstalled(dev, packageId, user)
  // Without --user am stops every user's copy (AOSP ActivityManagerShellCommand.runForceStop: USER_ALL).
  const words = ['am', 'force-stop', ...userWords(user), packageId]
  await dev.action(words, words.join(' '))
}
