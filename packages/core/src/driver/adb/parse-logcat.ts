/**
 * `logcat -v threadtime` lines and the host-side filters arc applies to them. Tag, package (pid), time range and
 * the line limit are applied here rather than through logcat options, whose behaviour differs across releases
 * (tags with `:` cannot be written as a filterspec; `-t N` counts lines before some filters).
 */
import {InvalidInputError} from '../../errors/arc-error.js'
import type {LogLevel} from '../device-driver.js'

export interface LogLine {
  /** `MM-DD` */
  date: string
  /** `hh:mm:ss.mmm` */
  time: string
  pid: number
  tid: number
  level: string
  tag: string
  message: string
}

// logcat writes `tag: message`, so a tag ends at the first colon followed by a space (tags may hold colons).
const THREADTIME = /^(\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+) ([VDIWEFS]) (.*?)\s*:(?: (.*)|$)/

export function parseLogcatLine(line: string): LogLine | undefined {
  const m = THREADTIME.exec(line.replace(/\r$/, ''))
  if (!m) return undefined
  return {
    date: m[1] as string,
    time: m[2] as string,
    pid: Number(m[3]),
    tid: Number(m[4]),
    level: m[5] as string,
    tag: m[6] as string,
    message: m[7] ?? '',
  }
}

const LEVELS: LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F']

export function levelRank(level: string): number {
  const rank = LEVELS.indexOf(level as LogLevel)
  return rank === -1 ? (level === 'S' ? LEVELS.length : -1) : rank
}

/**
 * An ISO 8601 local time (`2024-01-15T10:30:00`, seconds and milliseconds optional) as logcat's
 * `MM-DD hh:mm:ss.mmm` key; the year is dropped because threadtime lines carry none.
 */
export function logcatTimeKey(iso: string, field: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?$/.exec(iso.trim())
  if (!m) {
    throw new InvalidInputError(`${field}: expected an ISO 8601 local time like 2024-01-15T10:30:00, got ${JSON.stringify(iso)}`)
  }
  const ms = (m[7] ?? '0').padEnd(3, '0')
  return `${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6] ?? '00'}.${ms}`
}

export const lineTimeKey = (line: LogLine): string => `${line.date} ${line.time}`

/** The spec's line format: `02-11 16:30:00.123 D/Tag: message`. */
export function formatLogLine(line: LogLine): string {
  return `${line.date} ${line.time} ${line.level}/${line.tag}: ${line.message}`
}
