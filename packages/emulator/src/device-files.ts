import {lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, type Stats} from 'node:fs'
import path from 'node:path'

/** How the device's tools (toybox, adbd) word a file-system error, by its errno code. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EACCES: 'Permission denied',
  ENOTEMPTY: 'Directory not empty',
  ELOOP: 'Too many levels of symbolic links',
  EROFS: 'Read-only file system',
}

/** Linux's limit on symlinks followed while resolving one path. */
const MAX_LINKS = 40

/**
 * What the device's shell user (uid 2000: "other" to the system- and app-owned files it may not touch) may do with
 * what `stats` describes. The emulator runs with the host user's rights, so the "other" permission bits stand for
 * the shell user's: a folder without the search bit for others (`chmod o-x`, like an app's 0700 data folder) may
 * not be looked into (lstat of anything inside fails with EACCES, so sync STAT answers zeros), a folder without the
 * read bit (`chmod o-r`) may not be listed, a file without it (`chmod o-r`, like /data/system/packages.xml) may
 * not be opened. Every file counts as another user's, so a file made 0600 (chmod) is closed to the shell too; a
 * SEND never makes one, since adbd copies the owner's bits to others (sync-protocol.ts, send).
 */
export function shellMayRead(stats: {mode: number}): boolean {
  return (stats.mode & 0o004) !== 0
}

export function shellMaySearch(stats: {mode: number}): boolean {
  return (stats.mode & 0o001) !== 0
}

/** The error a file operation of the shell user meets on a path closed to it. */
export function accessError(): NodeJS.ErrnoException {
  return Object.assign(new Error(ERRNO_TEXT.EACCES), {code: 'EACCES'})
}

/** The device's wording of a failed file operation; an error without a known code keeps its own message. */
export function errnoText(error: unknown): string {
  return ERRNO_TEXT[(error as NodeJS.ErrnoException).code ?? ''] ?? (error as Error).message
}

/**
 * A device's file system: a host folder standing for `/`. Device paths are resolved POSIX-style against `/`
 * first, so `..` can never leave the folder. Created like a phone's: `/sdcard` is a symlink to
 * `/storage/emulated/0` (so a sync STAT of `/sdcard` reports a link, as adbd's lstat does), plus
 * `/data/local/tmp`.
 */
export class DeviceFiles {
  constructor(readonly root: string) {
    for (const dir of ['storage/emulated/0/Download', 'storage/emulated/0/DCIM', 'data/local/tmp', 'system/bin']) {
      mkdirSync(path.join(root, dir), {recursive: true})
    }
    symlinkSync('storage/emulated/0', path.join(root, 'sdcard'))
    mkdirSync(path.join(root, 'storage/self'), {recursive: true})
    symlinkSync('../emulated/0', path.join(root, 'storage/self/primary'))
  }

  /** The normalized absolute device path for `devicePath`, resolved against the device working folder `cwd`. */
  normalize(devicePath: string, cwd = '/'): string {
    return path.posix.resolve(cwd, devicePath)
  }

  /**
   * The device path with symlinks resolved in device space, as the device's kernel does: links in the parents
   * always, the last component only when `followLast` (or the path ends in `/`). An absolute link target starts
   * again from the device's `/`, never the host's; `..` steps back physically. Missing components are kept as
   * written. Throws an ELOOP error after 40 links, and an EACCES error when it must look into a folder the shell
   * user may not search (see `shellMaySearch`), as the kernel does for uid 2000.
   */
  resolve(devicePath: string, cwd = '/', followLast = false): string {
    const follow = followLast || devicePath.endsWith('/')
    let pending = (devicePath.startsWith('/') ? devicePath : `${cwd}/${devicePath}`).split('/').filter(Boolean)
    let done: string[] = []
    let links = 0
    while (pending.length > 0) {
      const name = pending.shift() as string
      if (name === '.') continue
      if (name === '..') {
        done.pop()
        continue
      }
      const candidate = [...done, this.storedName(done, name)]
      if (pending.length === 0 && !follow) {
        done = candidate
        break
      }
      const host = path.join(this.root, ...candidate)
      let stats: Stats | undefined
      try {
        stats = lstatSync(host)
      } catch {
        stats = undefined
      }
      if (!stats?.isSymbolicLink()) {
        if (pending.length > 0 && stats?.isDirectory() && !shellMaySearch(stats)) throw accessError()
        done = candidate
        continue
      }
      if (++links > MAX_LINKS) throw Object.assign(new Error(ERRNO_TEXT.ELOOP), {code: 'ELOOP'})
      const target = readlinkSync(host)
      if (target.startsWith('/')) done = []
      pending = [...target.split('/').filter(Boolean), ...pending]
    }
    return `/${done.join('/')}`
  }

  /**
   * The name under which `name` is stored in the folder `parent` (device path components): itself, except inside
   * shared storage (/storage/emulated), which a phone looks names up in without regard to case. There a name with
   * no entry of its own finds the entry that differs from it in case alone (or in Unicode normalization form), and
   * a file written, renamed or removed under it is that entry, which keeps its name. Android 11+ keeps shared
   * storage on /data/media with the file system's own case folding (source.android.com, "SDCardFS deprecation":
   * case insensitivity is handled directly by the file system; ext4/f2fs casefold compares names NFD-normalized and
   * case-folded); before, sdcardfs (8-10) and the FUSE sdcard daemon (system/core sdcard/sdcard.c,
   * find_file_within: strcasecmp over the folder's entries when the exact name is missing) did the same.
   * /data and the rest stay case-sensitive, as ext4/f2fs without casefold are.
   */
  private storedName(parent: string[], name: string): string {
    if (parent.length < 2 || parent[0] !== 'storage' || parent[1] !== 'emulated') return name
    const folder = path.join(this.root, ...parent)
    try {
      lstatSync(path.join(folder, name))
      return name
    } catch {
      // No entry of that exact name: look for one equal to it with case folded.
    }
    const folded = foldName(name)
    let entries: string[]
    try {
      entries = readdirSync(folder)
    } catch {
      return name
    }
    return entries.find((entry) => foldName(entry) === folded) ?? name
  }

  /**
   * The host path standing for a device path, its symlinks resolved in device space (see `resolve`), so no link
   * on the device can reach the host's own files. A trailing slash follows a symlinked folder (`/sdcard/`), as
   * on the device.
   */
  hostPath(devicePath: string, cwd = '/', followLast = false): string {
    const resolved = this.resolve(devicePath, cwd, followLast)
    return path.join(this.root, ...resolved.split('/').filter(Boolean))
  }

  /** The device path of a host path inside the root (the working folder a helper reports), else `/`. */
  devicePathOf(hostPath: string): string {
    const rel = path.relative(this.root, hostPath)
    if (rel.startsWith('..') || path.isAbsolute(rel)) return '/'
    return `/${rel.split(path.sep).join('/')}`
  }
}

/** A name as a case-folding file system compares it: NFD, then lower case. */
function foldName(name: string): string {
  return name.normalize('NFD').toLowerCase()
}
