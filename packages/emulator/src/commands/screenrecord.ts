import {mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'

import {sleep, type CommandContext} from './types.js'

/** A minimal MP4 head (`ftyp` box, then an empty `mdat`): what arc pulls back from an emulated recording. */
export const EMULATED_MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42', 'latin1'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom', 'latin1'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('mdat', 'latin1'),
])

/**
 * `screenrecord [--time-limit S] [--size WxH] [--bit-rate N] [--verbose] FILE`: records until the time limit
 * (default 180 s) or until the process is stopped (SIGINT, or the client going away), then writes FILE.
 * `device.screenrecord = false` makes it missing, as on builds without it.
 */
export async function screenrecord(ctx: CommandContext): Promise<number> {
  if (!ctx.device.screenrecord) {
    ctx.err('/system/bin/sh: screenrecord: not found\n')
    return 127
  }
  const args = ctx.argv.slice(1)
  let limit = 180
  let file: string | undefined
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (a === '--time-limit') limit = Number(args[++i])
    else if (a === '--size' || a === '--bit-rate' || a === '--display-id') i++
    else if (a.startsWith('--')) continue
    else file = a
  }
  if (!file || !Number.isFinite(limit) || limit <= 0 || limit > 180) {
    ctx.err(file ? `Invalid time limit ${args.join(' ')}\n` : 'Must specify output file (see --help).\n')
    return 2
  }
  const started = Date.now()
  await sleep(limit * 1000, ctx.signal)
  const host = ctx.device.files.hostPath(file, ctx.cwd)
  mkdirSync(path.dirname(host), {recursive: true})
  writeFileSync(host, EMULATED_MP4)
  ctx.device.recordings.push({file: ctx.device.files.normalize(file, ctx.cwd), seconds: (Date.now() - started) / 1000})
  return 0
}
