import type {LogEntrySpec} from './scenario.js'

/** A log line's priority letter, as logcat prints it. */
export type LogLevel = 'V' | 'D' | 'I' | 'W' | 'E' | 'F'

/** One line of the device log (logcat's main buffer). */
export interface LogEntry {
  /** The year of the line (scenario lines without one are this year's). */
  year: number
  /** `MM-DD hh:mm:ss.mmm`, local device time. */
  time: string
  pid: number
  tid: number
  level: LogLevel
  tag: string
  message: string
  /** The log buffer it went to: `main` (undefined), or `crash` (uncaught exceptions, RuntimeInit's Clog_e). */
  buffer?: 'crash'
}

/** Seconds since the epoch of an entry (its time is the host's local time, as logTime writes it). */
export function entryEpochMs(e: LogEntry): number {
  const m = /^(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})$/.exec(e.time)
  if (!m) return 0
  return new Date(
    e.year,
    Number(m[1]) - 1,
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6])
  ).getTime()
}

const THREADTIME = /^(?:(\d{4})-)?(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+) ([VDIWEF]) (.*?)\s*: (.*)$/
const thisYear = () => new Date().getFullYear()

/** `MM-DD hh:mm:ss.mmm` for a Date (local time, as logcat prints). */
export function logTime(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}.${p(date.getMilliseconds(), 3)}`
}

export function parseLogEntry(spec: LogEntrySpec, device: {ensureRunning(pkg: string): number}): LogEntry {
  if (typeof spec === 'string') {
    const m = THREADTIME.exec(spec)
    if (!m)
      return {year: thisYear(), time: logTime(new Date()), pid: 1000, tid: 1000, level: 'I', tag: 'arc', message: spec}
    return {
      year: m[1] ? Number(m[1]) : thisYear(),
      time: m[2] as string,
      pid: Number(m[3]),
      tid: Number(m[4]),
      level: m[5] as LogLevel,
      tag: m[6] as string,
      message: m[7] as string,
    }
  }
  const pid = spec.pid ?? (spec.package ? device.ensureRunning(spec.package) : 1000)
  const time = /^(\d{4})-(.*)$/.exec(spec.time ?? '')
  return {
    year: time ? Number(time[1]) : thisYear(),
    time: time ? (time[2] as string) : (spec.time ?? logTime(new Date())),
    pid,
    tid: spec.tid ?? pid,
    level: spec.level,
    tag: spec.tag,
    message: spec.message,
  }
}

/** A few plausible lines so `logcat -d` is never empty on a device without scripted logs. */
export function defaultLog(device: {
  foreground: {package?: string; activity?: string}
  ensureRunning(pkg: string): number
}): LogEntry[] {
  const now = Date.now()
  const at = (ms: number) => logTime(new Date(now - ms))
  const year = new Date(now).getFullYear()
  const lines: LogEntry[] = [
    {year, time: at(60_000), pid: 520, tid: 520, level: 'I', tag: 'ActivityManager', message: 'System now ready'},
    {year, time: at(45_000), pid: 520, tid: 560, level: 'D', tag: 'WindowManager', message: 'Display 0 ready'},
  ]
  const pkg = device.foreground.package
  if (pkg) {
    const pid = device.ensureRunning(pkg)
    lines.push(
      {
        year,
        time: at(30_000),
        pid: 520,
        tid: 575,
        level: 'I',
        tag: 'ActivityManager',
        message: `Start proc ${pid}:${pkg}/u0a123 for top-activity {${pkg}/${device.foreground.activity ?? '.MainActivity'}}`,
      },
      {year, time: at(29_000), pid, tid: pid, level: 'I', tag: pkg.split('.').pop() ?? 'app', message: 'onCreate'},
      {
        year,
        time: at(20_000),
        pid,
        tid: pid + 12,
        level: 'W',
        tag: 'OkHttp',
        message: 'A connection was leaked. Did you forget to close a response body?',
      },
      {
        year,
        time: at(10_000),
        pid,
        tid: pid,
        level: 'E',
        tag: 'AndroidRuntime',
        message: 'java.lang.IllegalStateException: demo error line',
      }
    )
  }
  return lines
}

export function formatThreadtime(e: LogEntry, withYear = false): string {
  return `${withYear ? `${e.year}-` : ''}${e.time} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag}: ${e.message}`
}

export const LEVEL_ORDER = ['V', 'D', 'I', 'W', 'E', 'F', 'S']
