/** Where arc keeps its cache (element records, screens, locks on systems without abstract sockets). */
import os from 'node:os'
import path from 'node:path'

/** The environment variable that chose the cache folder (arcCacheDir), for messages about it. */
export function arcCacheSource(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform
): string {
  if (env.ARC_CACHE_DIR) return 'ARC_CACHE_DIR'
  if (env.XDG_CACHE_HOME) return 'XDG_CACHE_HOME'
  if (platform === 'win32' && env.LOCALAPPDATA) return 'LOCALAPPDATA'
  return 'HOME'
}

/**
 * The user's cache folder for arc: `$ARC_CACHE_DIR` when set, else `$XDG_CACHE_HOME/arc`, `~/Library/Caches/arc`
 * on macOS, `%LOCALAPPDATA%\arc\Cache` on Windows, `~/.cache/arc` elsewhere.
 */
export function arcCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform
): string {
  if (env.ARC_CACHE_DIR) return path.resolve(env.ARC_CACHE_DIR)
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'arc')
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'arc')
  if (platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'arc', 'Cache')
  return path.join(os.homedir(), '.cache', 'arc')
}
