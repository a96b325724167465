import type {ErrorCode} from './arc-error.js'

/** Exit status after SIGINT, as shells report it: the CANCELLED code's status. */
export const EXIT_INTERRUPTED = 130

/**
 * The exit-code table, as data: the CLI exits with these, the docs render them, and a test checks that every
 * error class appears here. Codes are stable; never renumber one.
 */
export const EXIT_CODES: Record<ErrorCode, {exit: number; meaning: string}> = {
  INTERNAL: {exit: 1, meaning: 'a bug in arc (run with DEBUG=arc* for the stack trace)'},
  INVALID_INPUT: {exit: 2, meaning: 'a flag, argument or tool input is missing, malformed or out of range'},
  INVALID_CONFIG: {exit: 3, meaning: 'a config file cannot be read or does not match the schema'},
  DEVICE_NOT_FOUND: {exit: 4, meaning: 'the device named by --device or ANDROID_SERIAL is not there, or none is'},
  DEVICE_AMBIGUOUS: {exit: 5, meaning: 'several devices are attached and none was chosen'},
  DEVICE_UNAVAILABLE: {exit: 6, meaning: 'the device is offline, unauthorized or gone, or no adb server answers'},
  DEVICE_READ_ONLY: {exit: 7, meaning: 'an action was asked of a recorded snapshot (read-only)'},
  DEVICE_COMMAND_FAILED: {exit: 8, meaning: 'a device command ran and failed or gave unusable output'},
  ELEMENT_NOT_FOUND: {exit: 9, meaning: 'an element id is not on the current screen, or no element matches a selector'},
  INVALID_DUMP: {exit: 10, meaning: 'a UI dump is empty, truncated, not XML or in an unsupported format'},
  TIMEOUT: {
    exit: 11,
    meaning:
      'a device call ran out of time, or a wait (`arc wait …`) ended without its condition (its result is still printed)',
  },
  UNSUPPORTED: {exit: 12, meaning: 'arc cannot do this over ADB, on this device or on this driver'},
  OUTPUT_FAILED: {exit: 13, meaning: 'an output file could not be written'},
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
  SCREEN_NOT_IDLE: {
    exit: 22,
    meaning: 'the screen never went idle for uiautomator (a video, an animation, a spinner), so it cannot be read',
  },
}

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODES[code].exit
}
