import type {AnyTool} from '@arc-cli/core'

import {clearAppData, grantPermission, installApp, openUrl, revokePermission, uninstallApp} from './app-manage.js'
import {closeApp, listApps, openApp} from './apps.js'
import {deviceInfo, rotation, unlock, wake} from './device.js'
import {getDeviceLogs} from './get-device-logs.js'
import {listDevices} from './list-devices.js'
import {longPress} from './long-press.js'
import {pressKey} from './press-key.js'
import {pressBack, pressHome, pressRecents} from './press-system-keys.js'
import {saveSnapshot} from './save-snapshot.js'
import {scroll} from './scroll.js'
import {openNotifications, openQuickSettings} from './status-bar.js'
import {screenrecord} from './screenrecord.js'
import {shell} from './shell.js'
import {swipe} from './swipe.js'
import {doubleTap, tap} from './tap.js'

/**
 * The device tools of arc's oclif core, one file each (or one small family) beside this one. Adding a tool: write
 * its file with defineTool, add it here, add a test; its CLI command and MCP tool follow from the definition.
 */
export const tools: AnyTool[] = [
  listDevices,
  saveSnapshot,
  pressBack,
  pressHome,
  pressRecents,
  openNotifications,
  openQuickSettings,
  getDeviceLogs,
  tap,
  longPress,
  doubleTap,
  swipe,
  scroll,
  pressKey,
  openApp,
  listApps,
  closeApp,
  installApp,
  uninstallApp,
  clearAppData,
  openUrl,
  grantPermission,
  revokePermission,
  deviceInfo,
  rotation,
  wake,
  unlock,
  shell,
  screenrecord,
]
