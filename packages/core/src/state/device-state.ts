import {mkdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'

/**
 * What arc remembers about one device between observations: what each element id stood for at the last read,
 * the last screen read (for "unchanged" answers and diffs). The CLI keeps it in a small file per device in the
 * user's cache folder, because each command is a new process; the MCP server keeps it in memory for its life.
 *
 * Values are JSON. A missing, unreadable or corrupt entry reads as undefined: the state is a cache, never the
 * only copy of anything, so losing it costs one extra read of the screen, never a wrong answer.
 */
export interface DeviceState {
  get<T>(key: string): Promise<T | undefined>
  set(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<void>
}

/** Keys are short words of letters, digits, dash and underscore: they become file names. */
function checkKey(key: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(key)) throw new Error(`device state key ${JSON.stringify(key)} is not a plain word`)
}

/**
 * The user's cache folder for arc: `$ARC_CACHE_DIR` when set, else `$XDG_CACHE_HOME/arc`, `~/Library/Caches/arc`
 * on macOS, `%LOCALAPPDATA%\arc\Cache` on Windows, `~/.cache/arc` elsewhere.
 */
export function arcCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.ARC_CACHE_DIR) return path.resolve(env.ARC_CACHE_DIR)
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'arc')
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'arc')
  if (platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'arc', 'Cache')
  return path.join(os.homedir(), '.cache', 'arc')
}

/**
 * A file-name-safe folder name for a serial. Serials hold `:` and `.` (`192.168.1.5:5555`), snapshot paths hold
 * `/`: every byte outside `[A-Za-z0-9._-]` becomes `%XX`, so two serials never share a folder.
 */
export function serialFolderName(serial: string): string {
  const safe = Buffer.from(serial, 'utf8')
    .toString('latin1')
    .replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
  return safe === '.' || safe === '..' ? safe.replaceAll('.', '%2E') : safe
}

/** The CLI's store: one JSON file per key under `<cache>/devices/<serial>/`, replaced whole on every write. */
export class FileDeviceState implements DeviceState {
  readonly dir: string

  constructor(serial: string, cacheDir = arcCacheDir()) {
    this.dir = path.join(cacheDir, 'devices', serialFolderName(serial))
  }

  private file(key: string): string {
    checkKey(key)
    return path.join(this.dir, `${key}.json`)
  }

  async get<T>(key: string): Promise<T | undefined> {
    try {
      return JSON.parse(await readFile(this.file(key), 'utf8')) as T
    } catch {
      return undefined
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const file = this.file(key)
    await mkdir(this.dir, {recursive: true})
    const tmp = `${file}.${process.pid}.tmp`
    try {
      await writeFile(tmp, JSON.stringify(value))
      await rename(tmp, file)
    } catch (error) {
      await rm(tmp, {force: true})
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), {force: true})
  }
}

/** The MCP server's store: plain memory, one per device for the server's life. Values are copied in and out. */
export class MemoryDeviceState implements DeviceState {
  private readonly values = new Map<string, string>()

  async get<T>(key: string): Promise<T | undefined> {
    checkKey(key)
    const json = this.values.get(key)
    return json === undefined ? undefined : (JSON.parse(json) as T)
  }

  async set(key: string, value: unknown): Promise<void> {
    checkKey(key)
    this.values.set(key, JSON.stringify(value))
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key)
  }
}
