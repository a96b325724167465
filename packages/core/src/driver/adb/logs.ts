/**
 * Device logs: one `logcat -d` read (it dumps and exits, never streams), filtered on the device by level and
 * start time, and on the host by tag, package (its current pids from `pidof`), end time and line count.
 */
import type {LogQuery, LogResult} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'
import {formatLogLine, levelRank, lineTimeKey, logcatTimeKey, parseLogcatLine, type LogLine} from './parse-logcat.js'

async function packagePids(dev: DeviceShell, packageName: string): Promise<Set<number>> {
  const output = await dev.text(['pidof', packageName])
  return new Set(output.split(/\s+/).filter((w) => /^\d+$/.test(w)).map(Number))
}

export async function readLogs(dev: DeviceShell, query: LogQuery): Promise<LogResult> {
  const since = query.since === undefined ? undefined : logcatTimeKey(query.since, 'since')
  const until = query.until === undefined ? undefined : logcatTimeKey(query.until, 'until')
  const hostFiltered = query.tag !== undefined || query.packageName !== undefined || until !== undefined
  const pids = query.packageName === undefined ? undefined : await packagePids(dev, query.packageName)
  if (pids && pids.size === 0) return {logs: '', line_count: 0, truncated: false}

  // `-t N` alone is exact; with host-side filters the whole buffer (or everything since `since`) is read.
  const window = since !== undefined ? ['-t', since] : hostFiltered ? ['-d'] : ['-t', query.lastLines + 1]
  const output = await dev.text(['logcat', '-v', 'threadtime', ...window, `*:${query.level}`])
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
    if (since !== undefined && lineTimeKey(line) < since) continue
    if (until !== undefined && lineTimeKey(line) > until) continue
    lines.push(line)
  }
  const kept = lines.slice(-query.lastLines)
  return {logs: kept.map(formatLogLine).join('\n'), line_count: kept.length, truncated: lines.length > kept.length}
}

function parseAny(output: string): boolean {
  return output.split('\n').some((line) => parseLogcatLine(line) !== undefined)
}
