/**
 * The refusals of a recorded device, as tables instead of one stub per method: an action costs one line in
 * READ_ONLY_ACTIONS, a read a recording cannot answer one line in NOT_RECORDED. A method of DeviceDriver in
 * neither table and not written by the subclass is a compile error in SnapshotDriver, so nothing is forgotten.
 */
import {ReadOnlyDeviceError, UnsupportedError} from '../errors/arc-error.js'
import type {DeviceDriver} from './device-driver.js'

/** Methods that change the device, with the words of the refusal (`cannot <words> on <serial>`). */
export const READ_ONLY_ACTIONS = {
  tap: 'tap',
  longPress: 'long-press',
  doubleTap: 'double-tap',
  swipe: 'swipe',
  gesture: 'perform a gesture',
  pressKey: 'press a key',
  pressKeys: 'press keys',
  typingMethod: 'type text',
  inputText: 'type text',
  openNotifications: 'open notifications',
  openQuickSettings: 'open quick settings',
  openApp: 'open an app',
  closeApp: 'close an app',
  setClipboard: 'set the clipboard',
  makeDirs: 'create folders',
  writeFile: 'write files',
  deleteFile: 'delete files',
  clearLogs: 'clear the device logs',
  installApp: 'install an app',
  uninstallApp: 'uninstall an app',
  clearAppData: "clear an app's data",
  openUrl: 'open a URL',
  setPermission: 'change a permission',
  setRotation: 'rotate the screen',
  wake: 'wake the screen',
  unlock: 'unlock the screen',
  runCommand: 'run a shell command',
} as const satisfies Partial<Record<keyof DeviceDriver, string>>

/** Reads a recording has no data for, with what is missing (`a recorded snapshot has no <words>`). */
export const NOT_RECORDED = {
  listApps: 'installed apps to list',
  logs: 'device logs',
  getClipboard: 'clipboard',
  probeCapabilities: 'device to probe (arc doctor needs a live device)',
  statFile: 'file system',
  confirmMissing: 'file system',
  listDir: 'file system',
  readFile: 'file system',
  realPath: 'file system',
  freeBytes: 'file system',
  followLogs: 'device logs to follow',
  powerState: 'screen power or lock state',
  screenRecord: 'moving screen to record (it is a still recording)',
} as const satisfies Partial<Record<keyof DeviceDriver, string>>

type Refused = keyof typeof READ_ONLY_ACTIONS | keyof typeof NOT_RECORDED

/** The methods ReadOnlyDriver supplies: every one rejects. */
export type RefusedMethods = Pick<DeviceDriver, Refused>

export abstract class ReadOnlyDriver {
  abstract readonly serial: string
}

// Declaration merging: the prototype below carries these methods.
export interface ReadOnlyDriver extends RefusedMethods {}

for (const [method, words] of Object.entries(READ_ONLY_ACTIONS)) {
  Object.defineProperty(ReadOnlyDriver.prototype, method, {
    value: async function (this: ReadOnlyDriver): Promise<never> {
      throw new ReadOnlyDeviceError(`recorded device is read-only: cannot ${words} on ${this.serial}`, {
        actions: ['Run the command against a live device (--device SERIAL) or `arc emulate`.'],
      })
    },
    writable: true,
    configurable: true,
  })
}

for (const [method, words] of Object.entries(NOT_RECORDED)) {
  Object.defineProperty(ReadOnlyDriver.prototype, method, {
    value: async function (this: ReadOnlyDriver): Promise<never> {
      throw new UnsupportedError(`a recorded snapshot has no ${words} (${this.serial})`)
    },
    writable: true,
    configurable: true,
  })
}
