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
  ctx.out(
    'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3003(inet) context=u:r:shell:s0\n'
  )
  return 0
}

export function whoami(ctx: CommandContext): number {
  ctx.out('shell\n')
  return 0
}

/**
 * `date [+FORMAT]`: the device clock in its zone (persist.sys.timezone; UTC unless the scenario says otherwise,
 * where only a fixed `UTC±hh:mm` is understood). Formats: %Y %m %d %H %M %S %z %s.
 */
export function date(ctx: CommandContext): number {
  const zone = ctx.device.properties.get('persist.sys.timezone') ?? 'UTC'
  const m = /^(?:UTC|GMT)?([+-])(\d\d):?(\d\d)$/.exec(zone)
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0
  const now = new Date()
  const local = new Date(now.getTime() + offset * 60_000)
  const p = (n: number) => String(n).padStart(2, '0')
  const z = `${offset < 0 ? '-' : '+'}${p(Math.floor(Math.abs(offset) / 60))}${p(Math.abs(offset) % 60)}`
  const fields: Record<string, string> = {
    Y: String(local.getUTCFullYear()),
    m: p(local.getUTCMonth() + 1),
    d: p(local.getUTCDate()),
    H: p(local.getUTCHours()),
    M: p(local.getUTCMinutes()),
    S: p(local.getUTCSeconds()),
    z,
    s: String(Math.floor(now.getTime() / 1000)),
  }
  const format = ctx.argv[1]?.startsWith('+') ? ctx.argv[1].slice(1) : '%a %b %e %H:%M:%S %Z %Y'
  ctx.out(`${format.replace(/%([a-zA-Z%])/g, (all, c: string) => (c === '%' ? '%' : (fields[c] ?? all)))}\n`)
  return 0
}
