/**
 * One error hierarchy for arc. Every error a user can cause or meet carries a stable `code` (API: scripts and
 * agents match on it) and an `exitCode` (the CLI's process exit status). Messages name the input, what was wrong
 * and what is allowed; `actions` are "try this" lines. The CLI prints them without a stack trace; MCP turns them
 * into `isError` results.
 */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'INVALID_CONFIG'
  | 'DEVICE_NOT_FOUND'
  | 'DEVICE_AMBIGUOUS'
  | 'DEVICE_UNAVAILABLE'
  | 'DEVICE_READ_ONLY'
  | 'DEVICE_COMMAND_FAILED'
  | 'ELEMENT_NOT_FOUND'
  | 'ELEMENT_AMBIGUOUS'
  | 'STALE_ELEMENT'
  | 'ASSERTION_FAILED'
  | 'INVALID_DUMP'
  | 'UI_AUTOMATION_BUSY'
  | 'SCREEN_NOT_IDLE'
  | 'TIMEOUT'
  | 'UNSUPPORTED'
  | 'OUTPUT_FAILED'
  | 'CANCELLED'
  | 'NOT_FOUND'
  | 'PERMISSION_DENIED'
  | 'DEVICE_ACCESS_DENIED'
  | 'FILE_TOO_LARGE'
  | 'DOWNLOAD_FAILED'
  | 'SERVER_LOST'
  | 'SERVER_RUNNING'
  | 'INTERNAL'

export interface ArcErrorOptions {
  actions?: string[]
  cause?: unknown
  /** Extra machine-readable facts (the input name, the allowed values…), shown in `--json` errors. */
  details?: Record<string, unknown>
}

/** A run of this many characters without a space is input quoted back (a key, an id, a path), not words. */
const LONG_RUN = 200
/** What is kept of such a run: its start, enough to recognise it. */
const KEPT = 64
/** The longest message or action line kept whole. */
const LONG_TEXT = 4000
/** How deep `details` is walked for long strings. */
const DEPTH = 6

function head(text: string, length: number): string {
  // Never half a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(length - 1)) ? length - 1 : length
  return text.slice(0, end)
}

/**
 * Text as an error may carry it: a run of more than 200 characters without a space (oversized input quoted back:
 * a 1,000,000-character key or id) keeps its first 64 and says how long it was, and the whole is at most 4,000
 * characters. Every error passes through here, so none echoes what it refused at full length, over MCP three times
 * (text, message, details) or on a terminal.
 */
export function boundedText(text: string): string {
  const cut = text.replace(
    new RegExp(`\\S{${LONG_RUN + 1},}`, 'g'),
    (run) => `${head(run, KEPT)}…[${run.length} characters]`
  )
  return cut.length > LONG_TEXT ? `${head(cut, LONG_TEXT)}…[${cut.length} characters in all]` : cut
}

/** `details` with every string bounded as a message is (arrays and objects walked, a few levels deep). */
function boundedValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > LONG_RUN ? boundedText(value) : value
  if (depth >= DEPTH || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => boundedValue(item, depth + 1))
  if (Object.getPrototypeOf(value) !== Object.prototype) return value
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) out[boundedText(key)] = boundedValue(item, depth + 1)
  return out
}

/** Marks an ArcError from any copy of this module (a bundled core beside the sources, a plugin with its own). */
const ARC_ERROR = Symbol.for('arc-cli.ArcError')

/**
 * An ArcError, from this copy of the core or another one loaded beside it (the bundle and the sources, an ES module
 * and its CommonJS twin): `instanceof` tells only this copy's, and an error from another copy is still arc's own,
 * with its code, not an INTERNAL one.
 */
export function isArcError(value: unknown): value is ArcError {
  return value instanceof ArcError || (value instanceof Error && (value as {[ARC_ERROR]?: unknown})[ARC_ERROR] === true)
}

export abstract class ArcError extends Error {
  abstract readonly code: ErrorCode
  readonly actions: string[]
  readonly details: Record<string, unknown>
  readonly [ARC_ERROR] = true

  constructor(message: string, options: ArcErrorOptions = {}) {
    super(boundedText(message), {cause: options.cause})
    this.name = new.target.name
    this.actions = (options.actions ?? []).map(boundedText)
    this.details = boundedValue(options.details ?? {}, 0) as Record<string, unknown>
  }

  toJSON(): {code: ErrorCode; message: string; actions: string[]; details: Record<string, unknown>} {
    return {code: this.code, message: this.message, actions: this.actions, details: this.details}
  }
}

/** A flag, argument or tool input that is missing, malformed or out of range. */
export class InvalidInputError extends ArcError {
  readonly code = 'INVALID_INPUT'
}

/** A config file that cannot be read or does not match the schema. */
export class ConfigError extends ArcError {
  readonly code = 'INVALID_CONFIG'
}

/** The device named by --device / ANDROID_SERIAL does not exist, or no device is attached at all. */
export class DeviceNotFoundError extends ArcError {
  readonly code = 'DEVICE_NOT_FOUND'
}

/** Several devices are attached and none was chosen. */
export class DeviceAmbiguousError extends ArcError {
  readonly code = 'DEVICE_AMBIGUOUS'
}

/** The device exists but cannot be used now: offline, unauthorized, disconnected, or no adb server. */
export class DeviceUnavailableError extends ArcError {
  readonly code = 'DEVICE_UNAVAILABLE'
}

/** An action was asked of a recorded snapshot, which can only be read. */
export class ReadOnlyDeviceError extends ArcError {
  readonly code = 'DEVICE_READ_ONLY'
}

/** A device command ran and failed (non-zero exit, an error message, unusable output). */
export class DeviceCommandError extends ArcError {
  readonly code = 'DEVICE_COMMAND_FAILED'
}

/** An element id that is not on the current screen, or a selector no element on it matches. */
export class ElementNotFoundError extends ArcError {
  readonly code = 'ELEMENT_NOT_FOUND'
}

/**
 * A selector (`--text`, `--desc`…) that matches several elements: arc acts on one element, never on the first of
 * several; the error lists the candidates, and their ids pick one.
 */
export class ElementAmbiguousError extends ArcError {
  readonly code = 'ELEMENT_AMBIGUOUS'
}

/**
 * `arc assert`: the screen was read and does not show what was asserted (an element visible, gone, checked, with a
 * text…); `details` says what it showed instead.
 */
export class AssertionFailedError extends ArcError {
  readonly code = 'ASSERTION_FAILED'
}

/**
 * An element id that no longer names what it named when the screen was read: it is gone, or the element it
 * resolves to now differs from the one shown (another screen, another text). The screen must be read again.
 */
export class StaleElementError extends ArcError {
  readonly code = 'STALE_ELEMENT'
}

/** A UI hierarchy dump that is empty, truncated, not XML or in an unsupported format. */
export class InvalidDumpError extends ArcError {
  readonly code = 'INVALID_DUMP'
}

/**
 * Another UiAutomation client holds the device's one UiAutomation (Appium's UiAutomator2 server, uiautomator2,
 * Maestro, a monkey, another dump), so `uiautomator dump` dies at connect with `already registered!`.
 */
export class UiAutomationBusyError extends ArcError {
  readonly code = 'UI_AUTOMATION_BUSY'
}

/** The screen never went idle within uiautomator's idle timeout (a video, a spinner): it refuses to dump it. */
export class ScreenNotIdleError extends ArcError {
  readonly code = 'SCREEN_NOT_IDLE'
}

/** A device call or a wait that ran out of time. */
export class TimeoutError extends ArcError {
  readonly code = 'TIMEOUT'
}

/** Something arc cannot do over plain ADB, or on this device or driver. */
export class UnsupportedError extends ArcError {
  readonly code = 'UNSUPPORTED'
}

/** An output file could not be written (folder missing, no permission, disk full). */
export class OutputError extends ArcError {
  readonly code = 'OUTPUT_FAILED'
}

/**
 * The call was cancelled before it finished: Ctrl-C on the CLI, a cancellation or a disconnect from an MCP client.
 * Device calls in flight are cut off and no output file is written.
 */
export class CancelledError extends ArcError {
  readonly code = 'CANCELLED'
}

/** A storage location, file, folder or text that an operation needs is not there. */
export class NotFoundError extends ArcError {
  readonly code = 'NOT_FOUND'
}

/** The config does not allow this (a location without allowWrite/allowDelete, a download policy), or a path leads out of its location. */
export class PermissionDeniedError extends ArcError {
  readonly code = 'PERMISSION_DENIED'
}

/**
 * The device itself refuses a path to its shell user (uid `shell`, what adb runs as): another app's private data,
 * a system file or folder. Not arc's config (that is PERMISSION_DENIED): running as the app (`run-as`) or as root is
 * what reaches it.
 */
export class DeviceAccessDeniedError extends ArcError {
  readonly code = 'DEVICE_ACCESS_DENIED'
}

/** A file or content is over the configured size limit (files.maxBytes, files.download.maxBytes). */
export class FileTooLargeError extends ArcError {
  readonly code = 'FILE_TOO_LARGE'
}

/** A download from a URL failed: network error, timeout, HTTP error status, too many redirects. */
export class DownloadFailedError extends ArcError {
  readonly code = 'DOWNLOAD_FAILED'
}

/**
 * The `arc server` that took a command went away before the command's end (killed, or its machine's memory ran
 * out): the command may have acted in part, as a one-shot arc killed halfway may have (docs/server.md).
 */
export class ServerLostError extends ArcError {
  readonly code = 'SERVER_LOST'
}

/**
 * `arc server` found another server of the same installation running, starting or stopped (Ctrl-Z): commands already
 * go there, so this one does not serve (docs/server.md). A script tells a server it started from one that was there.
 */
export class ServerRunningError extends ArcError {
  readonly code = 'SERVER_RUNNING'
}

/** A bug in arc. */
export class InternalError extends ArcError {
  readonly code = 'INTERNAL'
}

/**
 * Wraps anything thrown into an ArcError, keeping ArcErrors as they are. System errors that are the
 * environment's doing, not a bug (stdout closed by the reader, a full disk), get their own codes.
 */
export function toArcError(error: unknown): ArcError {
  if (isArcError(error)) return error
  const errno = (error as NodeJS.ErrnoException | undefined)?.code
  if (errno === 'EPIPE') {
    return new OutputError('stdout was closed before arc finished writing (the command reading it exited early)', {
      cause: error,
      details: {errno},
      actions: ['Let the reading command read everything, or write to a file with -o FILE.'],
    })
  }
  if (errno === 'ENOSPC' || errno === 'EDQUOT') {
    return new OutputError('the disk is full', {
      cause: error,
      details: {errno},
      actions: ['Free some space and run again.'],
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new InternalError(`internal error: ${message}`, {
    cause: error,
    actions: ['This is a bug in arc. Run again with DEBUG=arc* to see the stack trace, and report it.'],
  })
}
