/**
 * Installing, removing and resetting apps, opening links and changing runtime permissions, with `pm` and `am`
 * (adb.md §3.10). `pm` reports most outcomes as text with exit status 0, so each answer is read for its
 * `Success` / `Failure [REASON]` / exception line.
 */
import {randomBytes} from 'node:crypto'
import {open, stat} from 'node:fs/promises'
import {amStartFailed} from './am-status.js'

import {DeviceCommandError, InvalidInputError} from '../../errors/arc-error.js'
import type {InstallOptions} from '../device-driver.js'
import {isInstalled, notInstalled, userWords} from './apps.js'
import type {DeviceShell} from './device-shell.js'

/** `Failure [INSTALL_FAILED_ALREADY_EXISTS: …]` → `INSTALL_FAILED_ALREADY_EXISTS`. */
function failureReason(output: string): string | undefined {
  return /Failure \[([A-Z_]+)/.exec(output)?.[1] ?? /^Failure(?: |$)(.*)$/m.exec(output)?.[1]?.trim()
}

function pmFailed(
  dev: DeviceShell,
  what: string,
  output: string,
  exitCode: number,
  actions: string[] = []
): DeviceCommandError {
  const reason = failureReason(output)
  const error = dev.failed(what, output, exitCode)
  return new DeviceCommandError(error.message, {details: {...error.details, reason}, actions})
}

/** The reasons arc has a next step for. */
const INSTALL_ACTIONS: Record<string, string> = {
  INSTALL_FAILED_ALREADY_EXISTS: 'Pass --replace to reinstall over the installed version (its data is kept).',
  INSTALL_FAILED_VERSION_DOWNGRADE: 'Pass --downgrade to install an older version over a newer one.',
  INSTALL_FAILED_TEST_ONLY: 'Pass --allow-test to install an app built with android:testOnly.',
  INSTALL_FAILED_UPDATE_INCOMPATIBLE:
    'The installed app is signed with another key: uninstall it first (`arc app uninstall PKG`).',
  INSTALL_FAILED_INSUFFICIENT_STORAGE: 'Free space on the device and try again.',
}

/** Refuses a host path that is not a readable file starting like a ZIP (every APK is one). */
async function checkApk(apkPath: string): Promise<number> {
  const info = await stat(apkPath).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidInputError(
      `argument <apk>: ${apkPath}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
      {
        details: {apk: apkPath},
      }
    )
  })
  if (!info.isFile()) throw new InvalidInputError(`argument <apk>: ${apkPath} is not a file`, {details: {apk: apkPath}})
  const head = Buffer.alloc(4)
  const handle = await open(apkPath, 'r').catch((error: Error) => {
    throw new InvalidInputError(`argument <apk>: cannot read ${apkPath}: ${error.message}`, {details: {apk: apkPath}})
  })
  try {
    await handle.read(head, 0, 4, 0)
  } finally {
    await handle.close()
  }
  if (!head.equals(Buffer.from('PK\u0003\u0004', 'latin1'))) {
    throw new InvalidInputError(
      `argument <apk>: ${apkPath} is not an APK (an APK is a ZIP file; this one does not start with PK)`,
      {
        details: {apk: apkPath},
      }
    )
  }
  return info.size
}

/**
 * Pushes the APK to a fresh file in /data/local/tmp, runs `pm install [-r] [-g] [-d] [-t] FILE` and removes the
 * file whatever happened. Split APKs (several files) are not handled.
 */
export async function installApp(dev: DeviceShell, apkPath: string, options: InstallOptions): Promise<void> {
  const bytes = await checkApk(apkPath)
  const remote = `/data/local/tmp/arc-install-${randomBytes(6).toString('hex')}.apk`
  // Removed by this function, or by the driver's close where the call is cut off (a cancelled install).
  const cleanup = dev.server.cleanupIfCut(() => dev.text(['rm', '-f', remote]))
  try {
    await dev.server.push(dev.serial, apkPath, remote, bytes)
    const flags = [
      ...(options.replace ? ['-r'] : []),
      ...(options.grantAll ? ['-g'] : []),
      ...(options.downgrade ? ['-d'] : []),
      ...(options.allowTest ? ['-t'] : []),
    ]
    const {output, exitCode} = await dev.run(
      ['pm', 'install', ...flags, remote],
      dev.server.timeoutMs + Math.ceil(bytes / 1_048_576) * 2000
    )
    const text = output.toString('utf8')
    if (!/^Success\s*$/m.test(text)) {
      const reason = failureReason(text)
      throw pmFailed(
        dev,
        `installing ${apkPath}`,
        text,
        exitCode,
        reason && INSTALL_ACTIONS[reason] ? [INSTALL_ACTIONS[reason]] : []
      )
    }
  } finally {
    await cleanup.run()
  }
}

/** `pm uninstall [-k] PKG`: `-k` keeps the app's data and cache. */
export async function uninstallApp(
  dev: DeviceShell,
  packageId: string,
  keepData: boolean,
  user?: number
): Promise<void> {
  // Without --user pm removes the app for every user (PackageManagerShellCommand.runUninstall: USER_ALL); with it,
  // that user's copy alone, and `Failure [not installed for N]` where that user lacks it.
  const {output, exitCode} = await dev.run([
    'pm',
    'uninstall',
    ...(keepData ? ['-k'] : []),
    ...userWords(user),
    packageId,
  ])
  const text = output.toString('utf8')
  if (/^Success\s*$/m.test(text)) return
  if (
    /not installed|DELETE_FAILED_INTERNAL_ERROR|Unknown package/i.test(text) &&
    !(await isInstalled(dev, packageId, user))
  ) {
    throw notInstalled(dev, packageId, user)
  }
  throw pmFailed(dev, `uninstalling ${packageId}`, text, exitCode)
}

/** `pm clear PKG`: deletes the app's data, cache and runtime permission choices; prints `Success` or `Failed`. */
export async function clearAppData(dev: DeviceShell, packageId: string, user?: number): Promise<void> {
  if (!(await isInstalled(dev, packageId, user))) throw notInstalled(dev, packageId, user)
  // pm clear reads --user only as its first option (PackageManagerShellCommand.runClear), so it goes first.
  const {output, exitCode} = await dev.run(['pm', 'clear', ...userWords(user), packageId])
  const text = output.toString('utf8')
  if (!/^Success\s*$/m.test(text)) throw pmFailed(dev, `clearing the data of ${packageId}`, text, exitCode)
}

/** `am start -W -a android.intent.action.VIEW -d URL`: the app that handles the link opens it. */
export async function openUrl(dev: DeviceShell, url: string): Promise<void> {
  const {output, exitCode} = await dev.run(['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', url])
  const text = output.toString('utf8')
  if (/unable to resolve Intent|does not match any activities/i.test(text)) {
    throw new DeviceCommandError(`no app on ${dev.serial} opens ${url}`, {
      details: {url, output: text.slice(0, 2000)},
      actions: ['Check the scheme and host, or install the app that handles the link.'],
    })
  }
  // As for app open (apps.ts): `Status: timeout` follows a started activity that was slow to draw, not a failure.
  if (amStartFailed(text, exitCode)) throw dev.failed(`opening ${url}`, text, exitCode)
}

/** `pm grant|revoke PKG PERMISSION` (runtime permissions; Android 6+). Prints nothing when it works. */
export async function setPermission(
  dev: DeviceShell,
  packageId: string,
  permission: string,
  granted: boolean,
  user?: number
): Promise<void> {
  const verb = granted ? 'grant' : 'revoke'
  // pm grant for a user that does not exist prints nothing and changes nothing (PermissionManagerService logs "No
  // such user" and returns): a named user's copy is looked up first, so that case is an error, not a success.
  if (user !== undefined && !(await isInstalled(dev, packageId, user))) throw notInstalled(dev, packageId, user)
  const {output, exitCode} = await dev.run(['pm', verb, ...userWords(user), packageId, permission])
  const text = output.toString('utf8')
  if (exitCode === 0 && !/Exception|^Error|Failure/im.test(text)) return
  if (/Unknown package/i.test(text)) throw notInstalled(dev, packageId, user)
  const cause = /(?:Exception|Error): (.+)$/m.exec(text)?.[1]?.trim()
  throw new DeviceCommandError(
    `cannot ${verb} ${permission} ${granted ? 'to' : 'from'} ${packageId} on ${dev.serial}: ${cause ?? (text.trim() || `exit status ${exitCode}`)}`,
    {
      details: {package_id: packageId, permission, output: text.slice(0, 2000), exit_code: exitCode},
      actions: [
        'Only runtime ("dangerous") permissions the app declares in its manifest can be granted or revoked; check with `arc shell -- dumpsys package PKG`.',
      ],
    }
  )
}
