import type {AnyTool} from '@arc-cli/core'

import {clearAppData, grantPermission, installApp, openUrl, revokePermission, uninstallApp} from './app-manage.js'
import {closeApp, listApps, openApp} from './apps.js'
import {getClipboard, setClipboard} from './clipboard.js'
import {customGesture} from './custom-gesture.js'
import {doctor} from './doctor.js'
import {appendFile} from './files/append-file.js'
import {deleteFile} from './files/delete-file.js'
import {downloadFromUrl} from './files/download-from-url.js'
import {fileReplace} from './files/file-replace.js'
import {listFiles} from './files/list-files.js'
import {listStorageLocations} from './files/list-storage-locations.js'
import {readFile} from './files/read-file.js'
import {pullFile, pushFile} from './files/transfer.js'
import {writeFile} from './files/write-file.js'
import {clickElement, longClickElement} from './click-element.js'
import {getElementDetails} from './element-details.js'
import {assertScreen} from './assert.js'
import {findElements} from './find-elements.js'
import {deviceInfo, rotation, unlock, wake} from './device.js'
import {getDeviceLogs} from './get-device-logs.js'
import {hideKeyboard, keyboardStatus} from './keyboard.js'
import {listDevices} from './list-devices.js'
import {longPress} from './long-press.js'
import {pinch} from './pinch.js'
import {pressKey} from './press-key.js'
import {pressBack, pressHome, pressRecents} from './press-system-keys.js'
import {saveSnapshot} from './save-snapshot.js'
import {scroll} from './scroll.js'
import {scrollToElement} from './scroll-to-element.js'
import {openNotifications, openQuickSettings} from './status-bar.js'
import {screenrecord} from './screenrecord.js'
import {shell} from './shell.js'
import {swipe} from './swipe.js'
import {typeAppendText, typeClearText, typeInsertText, typeReplaceText} from './type-text.js'
import {waitForElement, waitForElementGone} from './wait.js'
import {waitForIdle} from './wait-idle.js'
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
  keyboardStatus,
  hideKeyboard,
  openNotifications,
  openQuickSettings,
  getDeviceLogs,
  tap,
  longPress,
  doubleTap,
  swipe,
  scroll,
  pinch,
  customGesture,
  pressKey,
  openApp,
  listApps,
  closeApp,
  listStorageLocations,
  listFiles,
  readFile,
  writeFile,
  pullFile,
  pushFile,
  appendFile,
  fileReplace,
  downloadFromUrl,
  deleteFile,
  getClipboard,
  setClipboard,
  doctor,
  findElements,
  assertScreen,
  clickElement,
  longClickElement,
  scrollToElement,
  getElementDetails,
  typeAppendText,
  typeInsertText,
  typeReplaceText,
  typeClearText,
  waitForElement,
  waitForElementGone,
  waitForIdle,
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
