import type {LogLevel} from '@arc-cli/core'

import type {LogEntrySpec} from './scenario.js'

/** One line of the device log (logcat's main buffer). */
export interface LogEntry {
  /** `MM-DD hh:mm:ss.mmm`, local device time. */
  time: string
  pid: number
  tid: number
  level: LogLevel
  tag: string
  message: string
}

const THREADTIME = /^(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+) ([VDIWEF]) (.*?)\s*: (.*)$/

/** `MM-DD hh:mm:ss.mmm` for a Date (local time, as logcat prints). */
function logTime(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}.${p(date.getMilliseconds(), 3)}`
}

export function parseLogEntry(spec: LogEntrySpec, device: {ensureRunning(pkg: string): number}): LogEntry {
  if (typeof spec === 'string') {
    const m = THREADTIME.exec(spec)
    if (!m) return {time: logTime(new Date()), pid: 1000, tid: 1000, level: 'I', tag: 'arc', message: spec}
    return {time: m[1] as string, pid: Number(m[2]), tid: Number(m[3]), level: m[4] as LogLevel, tag: m[5] as string, message: m[6] as string}
  }
  const pid = spec.pid ?? (spec.package ? device.ensureRunning(spec.package) : 1000)
  return {time: spec.time ?? logTime(new Date()), pid, tid: spec.tid ?? pid, level: spec.level, tag: spec.tag, message: spec.message}
}

/** A few plausible lines so `logcat -d` is never empty on a device without scripted logs. */
export function defaultLog(device: {foreground: {package?: string; activity?: string}; ensureRunning(pkg: string): number}): LogEntry[] {
  const now = Date.now()
  const at = (ms: number) => logTime(new Date(now - ms))
  const lines: LogEntry[] = [
    {time: at(60_000), pid: 520, tid: 520, level: 'I', tag: 'ActivityManager', message: 'System now ready'},
    {time: at(45_000), pid: 520, tid: 560, level: 'D', tag: 'WindowManager', message: 'Display 0 ready'},
  ]
  const pkg = device.foreground.package
  if (pkg) {
    const pid = device.ensureRunning(pkg)
    lines.push(
      {time: at(30_000), pid: 520, tid: 575, level: 'I', tag: 'ActivityManager', message: `Start proc ${pid}:${pkg}/u0a123 for top-activity {${pkg}/${device.foreground.activity ?? '.MainActivity'}}`},
      {time: at(29_000), pid, tid: pid, level: 'I', tag: pkg.split('.').pop() ?? 'app', message: 'onCreate'},
      {time: at(20_000), pid, tid: pid + 12, level: 'W', tag: 'OkHttp', message: 'A connection was leaked. Did you forget to close a response body?'},
      {time: at(10_000), pid, tid: pid, level: 'E', tag: 'AndroidRuntime', message: 'java.lang.IllegalStateException: demo error line'},
    )
  }
  return lines
}

export function formatThreadtime(e: LogEntry): string {
  return `${e.time} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag}: ${e.message}`
}

export const LEVEL_ORDER = ['V', 'D', 'I', 'W', 'E', 'F', 'S']
