import {existsSync} from 'node:fs'
import {stat} from 'node:fs/promises'

import type {CommandContext} from './types.js'

/**
 * `flock [-sxun] FD`, toybox's (toys/other/flock.c, a /system/bin symlink in AOSP's external/toybox Android.bp):
 * flock(2) on a descriptor the calling shell opened (`exec 9>>FILE; flock 9`). Exclusive by default, `-s` shared,
 * `-u` unlocks, `-n` fails with status 1 and no message instead of waiting; any other failure is
 * `flock: flock: <strerror>`. The lock belongs to the shell's open file, so it outlives this program and ends with
 * the shell (file-locks.ts). The descriptor is looked up in the shell's /proc entry, so only a Linux host can tell
 * which file it is: elsewhere the device has no flock, as a build without toybox's would (status 127).
 */
export async function flock(ctx: CommandContext): Promise<number> {
  // A build without toybox's flock (scenario `flock: false`): its sh finds no such program, as mksh says it.
  if (!ctx.device.hasFlock || !existsSync('/proc/self/fd')) {
    ctx.err('/system/bin/sh: flock: not found\n')
    return 127
  }
  const flags = new Set<string>()
  const args: string[] = []
  for (const a of ctx.argv.slice(1)) {
    if (args.length === 0 && /^-[sxun]+$/.test(a)) for (const c of a.slice(1)) flags.add(c)
    else args.push(a)
  }
  if (args.length !== 1) {
    ctx.err(`flock: ${args.length === 0 ? 'Need 1 argument' : 'Max 1 argument'}\n`)
    return 1
  }
  const fd = Number(args[0])
  const owner = ctx.shell?.token
  const pid = ctx.shell?.pid
  const file =
    Number.isInteger(fd) && fd >= 0 && owner && pid
      ? await stat(`/proc/${pid}/fd/${fd}`).catch(() => undefined)
      : undefined
  if (!file || !owner) {
    ctx.err('flock: flock: Bad file descriptor\n')
    return 1
  }
  const key = `${file.dev}:${file.ino}`
  if (flags.has('u')) {
    ctx.device.fileLocks.release(key, owner)
    return 0
  }
  const got = await ctx.device.fileLocks.acquire(key, owner, !flags.has('s'), !flags.has('n'), ctx.signal)
  if (got) return 0
  if (flags.has('n')) return 1
  return 137
}
