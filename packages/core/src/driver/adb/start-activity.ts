/**
 * Starting a named activity of an app: `am start -W -n PKG/ACTIVITY [-a ACTION] [-d URI] [--es|--ei|--ez KEY VALUE]…`
 * (adb.md §3.10), every word quoted. am prints its refusals as text: `Error type 3` and `Error: Activity class {…}
 * does not exist.` for a class the package does not declare (or a package that is not installed), and a
 * SecurityException, `Permission Denial: starting Intent {…} not exported from uid N`, for an activity the app does
 * not export: adb's shell user may start only exported ones.
 */
import {DeviceCommandError} from '../../errors/arc-error.js'
import type {LaunchOptions} from '../device-driver.js'
import {isInstalled, notInstalled} from './apps.js'
import type {DeviceShell} from './device-shell.js'
import {extraWords} from './intent-extras.js'
import {amStartFailed} from './am-status.js'

/** `.ui.Settings` in `com.foo` → `com.foo.ui.Settings`; a fully qualified name stays as it is. */
export function activityClass(packageId: string, activity: string): string {
  return activity.startsWith('.') ? `${packageId}${activity}` : activity
}

export async function startActivity(
  dev: DeviceShell,
  packageId: string,
  activity: string,
  launch: LaunchOptions = {}
): Promise<void> {
  const component = `${packageId}/${activity}`
  const {output, exitCode} = await dev.run([
    'am',
    'start',
    '-W',
    ...(launch.user === undefined ? [] : ['--user', launch.user]),
    '-n',
    component,
    ...(launch.action === undefined ? [] : ['-a', launch.action]),
    ...(launch.data === undefined ? [] : ['-d', launch.data]),
    ...extraWords(launch.extras ?? []),
  ])
  const text = output.toString('utf8')
  const className = activityClass(packageId, activity)
  const details = {package_id: packageId, activity: className, output: text.slice(0, 2000), exitCode}
  // am first echoes the intent (`Starting: Intent { … dat=URI … }`), data word for word: its refusal is another line.
  if (text.split('\n').some((line) => !line.startsWith('Starting: ') && line.includes('Permission Denial'))) {
    throw new DeviceCommandError(
      `activity ${className} of ${packageId} is not exported: ${dev.serial} refused to start it from adb (Permission Denial)`,
      {
        details: {...details, reason: 'NOT_EXPORTED'},
        actions: [
          `Start an exported activity instead (the launcher's: \`arc app open ${packageId}\`) and go on from there.`,
          'For an app you build, set android:exported="true" on the activity in a debug build\'s manifest.',
        ],
      }
    )
  }
  if (/^Error type 3|^Error: Activity class .* does not exist/m.test(text)) {
    if (!(await isInstalled(dev, packageId, launch.user))) throw notInstalled(dev, packageId, launch.user)
    throw new DeviceCommandError(`activity ${className} does not exist in ${packageId} on ${dev.serial}`, {
      details: {...details, reason: 'ACTIVITY_NOT_FOUND'},
      actions: [
        'Check the name: `.Name` is relative to the package (.ui.SettingsActivity), else give the full class name.',
        `See the activities the app declares with \`arc shell -- dumpsys package ${packageId}\`.`,
      ],
    })
  }
  // As for the launcher (apps.ts): `Status: timeout` follows an activity that started but was slow to draw.
  if (amStartFailed(text, exitCode)) throw dev.failed(`starting ${component}`, text, exitCode)
}
