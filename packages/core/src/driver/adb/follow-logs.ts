/**
 * `logs --follow` and `logs --clear`: a `logcat -T N` stream read line by line until the caller aborts, filtered
 * like `logs` (level on the device; tag and package on the host), and `logcat -c`. Kept apart from logs.ts, the
 * one-shot read.
 */
import type {FollowQuery, LogEvent} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'
import {formatLogLine, levelRank, parseLogcatLine} from './parse-logcat.js'
import {shellCommand} from './shell-quote.js'

/**
 * Streams `logcat -v threadtime -T N *:LEVEL` (the last N lines, then new ones). The package filter uses the
 * app's pids when following starts (`pidof`): a process started later is not followed.
 */
export async function followLogs(
  dev: DeviceShell,
  query: FollowQuery,
  onLine: (event: LogEvent) => void,
  signal: AbortSignal
): Promise<void> {
  let pids: Set<number> | undefined
  if (query.packageName !== undefined) {
    const output = await dev.text(['pidof', query.packageName])
    pids = new Set(
      output
        .split(/\s+/)
        .filter((w) => /^\d+$/.test(w))
        .map(Number)
    )
  }
  const minRank = levelRank(query.level)
  let pending = ''
  const take = (text: string) => {
    const line = parseLogcatLine(text)
    if (!line || levelRank(line.level) < minRank) return
    if (query.tag !== undefined && line.tag !== query.tag) return
    if (pids && !pids.has(line.pid)) return
    onLine({
      line: formatLogLine(line),
      time: `${line.date} ${line.time}`,
      level: line.level,
      tag: line.tag,
      pid: line.pid,
      tid: line.tid,
      message: line.message,
    })
  }
  const command = shellCommand(['logcat', '-v', 'threadtime', '-T', Math.max(1, query.lastLines), `*:${query.level}`])
  await dev.server.stream(
    dev.serial,
    command,
    (chunk) => {
      const lines = (pending + chunk.toString('utf8')).split('\n')
      pending = lines.pop() ?? ''
      for (const text of lines) take(text)
    },
    signal
  )
  if (pending !== '') take(pending)
}

/** `logcat -c`: clears the main, system and crash buffers. */
export async function clearLogs(dev: DeviceShell): Promise<void> {
  await dev.action(['logcat', '-c'], 'logcat -c')
}
