import {sleep as wait, type CommandContext} from './types.js'

/** `sleep SECONDS` (fractions allowed); ends early if the client goes away. */
export async function sleep(ctx: CommandContext): Promise<number> {
  const seconds = Number(ctx.argv[1])
  if (ctx.argv[1] === undefined || !Number.isFinite(seconds) || seconds < 0) {
    ctx.err(`sleep: invalid number '${ctx.argv[1] ?? ''}'\n`)
    return 1
  }
  await wait(seconds * 1000, ctx.signal)
  return 0
}

/** `pidof NAME…`: pids of running app processes (the foreground app is running); exit 1 when none. */
export function pidof(ctx: CommandContext): number {
  const pids = ctx.argv
    .slice(1)
    .map((name) => ctx.device.running.get(name))
    .filter((p): p is number => p !== undefined)
  if (pids.length === 0) return 1
  ctx.out(`${pids.join(' ')}\n`)
  return 0
}

export function id(ctx: CommandContext): number {
  ctx.out('uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3003(inet) context=u:r:shell:s0\n')
  return 0
}

export function whoami(ctx: CommandContext): number {
  ctx.out('shell\n')
  return 0
}
