/**
 * CPU time of whole process trees from /proc (Linux): a process's own user + system time plus that of every child
 * it has waited for (a device shell and the program it ran, an `adb` client run by execFileSync). Wall time on a
 * shared machine moves with the load; CPU time per read does not. Undefined where /proc is absent.
 */
import {existsSync, readFileSync} from 'node:fs'
import {spawnSync} from 'node:child_process'

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100

/** CPU milliseconds of `pid` (or this process) and its reaped children so far. */
export function treeCpuMs(pid: number | 'self'): number | undefined {
  const file = `/proc/${pid}/stat`
  if (!existsSync(file)) return undefined
  // Fields after the `(comm)`: state is field 3, so utime, stime, cutime, cstime (14-17) are at 11-14 here.
  const stat = readFileSync(file, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0)
  return (ticks * 1000) / TICKS_PER_SECOND
}
