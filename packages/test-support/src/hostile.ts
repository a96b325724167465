import {createHash} from 'node:crypto'
import {lstat, mkdtemp, readdir, readFile, readlink} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import path from 'node:path'

/** A fresh temp folder for one hostile case. */
export function scratch(prefix = 'arc-hostile-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix))
}

/**
 * Every entry below `dir` (hidden ones too) with its kind and a hash of its content or link target: compare two
 * of these to prove that a failed command changed nothing on disk.
 */
export async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const visit = async (folder: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      const full = path.join(folder, name)
      const rel = path.relative(dir, full)
      const info = await lstat(full)
      if (info.isSymbolicLink()) out[rel] = `link:${await readlink(full)}`
      else if (info.isDirectory()) {
        out[rel] = 'dir'
        await visit(full)
      } else
        out[rel] = `file:${createHash('sha256')
          .update(await readFile(full))
          .digest('hex')
          .slice(0, 16)}`
    }
  }
  await visit(dir)
  return out
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

/**
 * Mounts a small tmpfs (as root on Linux) for real ENOSPC and read-only (EROFS) cases; undefined when mounting
 * is not allowed here, and the caller skips. `unmount` must be called in an after hook.
 */
export async function mountTmpfs(options: {
  sizeKb: number
  readOnly?: boolean
}): Promise<{dir: string; unmount(): Promise<void>} | undefined> {
  const {execFileSync} = await import('node:child_process')
  if (!isRoot || process.platform !== 'linux') return undefined
  const dir = await scratch('arc-tmpfs-')
  try {
    execFileSync(
      'mount',
      ['-t', 'tmpfs', '-o', `size=${options.sizeKb}k${options.readOnly ? ',ro' : ''}`, 'tmpfs', dir],
      {stdio: 'ignore'}
    )
  } catch {
    return undefined
  }
  return {dir, unmount: async () => execFileSync('umount', [dir], {stdio: 'ignore'}) as unknown as void}
}
