/**
 * Device logs: one `logcat -d` read (it dumps and exits, never streams), filtered on the device by level and
 * start time, and on the host by tag, package (its current pids from `pidof`), end time and line count.
 */
import type {LogQuery, LogResult} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'
import {InvalidInputError} from '../../errors/arc-error.js'
import {raw} from './shell-quote.js'
import {
  formatLogLine,
  levelRank,
  lineTimeKey,
  parseLogcatLine,
  parseLogTime,
  parseZoneOffset,
  toDeviceLocal,
  type LogLine,
} from './parse-logcat.js'

/** `--------- beginning of <buffer>` lines a read may hold among its last lines: one per buffer (main, system, crash…). */
const DIVIDERS = 8

async function packagePids(dev: DeviceShell, packageName: string): Promise<Set<number>> {
  const output = await dev.text(['pidof', packageName])
  return new Set(
    output
      .split(/\s+/)
      .filter((w) => /^\d+$/.test(w))
      .map(Number)
  )
}

export async function readLogs(dev: DeviceShell, query: LogQuery): Promise<LogResult> {
  const sinceTime = query.since === undefined ? undefined : parseLogTime(query.since, 'since')
  const untilTime = query.until === undefined ? undefined : parseLogTime(query.until, 'until')
  if (untilTime && !sinceTime)
    throw new InvalidInputError('until needs since: give both ends of the time range (--since and --until)', {
      details: {input: 'until'},
    })
  // A zoned time (Z, +02:00) is moved into the device's zone, which logcat prints in.
  const zoned = sinceTime?.zoneOffsetMinutes !== undefined || untilTime?.zoneOffsetMinutes !== undefined
  const offset = zoned ? parseZoneOffset(await dev.text(['date', '+%z'])) : 0
  const since = sinceTime && toDeviceLocal(sinceTime, offset)
  const until = untilTime && toDeviceLocal(untilTime, offset)
  if (since !== undefined && until !== undefined && until < since) {
    throw new InvalidInputError(`until (${query.until}) is before since (${query.since})`, {details: {input: 'until'}})
  }
  const hostFiltered = query.tag !== undefined || query.packageName !== undefined || until !== undefined
  const pids = query.packageName === undefined ? undefined : await packagePids(dev, query.packageName)
  if (pids && pids.size === 0) return {logs: '', line_count: 0, truncated: false}

  // logd takes `-t N`'s last N entries before logcat applies the filterspec (AOSP logcat.cpp: the priority is
  // checked per line it receives), so `-t N *:E` prints the errors among the last N lines of every level. `-t N`
  // is therefore exact only at level V without host-side filters; otherwise the whole buffer (or everything since
  // `since`) is read, with the level still filtered on the device. Without host-side filters only the last lines
  // matter: toybox `tail` keeps them on the device, so a buffer of megabytes does not cross the connection.
  const exactCount = !hostFiltered && query.level === 'V' && since === undefined
  const window = since !== undefined ? ['-t', since] : exactCount ? ['-t', query.lastLines + 1] : ['-d']
  const tail = !hostFiltered && !exactCount ? [raw('|'), 'tail', '-n', query.lastLines + 1 + DIVIDERS] : []
  // `-v year` (Android 7+) puts the year on each line and lets `-t` take one, so a range a year back works.
  const year = since !== undefined ? ['-v', 'year'] : []
  const output = await dev.text(['logcat', '-v', 'threadtime', ...year, ...window, `*:${query.level}`, ...tail])
  if (/^logcat: |^Unrecognized Option|invalid option/im.test(output) && !parseAny(output)) {
    throw dev.failed('logcat', output)
  }
  const minRank = levelRank(query.level)
  const lines: LogLine[] = []
  for (const text of output.split('\n')) {
    const line = parseLogcatLine(text)
    if (!line || levelRank(line.level) < minRank) continue
    if (query.tag !== undefined && line.tag !== query.tag) continue
    if (pids && !pids.has(line.pid)) continue
    // A line without a year (a logcat older than `-v year`) is compared without one.
    const key = line.year === undefined ? lineTimeKey(line).slice(5) : lineTimeKey(line)
    const cut = (t: string) => (line.year === undefined ? t.slice(5) : t)
    if (since !== undefined && key < cut(since)) continue
    if (until !== undefined && key > cut(until)) continue
    lines.push(line)
  }
  const kept = lines.slice(-query.lastLines)
  return {logs: kept.map(formatLogLine).join('\n'), line_count: kept.length, truncated: lines.length > kept.length}
}

function parseAny(output: string): boolean {
  return output.split('\n').some((line) => parseLogcatLine(line) !== undefined)
}
