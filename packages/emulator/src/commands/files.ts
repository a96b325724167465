import type {Stats} from 'node:fs'
import {
  lstat,
  mkdir as mkdirFs,
  readdir,
  readFile,
  readlink as readLink,
  rename,
  rm as rmFs,
  rmdir as rmdirFs,
  stat,
  statfs,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'

import {accessError, errnoText, shellMayRead} from '../device-files.js'
import type {CommandContext} from './types.js'

function split(argv: string[]): {flags: Set<string>; paths: string[]} {
  const flags = new Set<string>()
  const paths: string[] = []
  let options = true
  for (const a of argv) {
    if (options && a === '--') options = false
    else if (options && a.startsWith('-') && a.length > 1) for (const c of a.slice(1)) flags.add(c)
    else paths.push(a)
  }
  return {flags, paths}
}

function modeString(s: Stats): string {
  const type = s.isDirectory() ? 'd' : s.isSymbolicLink() ? 'l' : '-'
  const bits = 'rwxrwxrwx'
  let perms = ''
  for (let i = 0; i < 9; i++) perms += s.mode & (1 << (8 - i)) ? bits[i] : '-'
  return type + perms
}

function longLine(s: Stats, name: string): string {
  const d = s.mtime
  const p = (n: number) => String(n).padStart(2, '0')
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`
  return `${modeString(s)} ${String(s.nlink).padStart(2)} shell shell ${String(s.size).padStart(8)} ${date} ${name}`
}

/** `ls [-l] [-a] [-1] [PATH…]` (toybox): one name per line, as when not on a terminal. */
export async function ls(ctx: CommandContext): Promise<number> {
  const {flags, paths} = split(ctx.argv.slice(1))
  const targets = paths.length > 0 ? paths : ['.']
  let status = 0
  for (const [n, target] of targets.entries()) {
    let host: string
    let stats: Stats
    try {
      host = ctx.device.files.hostPath(target, ctx.cwd)
      stats = await lstat(host)
    } catch (error) {
      ctx.err(`ls: ${target}: ${errnoText(error)}\n`)
      status = 1
      continue
    }
    // A symlink to a folder (like /sdcard) is listed as the folder when named with a trailing slash or without -l.
    const isDir =
      stats.isDirectory() ||
      (stats.isSymbolicLink() &&
        (!flags.has('l') || target.endsWith('/')) &&
        (await readdir(host).then(
          () => true,
          () => false
        )))
    if (!isDir || flags.has('d')) {
      ctx.out(`${flags.has('l') ? longLine(stats, target) : target}\n`)
      continue
    }
    if (targets.length > 1) ctx.out(`${n > 0 ? '\n' : ''}${target}:\n`)
    const folder = ctx.device.files.hostPath(target, ctx.cwd, true)
    if (!shellMayRead(await stat(folder))) {
      ctx.err(`ls: ${target}: ${errnoText({code: 'EACCES'})}\n`)
      status = 1
      continue
    }
    let names = (await readdir(folder)).sort()
    if (flags.has('a')) names = ['.', '..', ...names]
    else names = names.filter((name) => !name.startsWith('.'))
    if (flags.has('l')) {
      ctx.out(`total ${names.length}\n`)
      for (const name of names) ctx.out(`${longLine(await lstat(`${folder}/${name}`), name)}\n`)
    } else for (const name of names) ctx.out(`${name}\n`)
  }
  return status
}

/** `cat [FILE…]`: files (device paths) or stdin. */
export async function cat(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  if (paths.length === 0) {
    ctx.out(await ctx.readStdin())
    return 0
  }
  let status = 0
  for (const file of paths) {
    if (file === '-') {
      ctx.out(await ctx.readStdin())
      continue
    }
    try {
      const host = ctx.device.files.hostPath(file, ctx.cwd, true)
      if (!shellMayRead(await stat(host))) throw accessError()
      ctx.out(await readFile(host))
    } catch (error) {
      ctx.err(`cat: ${file}: ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

/** `rm [-f] [-r] PATH…` */
export async function rm(ctx: CommandContext): Promise<number> {
  const {flags, paths} = split(ctx.argv.slice(1))
  const force = flags.has('f')
  const recursive = flags.has('r') || flags.has('R')
  let status = 0
  for (const target of paths) {
    let host: string
    let stats: Stats | undefined
    try {
      host = ctx.device.files.hostPath(target, ctx.cwd)
      stats = await lstat(host)
    } catch (error) {
      if (!force || (error as NodeJS.ErrnoException).code !== 'ENOENT') {
        ctx.err(`rm: ${target}: ${errnoText(error)}\n`)
        status = 1
      }
      continue
    }
    if (stats.isDirectory() && !recursive) {
      ctx.err(`rm: ${target}: Is a directory\n`)
      status = 1
      continue
    }
    await rmFs(host, {recursive: true, force: true})
  }
  return status
}

/** `mkdir [-p] PATH…` */
export async function mkdir(ctx: CommandContext): Promise<number> {
  const {flags, paths} = split(ctx.argv.slice(1))
  let status = 0
  for (const target of paths) {
    try {
      await mkdirFs(ctx.device.files.hostPath(target, ctx.cwd), {recursive: flags.has('p')})
    } catch (error) {
      if (flags.has('p') && (error as NodeJS.ErrnoException).code === 'EEXIST') continue
      ctx.err(`mkdir: '${target}': ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

/**
 * `rmdir DIR…`: rmdir(2) on each, so a folder that is not empty stays (`rmdir: DIR: Directory not empty`, exit 1),
 * as toybox's toys/posix/rmdir.c says it (perror_msg_raw of the name); Android's older toolbox has rmdir too.
 */
export async function rmdir(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  if (paths.length === 0) {
    ctx.err('rmdir: Need 1 argument\n')
    return 1
  }
  let status = 0
  for (const target of paths) {
    try {
      await rmdirFs(ctx.device.files.hostPath(target, ctx.cwd))
    } catch (error) {
      ctx.err(`rmdir: ${target}: ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

/** `touch PATH…` */
export async function touch(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  let status = 0
  for (const target of paths) {
    try {
      const host = ctx.device.files.hostPath(target, ctx.cwd)
      const now = new Date()
      await utimes(host, now, now).catch(async () => writeFile(host, '', {flag: 'a'}))
    } catch (error) {
      ctx.err(`touch: '${target}': ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

/** `realpath [--] PATH…` / `readlink -f [--] PATH…`: every link resolved on the device; the path must exist. */
async function canonical(ctx: CommandContext, name: string, paths: string[]): Promise<number> {
  let status = 0
  for (const target of paths) {
    try {
      const resolved = ctx.device.files.resolve(target, ctx.cwd, true)
      await stat(ctx.device.files.hostPath(resolved))
      ctx.out(`${resolved}\n`)
    } catch (error) {
      ctx.err(`${name}: ${target}: ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

export function realpath(ctx: CommandContext): Promise<number> {
  return canonical(ctx, 'realpath', split(ctx.argv.slice(1)).paths)
}

/** `readlink [-f] PATH`: the link's target as stored, or with -f the canonical path. */
export async function readlink(ctx: CommandContext): Promise<number> {
  const {flags, paths} = split(ctx.argv.slice(1))
  if (flags.has('f')) return canonical(ctx, 'readlink', paths)
  let status = 0
  for (const target of paths) {
    try {
      ctx.out(`${await readLink(ctx.device.files.hostPath(target, ctx.cwd))}\n`)
    } catch {
      status = 1
    }
  }
  return status
}

/** `mv [-f] [--] SOURCE DEST`: a rename; into DEST when it is a folder. */
export async function mv(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  if (paths.length !== 2) {
    ctx.err('mv: needs 2 arguments\n')
    return 1
  }
  const [from, to] = paths as [string, string]
  try {
    const source = ctx.device.files.hostPath(from, ctx.cwd)
    let dest = ctx.device.files.hostPath(to, ctx.cwd, true)
    if ((await stat(dest).catch(() => undefined))?.isDirectory())
      dest = `${dest}/${from.split('/').filter(Boolean).at(-1) ?? ''}`
    else dest = ctx.device.files.hostPath(to, ctx.cwd)
    await rename(source, dest)
    return 0
  } catch (error) {
    ctx.err(`mv: '${from}': ${errnoText(error)}\n`)
    return 1
  }
}

/** `ln -s TARGET LINK`: the target is stored as written and resolved later in device space. */
export async function ln(ctx: CommandContext): Promise<number> {
  const {flags, paths} = split(ctx.argv.slice(1))
  if (!flags.has('s') || paths.length !== 2) {
    ctx.err('ln: only `ln -s TARGET LINK` is emulated\n')
    return 1
  }
  const [target, link] = paths as [string, string]
  try {
    await symlink(target, ctx.device.files.hostPath(link, ctx.cwd))
    return 0
  } catch (error) {
    ctx.err(`ln: ${link}: ${errnoText(error)}\n`)
    return 1
  }
}

/** `df -k [--] PATH`: toybox's columns, figures from the host file system holding the device folder. */
export async function df(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  const target = paths[0] ?? '/'
  try {
    const fs = await statfs(ctx.device.files.hostPath(target, ctx.cwd, true))
    const kib = (blocks: number) => Math.floor((blocks * fs.bsize) / 1024)
    const total = kib(fs.blocks)
    const available = kib(fs.bavail)
    const used = total - kib(fs.bfree)
    const percent = total > 0 ? Math.ceil((used * 100) / total) : 0
    ctx.out(
      `Filesystem     1K-blocks    Used Available Use% Mounted on\n/dev/fuse      ${total} ${used} ${available} ${percent}% /storage/emulated\n`
    )
    return 0
  } catch (error) {
    ctx.err(`df: ${target}: ${errnoText(error)}\n`)
    return 1
  }
}
