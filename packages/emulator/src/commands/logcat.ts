import {LEVEL_ORDER, entryEpochMs, formatThreadtime, type LogEntry} from '../logcat-buffer.js'
import {untilAborted, type CommandContext} from './types.js'

const TIME = /^(\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,3})?$/

function format(e: LogEntry, style: string, year: boolean): string {
  const time = `${year ? `${e.year}-` : ''}${e.time}`
  if (style === 'brief') return `${e.level}/${e.tag}(${String(e.pid).padStart(5)}): ${e.message}`
  if (style === 'time') return `${time} ${e.level}/${e.tag}(${String(e.pid).padStart(5)}): ${e.message}`
  // `-v epoch` (Android 7+): seconds since the epoch in place of the date, right-aligned as logprint.cpp writes them.
  if (style === 'epoch')
    return `${(entryEpochMs(e) / 1000).toFixed(3).padStart(23)} ${String(e.pid).padStart(5)} ${String(e.tid).padStart(5)} ${e.level} ${e.tag}: ${e.message}`
  return formatThreadtime(e, year)
}

/** `YYYY-MM-DD hh:mm:ss.mmm` of an entry, and of a `-t` time (without a year: this year, as logcat assumes). */
const entryKey = (e: LogEntry) => `${e.year}-${e.time}`
const sinceKey = (t: string) => (/^\d{4}-/.test(t) ? t : `${new Date().getFullYear()}-${t}`)

/**
 * `logcat [-d] [-t N|TIME] [-T N|TIME] [-v threadtime|brief|time] [-s] [--pid=PID] [-e REGEX] [-m N] [-c]
 * [TAG:LEVEL …]`: the device's log (scenario lines, or a few default ones) in threadtime format. Without
 * -d/-t it keeps streaming until the client closes, as logcat does.
 */
export async function logcat(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1)
  let dump = false
  let count: number | undefined
  let since: string | undefined
  let style = 'threadtime'
  let year = false
  let silentDefault = false
  let pid: number | undefined
  const buffers = new Set<string>()
  let regex: RegExp | undefined
  let max: number | undefined
  const specs = new Map<string, string>()
  const value = (i: number, a: string, flag: string): [string | undefined, number] =>
    a.length > flag.length ? [a.slice(flag.length).replace(/^=/, ''), i] : [args[i + 1], i + 1]
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '-d') dump = true
    else if (a === '-c') {
      ctx.device.logcat.length = 0
      return 0
    } else if (a === '-s') silentDefault = true
    else if (a.startsWith('-t') || a.startsWith('-T')) {
      const [v, next] = value(i, a, a.slice(0, 2))
      i = next
      if (a.startsWith('-t')) dump = true
      if (v !== undefined && /^\d+$/.test(v)) count = Number(v)
      else if (v !== undefined && TIME.test(v)) since = v
      else {
        ctx.err(`logcat: -t "${v ?? ''}" not a number or time\n`)
        return 1
      }
    } else if (a.startsWith('-v')) {
      const [v, next] = value(i, a, '-v') as [string, number]
      i = next
      // `year` is a modifier (Android 7+): it adds the year to the date; any other word is the format.
      if (v === 'year') year = true
      else style = v
    } else if (a.startsWith('-b')) {
      const [v, next] = value(i, a, '-b')
      i = next
      for (const b of (v ?? '').split(',')) buffers.add(b)
    } else if (a.startsWith('--pid')) {
      const [v, next] = value(i, a, '--pid')
      i = next
      if (!v || !/^\d+$/.test(v)) {
        ctx.err(`logcat: --pid=${v ?? ''} is not a pid\n`)
        return 1
      }
      pid = Number(v)
    } else if (a.startsWith('-e')) {
      const [v, next] = value(i, a, '-e')
      i = next
      regex = new RegExp(v ?? '')
    } else if (a.startsWith('-m')) {
      const [v, next] = value(i, a, '-m')
      i = next
      max = Number(v)
    } else if (a === '-B') {
      ctx.err('logcat: binary output (-B) is not supported by arc emulate\n')
      return 1
    } else if (a.startsWith('-')) {
      ctx.err(`logcat: unknown option -- ${a}\n`)
      return 1
    } else {
      const colon = a.lastIndexOf(':')
      specs.set(colon < 0 ? a : a.slice(0, colon), colon < 0 ? 'V' : a.slice(colon + 1).toUpperCase())
    }
  }
  const fallback = specs.get('*') ?? (silentDefault ? 'S' : 'V')
  // As on a device: logd selects the entries (pid, start time, and a `-t N` count taken from those), and logcat
  // filters what it receives by tag, priority and regex (AOSP logcat.cpp ProcessBuffer). So `-t 10 *:E` prints the
  // errors among the last 10 entries, not the last 10 errors.
  // Buffers: `-b crash` lists only uncaught exceptions; the default (main, system, crash) and `all` list every entry.
  const onlyCrash =
    buffers.size > 0 && !buffers.has('all') && !buffers.has('default') && !buffers.has('main') && !buffers.has('system')
  const inBuffer = (e: LogEntry) =>
    onlyCrash
      ? e.buffer === 'crash' && buffers.has('crash')
      : buffers.size === 0 ||
        buffers.has('all') ||
        buffers.has('default') ||
        e.buffer !== 'crash' ||
        buffers.has('crash')
  const selected = (e: LogEntry) =>
    inBuffer(e) && (pid === undefined || e.pid === pid) && (since === undefined || entryKey(e) >= sinceKey(since))
  const printed = (e: LogEntry) => {
    const min = specs.get(e.tag) ?? fallback
    return LEVEL_ORDER.indexOf(e.level) >= LEVEL_ORDER.indexOf(min) && (!regex || regex.test(e.message))
  }
  const keep = (e: LogEntry) => selected(e) && printed(e)
  let entries = ctx.device.logcat.filter(selected)
  if (count !== undefined) entries = entries.slice(-count)
  entries = entries.filter(printed)
  if (max !== undefined) entries = entries.slice(0, max)
  // logcat prints a buffer's header before its first entry: an empty crash buffer prints nothing.
  if (!onlyCrash || entries.length > 0) ctx.out(`--------- beginning of ${onlyCrash ? 'crash' : 'main'}\n`)
  for (const e of entries) ctx.out(`${format(e, style, year)}\n`)
  if (!dump) {
    // Following: lines logged from now on (device.appendLog) are written as they arrive.
    const onLog = (e: LogEntry) => {
      if (keep(e)) ctx.out(`${format(e, style, year)}\n`)
    }
    ctx.device.on('log', onLog)
    try {
      await untilAborted(ctx.signal)
    } finally {
      ctx.device.off('log', onLog)
    }
  }
  return 0
}
