/**
 * The clipboard over plain ADB (adb.md §3.12): there is no stock shell command for it. Android 10+ lets only the
 * focused app or the default IME read the clipboard, and a read from the shell comes back empty rather than
 * failing; `service call clipboard` needs a hand-built ClipData parcel whose transaction codes change per release.
 * So arc refuses with UNSUPPORTED, naming the version and why, instead of returning an empty clipboard that may
 * be a denied read (docs/devices.md has the table).
 */
import {UnsupportedError} from '../../errors/arc-error.js'
import type {DeviceShell} from './device-shell.js'
import {sdkLevel} from './gesture.js'

/** Android 10 (API 29) restricted clipboard reads to the focused app and the default IME. */
export const CLIPBOARD_READ_RESTRICTED_SDK = 29

export function clipboardReason(sdk: number | undefined, what: 'read' | 'write'): string {
  if (what === 'read' && sdk !== undefined && sdk >= CLIPBOARD_READ_RESTRICTED_SDK) {
    return 'Android 10+ lets only the focused app or the default keyboard read the clipboard, and the adb shell is neither (a read would come back empty, not fail)'
  }
  return 'Android has no shell command for the clipboard, and `service call clipboard` needs a ClipData parcel whose layout and transaction codes change per release'
}

/** `helper`: why the on-device helper, tried first, did not serve (a locked device, a release without the API). */
async function refuse(dev: DeviceShell, what: 'read' | 'write', helper?: string): Promise<never> {
  const sdk = await sdkLevel(dev)
  const version = sdk === undefined ? 'this device' : `this device (API ${sdk})`
  const tried = helper === undefined ? '' : `; the on-device helper did not serve it either: ${helper}`
  throw new UnsupportedError(
    `cannot ${what} the clipboard over ADB on ${version}: ${clipboardReason(sdk, what)}${tried}`,
    {
      details: {serial: dev.serial, sdk},
      actions: [
        'Clipboard access needs code on the device (an IME or companion app); see docs/devices.md.',
        'Run `arc doctor` to see what this device supports.',
      ],
    }
  )
}

export function getClipboard(dev: DeviceShell, helper?: string): Promise<string | null> {
  return refuse(dev, 'read', helper)
}

export function setClipboard(dev: DeviceShell, helper?: string): Promise<void> {
  return refuse(dev, 'write', helper)
}
