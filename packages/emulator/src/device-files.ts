import {mkdirSync, symlinkSync} from 'node:fs'
import path from 'node:path'

/** How the device's tools (toybox, adbd) word a file-system error, by its errno code. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EACCES: 'Permission denied',
  ENOTEMPTY: 'Directory not empty',
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

  /** The host path standing for a device path. */
  hostPath(devicePath: string, cwd = '/'): string {
    const normalized = this.normalize(devicePath, cwd)
    // A trailing slash makes lstat follow a symlinked folder (`/sdcard/`), as on the device.
    const slash = devicePath.endsWith('/') && normalized !== '/' ? '/' : ''
    return path.join(this.root, ...normalized.split('/').filter(Boolean)) + slash
  }

  /** The device path of a host path inside the root (the working folder a helper reports), else `/`. */
  devicePathOf(hostPath: string): string {
    const rel = path.relative(this.root, hostPath)
    if (rel.startsWith('..') || path.isAbsolute(rel)) return '/'
    return `/${rel.split(path.sep).join('/')}`
  }
}
