import type {ErrorCode} from './arc-error.js'

/** Exit status after SIGINT, as shells report it: the CANCELLED code's status. */
export const EXIT_INTERRUPTED = 130

/**
 * `details.reason` where one code covers several causes: a script tells them apart by it (docs/errors.md lists
 * them; a test checks that every reason arc's sources give is here). Reasons are stable, as codes are.
 */
export const ERROR_REASONS: Array<{code: ErrorCode; reason: string; meaning: string}> = [
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'APP_NOT_INSTALLED',
    meaning: 'the app (package) is not installed (for that user)',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'NOT_EXPORTED',
    meaning: 'the activity exists but is not exported: `am start` may not start it',
  },
  {code: 'DEVICE_COMMAND_FAILED', reason: 'ACTIVITY_NOT_FOUND', meaning: 'no such activity in the app'},
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'INPUT_NOT_ALLOWED',
    meaning: 'the device refuses injected input (Xiaomi: "USB debugging (Security settings)")',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'DISPLAY_OFF',
    meaning: 'the display sleeps, or a screensaver shows: a touch would reach no app, so none was sent',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'NOT_VISIBLE_AFTER_SCROLLS',
    meaning: '`scroll-to ID`: the element is still not visible after its 5 scrolls',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'NO_ROOM_TO_SCROLL',
    meaning:
      'the keyboard, the system bars or a window stacked above the list (a popup, a picture-in-picture video) leave no room to swipe it',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'FOCUS_NOT_TAKEN',
    meaning: 'typing: the field did not take the focus when tapped (the tap opened another screen): nothing was typed',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'FOCUS_IN_OTHER_WINDOW',
    meaning:
      'typing: the field has the focus within its window, but a dialog or menu over it has the input focus: nothing was typed',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'FOCUS_MOVED',
    meaning:
      'typing in chunks: the app moved the focus out of the field between chunks (a PIN box that moves on, a form that jumps to the next field): the rest was not typed',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'FIELD_LEFT_SCREEN',
    meaning: 'typing: the field left the screen before it could be read back',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'TEXT_NOT_TAKEN',
    meaning: 'typing: the field does not hold what was typed (the app filters, limits or reformats input)',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'CURSOR_NOT_FOUND',
    meaning:
      'typing on a device that takes no modified keys (no helper, Android before 13): the one character typed to find the cursor did not show where it went in (a field that reformats or filters), or one DEL did not take it out again: nothing more was typed, `details.now` is what the field holds',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'PROBE_NOT_TAKEN',
    meaning:
      'typing: the field did not take the probe character that tells its hint from its text as a plain field does (it reformats or drops it): the probe is deleted again where it went in, `details.now` is what the field holds',
  },
  {
    code: 'DEVICE_COMMAND_FAILED',
    reason: 'NOT_CLEARED',
    meaning: '`type clear`: the field still holds text after the deletes',
  },
  {
    code: 'ELEMENT_NOT_FOUND',
    reason: 'END_OF_LIST',
    meaning: '`scroll-to` with a selector: the list was scrolled to its end without a match',
  },
  {
    code: 'ELEMENT_NOT_FOUND',
    reason: 'MAX_SCROLLS',
    meaning: '`scroll-to` with a selector: no match within --max-scrolls, and the list goes on',
  },
  {
    code: 'ELEMENT_NOT_FOUND',
    reason: 'LIST_LEFT_SCREEN',
    meaning: '`scroll-to` with a selector: the list left the screen while searching',
  },
  {
    code: 'STALE_ELEMENT',
    reason: 'NOT_ON_SCREEN',
    meaning: 'the element the id named is no longer on the screen (an element action with --wait waits for it)',
  },
  {code: 'STALE_ELEMENT', reason: 'CHANGED', meaning: 'the id now names another element than when the screen was read'},
  {
    code: 'STALE_ELEMENT',
    reason: 'LOOK_ALIKE_GROUP_CHANGED',
    meaning: 'a look-alike id (node_<hash>-<n>): its group gained, lost or moved a member',
  },
  {
    code: 'STALE_ELEMENT',
    reason: 'LOOK_ALIKE_UNKNOWN',
    meaning: 'a look-alike id arc never showed (no record of its group)',
  },
  {
    code: 'STALE_ELEMENT',
    reason: 'OTHER_DEVICE',
    meaning: "the id was shown for another device (an MCP session's, or one in the CLI's cache), never for this one",
  },
  {
    code: 'UNSUPPORTED',
    reason: 'PASSWORD_TEXT_HIDDEN',
    meaning:
      'typing: a clear, insert or replace in a password field, whose text a screen read before Android 8.0 never shows: nothing was sent',
  },
  {
    code: 'UNSUPPORTED',
    reason: 'KEY_MODIFIERS_UNSUPPORTED',
    meaning:
      "a key with modifiers held (ALT+DPAD_DOWN) on a device whose `input` has no keycombination (before Android 13) without arc's on-device helper: nothing was sent",
  },
  {
    code: 'UNSUPPORTED',
    reason: 'FORMAT_CHARACTER',
    meaning:
      'typing: an insert or replace whose cursor keys would cross an invisible format character (soft hyphen, zero-width space, LRM…), which one release steps over alone and another with the character before it (without modified keys, any edit but a clear of a field holding one): no key or text was sent',
  },
  {
    code: 'UNSUPPORTED',
    reason: 'RIGHT_TO_LEFT_TEXT',
    meaning:
      "typing: an insert or replace inside a field holding right-to-left text (Arabic, Hebrew…), where Android's cursor keys move by how the text is drawn and would take the focus away (without modified keys, an append too): no key or text was sent",
  },
  {
    code: 'UNSUPPORTED',
    reason: 'NODE_TOO_OLD',
    meaning:
      "the Node.js running arc is older than package.json's `engines` (20.19.0): bin/run.js says so before it loads arc",
  },
  {
    code: 'TIMEOUT',
    reason: 'ELEMENT_NOT_FOUND',
    meaning: "an element action's --wait ran out with no element matching",
  },
  {
    code: 'TIMEOUT',
    reason: 'NOT_ON_SCREEN',
    meaning: "an element action's --wait ran out with the id's element not back on the screen",
  },
]

/**
 * The exit-code table, as data: the CLI exits with these, the docs render them, and a test checks that every
 * error class appears here. Codes are stable; never renumber one.
 */
export const EXIT_CODES: Record<ErrorCode, {exit: number; meaning: string}> = {
  INTERNAL: {exit: 1, meaning: 'a bug in arc (run with DEBUG=arc* for the stack trace)'},
  INVALID_INPUT: {exit: 2, meaning: 'a flag, argument or tool input is missing, malformed or out of range'},
  INVALID_CONFIG: {exit: 3, meaning: 'a config file cannot be read or does not match the schema'},
  DEVICE_NOT_FOUND: {
    exit: 4,
    meaning:
      'the device named by --device, ANDROID_SERIAL or the config is not there (the message says which named it), or none is',
  },
  DEVICE_AMBIGUOUS: {exit: 5, meaning: 'several devices are attached and none was chosen'},
  DEVICE_UNAVAILABLE: {exit: 6, meaning: 'the device is offline, unauthorized or gone, or no adb server answers'},
  DEVICE_READ_ONLY: {exit: 7, meaning: 'an action was asked of a recorded snapshot (read-only)'},
  DEVICE_COMMAND_FAILED: {exit: 8, meaning: 'a device command ran and failed or gave unusable output'},
  ELEMENT_NOT_FOUND: {exit: 9, meaning: 'an element id is not on the current screen, or no element matches a selector'},
  INVALID_DUMP: {exit: 10, meaning: 'a UI dump is empty, truncated, not XML or in an unsupported format'},
  TIMEOUT: {
    exit: 11,
    meaning:
      "a device call ran out of time, a wait (`arc wait …`) ended without its condition (its result is still printed), or an element action's `--wait` ran out before its element showed",
  },
  UNSUPPORTED: {
    exit: 12,
    meaning: 'arc cannot do this over ADB, on this device or on this driver, or cannot run on this Node.js',
  },
  OUTPUT_FAILED: {
    exit: 13,
    meaning: 'an output file, stdout or stderr could not be written (a full disk, a reader gone)',
  },
  CANCELLED: {
    exit: EXIT_INTERRUPTED,
    meaning: 'interrupted (Ctrl-C), or cancelled by the MCP client; nothing was written',
  },
  NOT_FOUND: {exit: 14, meaning: 'a storage location, file, folder or text to replace is not there'},
  PERMISSION_DENIED: {
    exit: 15,
    meaning: 'the config does not allow this write, delete or download, or a path leads out of its location',
  },
  FILE_TOO_LARGE: {exit: 16, meaning: 'a file or content is over the configured size limit'},
  DOWNLOAD_FAILED: {exit: 17, meaning: 'a download failed: network error, timeout, HTTP error status'},
  STALE_ELEMENT: {exit: 18, meaning: 'an element id no longer names what it named when the screen was read'},
  DEVICE_ACCESS_DENIED: {
    exit: 19,
    meaning: "the device's shell user may not read or reach this path (another app's private data, a system file)",
  },
  ELEMENT_AMBIGUOUS: {
    exit: 20,
    meaning: 'a selector (--text, --desc, --res-id, --class-name) matches several elements; pass the id of one',
  },
  UI_AUTOMATION_BUSY: {
    exit: 21,
    meaning:
      "another tool (Appium, uiautomator2, Maestro, a monkey) holds the device's one UiAutomation, so its screen cannot be read",
  },
  ASSERTION_FAILED: {
    exit: 23,
    meaning: '`arc assert`: the screen does not show what was asserted (what it shows instead is in the message)',
  },
  SERVER_LOST: {
    exit: 24,
    meaning:
      'the `arc server` that ran the command went away before its end: the command may have acted in part (run it again)',
  },
  SERVER_RUNNING: {
    exit: 25,
    meaning:
      '`arc server`: another server of this installation is starting, or was stopped with Ctrl-Z, and does not answer yet',
  },
  SCREEN_NOT_IDLE: {
    exit: 22,
    meaning: 'the screen never went idle for uiautomator (a video, an animation, a spinner), so it cannot be read',
  },
}

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODES[code].exit
}
