import type {Stats} from 'node:fs'
import {
  chmod as chmodFs,
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

/** The device's API level (`ro.build.version.sdk`): it decides which of toolbox and toybox runs a command. */
function sdkOf(ctx: CommandContext): number {
  return Number(ctx.device.properties.get('ro.build.version.sdk') ?? '34')
}

/**
 * `ls`, `df` and `mkdir` stayed Android's own toolbox's after toybox came (6.0): system/core toolbox/Android.mk lists
 * ls and df among its tools up to 6.0 (commits "Lose ls to toybox." and "Lose df to toybox.", first in 7.0) and mkdir
 * up to 5.1 ("Lose mkdir to toybox.", first in 6.0).
 */
const TOOLBOX_LS_DF_LAST_SDK = 23
const TOOLBOX_MKDIR_LAST_SDK = 22

/**
 * Toolbox's `ls` (system/core toolbox/ls.c, ls_main, up to Android 6.0): every argument starting with `-` is a run
 * of option letters (`lnsRdZaFi`), `--` included: any other letter prints `ls: Unknown option '-X'. Aborting.` and
 * exits 1 before anything is listed. listpath says a path it cannot lstat as perror(NAME) (`NAME: strerror`), and
 * listdir a folder it cannot open as `opendir failed, strerror`; either makes the status 1. Names, one a line (`-a`
 * adds `.` and `..`); `-l` lines are mode, owner, group, size, date and name, as its listfile prints them.
 */
async function toolboxLs(ctx: CommandContext): Promise<number> {
  const flags = new Set<string>()
  const targets: string[] = []
  for (const a of ctx.argv.slice(1)) {
    if (!a.startsWith('-')) {
      targets.push(a)
      continue
    }
    for (const c of a.slice(1)) {
      if (!'lnsRdZaFi'.includes(c)) {
        ctx.err(`ls: Unknown option '-${c}'. Aborting.\n`)
        return 1
      }
      flags.add(c)
    }
  }
  const long = (s: Stats, name: string) => {
    const d = s.mtime
    const p = (n: number) => String(n).padStart(2, '0')
    const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`
    const size = s.isDirectory() || s.isSymbolicLink() ? ' '.repeat(8) : String(s.size).padStart(8)
    return `${modeString(s)} shell    shell    ${size} ${date} ${name}`
  }
  let status = 0
  for (const target of targets.length > 0 ? targets : ['.']) {
    let stats: Stats
    try {
      stats = await (target.endsWith('/') ? stat : lstat)(ctx.device.files.hostPath(target, ctx.cwd))
    } catch (error) {
      ctx.err(`${target}: ${errnoText(error)}\n`)
      status = 1
      continue
    }
    if (!stats.isDirectory() || flags.has('d')) {
      ctx.out(`${flags.has('l') ? long(stats, target) : target}\n`)
      continue
    }
    const folder = ctx.device.files.hostPath(target, ctx.cwd, true)
    if (!shellMayRead(stats)) {
      ctx.err(`opendir failed, ${errnoText({code: 'EACCES'})}\n`)
      status = 1
      continue
    }
    let names = (await readdir(folder)).sort()
    if (flags.has('a')) names = ['.', '..', ...names]
    else names = names.filter((name) => !name.startsWith('.'))
    for (const name of names) ctx.out(`${flags.has('l') ? long(await lstat(`${folder}/${name}`), name) : name}\n`)
  }
  return status
}

/** `ls [-l] [-a] [-1] [PATH…]` (toybox): one name per line, as when not on a terminal. */
export async function ls(ctx: CommandContext): Promise<number> {
  if (sdkOf(ctx) <= TOOLBOX_LS_DF_LAST_SDK) return toolboxLs(ctx)
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

/**
 * Toolbox's `mkdir` (system/core toolbox/mkdir.c, mkdir_main, up to Android 5.1): only its first argument may be an
 * option (`-p` or `--parents`; `--help` or no argument prints its usage); every later argument is a folder, `--`
 * too, which is made in the working folder (adb's shell starts in `/`, read-only). With `-p` it walks each path
 * piece by piece, making each missing one; the first failure prints `mkdir failed for PATH, strerror` (with `-p`,
 * PATH is the pieces so far, ending in `/`) and ends the program with main's return value -1: status 255.
 */
async function toolboxMkdir(ctx: CommandContext): Promise<number> {
  let args = ctx.argv.slice(1)
  if (args.length === 0 || args[0] === '--help') {
    ctx.err('mkdir [OPTION] <target>\n    --help           display usage and exit\n')
    ctx.err('    -p, --parents    create parent directories as needed\n')
    return 255
  }
  const parents = args[0] === '-p' || args[0] === '--parents'
  if (parents) args = args.slice(1)
  if (parents && args.length === 0) return toolboxMkdir({...ctx, argv: ['mkdir']})
  for (const target of args) {
    const steps = parents
      ? target
          .split('/')
          .filter(Boolean)
          .map((_, i, pieces) => `${target.startsWith('/') ? '/' : ''}${pieces.slice(0, i + 1).join('/')}/`)
      : [target]
    for (const step of steps) {
      try {
        const host = ctx.device.files.hostPath(step, ctx.cwd)
        if (
          parents &&
          (await stat(host).then(
            () => true,
            () => false
          ))
        )
          continue
        if (ctx.device.files.resolve(step, ctx.cwd).split('/').filter(Boolean).length === 1) throw readOnlyRoot()
        await mkdirFs(host)
      } catch (error) {
        ctx.err(`mkdir failed for ${step}, ${errnoText(error)}\n`)
        return 255
      }
    }
  }
  return 0
}

/** The error of making an entry in `/`: a phone's root file system is mounted read-only (init.rc remounts rootfs ro). */
function readOnlyRoot(): NodeJS.ErrnoException {
  return Object.assign(new Error('Read-only file system'), {code: 'EROFS'})
}

/** `mkdir [-p] PATH…` */
export async function mkdir(ctx: CommandContext): Promise<number> {
  if (sdkOf(ctx) <= TOOLBOX_MKDIR_LAST_SDK) return toolboxMkdir(ctx)
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

/**
 * `chmod MODE FILE…` (toybox toys/posix/chmod.c), octal modes only (the symbolic ones are not emulated: `bad mode`,
 * exit 1, as string_to_mode says of one it cannot read). A link is followed, as chmod(2) does; a file that cannot
 * be changed prints `chmod: chmod 'FILE' to MODE: strerror` and makes the status 1.
 */
export async function chmod(ctx: CommandContext): Promise<number> {
  const {paths} = split(ctx.argv.slice(1))
  const [text, ...targets] = paths
  if (text === undefined || targets.length === 0) {
    ctx.err('chmod: Needs 2 arguments\n')
    return 1
  }
  if (!/^[0-7]{1,4}$/.test(text)) {
    ctx.err(`chmod: bad mode '${text}'\n`)
    return 1
  }
  const mode = Number.parseInt(text, 8)
  let status = 0
  for (const target of targets) {
    try {
      await chmodFs(ctx.device.files.hostPath(target, ctx.cwd, true), mode)
    } catch (error) {
      ctx.err(`chmod: chmod '${target}' to ${mode.toString(8).padStart(4, '0')}: ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
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
/**
 * Toolbox's `df` (system/core toolbox/df.c, df_main, up to Android 6.0): no options at all, so each argument, `-k`
 * and `--` too, is a path to statfs. Its own columns (`Filesystem Size Used Free Blksize`), sizes in tenths of K, M
 * or G as its printsize rounds them; a path it cannot statfs prints `PATH: strerror` and makes the status 1.
 */
async function toolboxDf(ctx: CommandContext): Promise<number> {
  const size = (bytes: number) => {
    let n = bytes * 10
    let unit = 'K'
    if (n > 1024 * 1024 * 10) [n, unit] = [Math.floor(n / 1024), 'M']
    if (n > 1024 * 1024 * 10) [n, unit] = [Math.floor(n / 1024), 'G']
    const tenths = Math.floor((n + 512) / 1024)
    return `${String(Math.floor(tenths / 10)).padStart(4)}.${tenths % 10}${unit}`
  }
  ctx.out('Filesystem               Size     Used     Free   Blksize\n')
  let status = 0
  for (const target of ctx.argv.slice(1)) {
    try {
      const fs = await statfs(ctx.device.files.hostPath(target, ctx.cwd, true))
      const used = (fs.blocks - fs.bfree) * fs.bsize
      ctx.out(
        `${target.padEnd(20)}  ${size(fs.blocks * fs.bsize)}  ${size(used)}  ${size(fs.bfree * fs.bsize)}   ${fs.bsize}\n`
      )
    } catch (error) {
      ctx.err(`${target}: ${errnoText(error)}\n`)
      status = 1
    }
  }
  return status
}

export async function df(ctx: CommandContext): Promise<number> {
  if (sdkOf(ctx) <= TOOLBOX_LS_DF_LAST_SDK) return toolboxDf(ctx)
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
