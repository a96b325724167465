/**
 * `logcat -v threadtime` lines and the host-side filters arc applies to them. Tag, package (pid), time range and
 * the line limit are applied here rather than through logcat options, whose behaviour differs across releases
 * (tags with `:` cannot be written as a filterspec; `-t N` counts lines before some filters).
 */
import {InvalidInputError} from '../../errors/arc-error.js'
import type {LogLevel} from '../device-driver.js'

export interface LogLine {
  /** The year, when logcat printed it (`-v year`). */
  year?: number
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
// With `-v year` the date reads `YYYY-MM-DD`.
const THREADTIME = /^(?:(\d{4})-)?(\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+) ([VDIWEFS]) (.*?)\s*:(?: (.*)|$)/

export function parseLogcatLine(line: string): LogLine | undefined {
  const m = THREADTIME.exec(line.replace(/\r$/, ''))
  if (!m) return undefined
  return {
    ...(m[1] ? {year: Number(m[1])} : {}),
    date: m[2] as string,
    time: m[3] as string,
    pid: Number(m[4]),
    tid: Number(m[5]),
    level: m[6] as string,
    tag: m[7] as string,
    message: m[8] ?? '',
  }
}

const LEVELS: LogLevel[] = ['V', 'D', 'I', 'W', 'E', 'F']

export function levelRank(level: string): number {
  const rank = LEVELS.indexOf(level as LogLevel)
  return rank === -1 ? (level === 'S' ? LEVELS.length : -1) : rank
}

/** A point in device-local time, as logcat's `-v year` key `YYYY-MM-DD hh:mm:ss.mmm`. */
export interface LogTime {
  key: string
  /** `Z` or `±hh:mm` when the input named a zone: the time is then turned into device local time. */
  zoneOffsetMinutes?: number
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0')

/**
 * An ISO 8601 time (`2024-01-15T10:30:00`, seconds and milliseconds optional; `Z` or `+02:00` allowed) checked
 * for a real calendar date and clock time. Without a zone it is device local time, as logcat prints.
 */
export function parseLogTime(iso: string, field: string): LogTime {
  const m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?(Z|[+-]\d\d:?\d\d)?$/i.exec(iso.trim())
  const bad = (why: string) =>
    new InvalidInputError(
      `${field}: ${why}; expected an ISO 8601 time like 2024-01-15T10:30:00 (device local time) or 2024-01-15T09:30:00Z, got ${JSON.stringify(iso)}`,
      {
        details: {input: field, value: iso},
      }
    )
  if (!m) throw bad('not an ISO 8601 date and time')
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const ms = Number((m[7] ?? '0').padEnd(3, '0'))
  if (month < 1 || month > 12) throw bad(`month ${month} does not exist`)
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day < 1 || day > days) throw bad(`day ${day} does not exist in ${year}-${pad(month)}`)
  if (hour > 23 || minute > 59 || second > 59)
    throw bad(`${pad(hour)}:${pad(minute)}:${pad(second)} is not a time of day`)
  const zone = m[8]
  let zoneOffsetMinutes: number | undefined
  if (zone) {
    if (zone.toUpperCase() === 'Z') zoneOffsetMinutes = 0
    else {
      const z = /^([+-])(\d\d):?(\d\d)$/.exec(zone) as RegExpExecArray
      const minutes = Number(z[2]) * 60 + Number(z[3])
      if (Number(z[2]) > 14 || Number(z[3]) > 59) throw bad(`zone ${zone} does not exist`)
      zoneOffsetMinutes = (z[1] === '-' ? -1 : 1) * minutes
    }
  }
  return {
    key: `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(ms, 3)}`,
    ...(zoneOffsetMinutes === undefined ? {} : {zoneOffsetMinutes}),
  }
}

/** A zoned time moved into the device's zone (its UTC offset in minutes, from `date +%z`): a local key. */
export function toDeviceLocal(time: LogTime, deviceOffsetMinutes: number): string {
  if (time.zoneOffsetMinutes === undefined) return time.key
  const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})$/.exec(time.key) as RegExpExecArray
  const utc =
    Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7])) -
    time.zoneOffsetMinutes * 60_000
  const d = new Date(utc + deviceOffsetMinutes * 60_000)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
}

/** `+0530` / `-0800` (what `date +%z` prints) in minutes; 0 when unreadable. */
export function parseZoneOffset(output: string): number {
  const m = /([+-])(\d\d)(\d\d)/.exec(output)
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0
}

/** The line's `YYYY-MM-DD hh:mm:ss.mmm` key (lines are read with `-v year` whenever a time range is asked). */
export const lineTimeKey = (line: LogLine): string => `${line.year ?? '0000'}-${line.date} ${line.time}`

/** The spec's line format: `02-11 16:30:00.123 D/Tag: message`. */
export function formatLogLine(line: LogLine): string {
  return `${line.date} ${line.time} ${line.level}/${line.tag}: ${line.message}`
}
