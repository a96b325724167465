/** The logs capability: the device log (logcat) read, followed and cleared. */

export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F'

export interface LogQuery {
  lastLines: number
  /** ISO 8601 local time, e.g. 2024-01-15T10:30:00. */
  since?: string
  until?: string
  tag?: string
  level: LogLevel
  packageName?: string
}

/** What `logs --follow` filters on: the backlog size, minimum level, exact tag and package. */
export type FollowQuery = Omit<LogQuery, 'since' | 'until'>

/** One followed log line, parsed. */
export interface LogEvent {
  /** The spec's line format: `02-11 16:30:00.123 D/Tag: message`. */
  line: string
  /** `MM-DD hh:mm:ss.mmm`, the device's local time (logcat prints no year). */
  time: string
  level: string
  tag: string
  pid: number
  tid: number
  message: string
}

export interface LogResult {
  logs: string
  line_count: number
  truncated: boolean
}

export interface LogsCapability {
  logs(query: LogQuery): Promise<LogResult>
  /**
   * Streams log lines to `onLine` (the last `lastLines` first, then new ones as they are logged) until `signal`
   * aborts, then resolves.
   */
  followLogs(query: FollowQuery, onLine: (event: LogEvent) => void, signal: AbortSignal): Promise<void>
  /** Empties the device's log buffers (`logcat -c`). */
  clearLogs(): Promise<void>
}
