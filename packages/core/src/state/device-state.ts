import {createHash, randomBytes} from 'node:crypto'
import {lstat, readdir, readFile, rename, rm, writeFile} from 'node:fs/promises'
import path from 'node:path'

import {withDeviceLock} from '../driver/device-lock.js'
import {makeFolders} from '../output-files.js'
import {arcCacheDir, arcCacheSource} from './cache-dir.js'

export {arcCacheDir, arcCacheSource} from './cache-dir.js'

/**
 * What arc remembers about one device between observations: what each element id stood for at the last read,
 * the last screen read (for "unchanged" answers and diffs). The CLI keeps it in a small file per device in the
 * user's cache folder, because each command is a new process; the MCP server keeps it in memory for its life.
 *
 * Values are JSON. A missing, unreadable or corrupt entry reads as undefined: the state is a cache, never the
 * only copy of anything, so losing it costs one extra read of the screen, never a wrong answer.
 */
export interface DeviceState {
  /**
   * The value kept under `key` when `valid` accepts it, else undefined: a cache file anyone (another arc version,
   * a user, a full disk) may have left in any shape is checked before it is used, never trusted.
   */
  get<T>(key: string, valid: (value: unknown) => value is T): Promise<T | undefined>
  set(key: string, value: unknown): Promise<void>
  /**
   * Replaces the value under `key` with what `change` makes of the current one (undefined when there is none or
   * `valid` refuses it), as one step: no other update of the entry, by this process or another arc process on this
   * machine, comes between its read and its write. Two callers adding to one entry at once (two MCP calls, a batch
   * and a CLI command) each keep the other's additions, where a get then a set could lose one side's.
   */
  update<T>(
    key: string,
    valid: (value: unknown) => value is T,
    change: (current: T | undefined) => unknown
  ): Promise<void>
  delete(key: string): Promise<void>
}

/** Stores of a caller's other devices, or how to list them (called only when an id needs them). */
export type OtherDeviceStores = readonly DeviceState[] | (() => Promise<readonly DeviceState[]>)

/** Keys are short words of letters, digits, dash and underscore: they become file names. */
function checkKey(key: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(key)) throw new Error(`device state key ${JSON.stringify(key)} is not a plain word`)
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

/** The adb server a device is reached through by default (adb's own: 127.0.0.1:5037), whose devices' folders keep their plain serials. */
const DEFAULT_ADB_SERVER = '127.0.0.1:5037'

/**
 * The folder under `devices/` of what arc remembers of a device: its serial's (serialFolderName), or, for a device of
 * another adb server than the default one, its serial and that server's (`emulator-5554@10.0.0.5:5037`, made
 * file-safe). Two servers may each have a device of one serial (emulators in containers, each its own
 * `emulator-5554`): one folder for both let a read of one replace the records of the other, and an id shown on one
 * act on the other.
 */
export function deviceFolderName(serial: string, adbServer?: string): string {
  return serialFolderName(
    adbServer === undefined || adbServer === DEFAULT_ADB_SERVER ? serial : `${serial}@${adbServer}`
  )
}

/** A cache file larger than this is not arc's (its largest, 4000 element records, is some 1 MB): not read. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024

/**
 * Cache folders whose unwritability was already reported in this process, or in this span of a resident host: the
 * warning comes once (forgetStateWarnings starts a span afresh).
 */
const warned = new Set<string>()

/** A resident host's new span (a batch, one command of `arc server`) warns again, as a new process would. */
export function forgetStateWarnings(): void {
  warned.clear()
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied'
  if (code === 'EROFS') return 'a read-only file system'
  if (code === 'ENOTDIR') return 'a part of the path is not a folder'
  if (code === 'ENOENT') return 'it cannot be created there'
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full'
  return (error as Error).message ?? String(error)
}

/**
 * The CLI's store: one JSON file per key under `<cache>/devices/<serial>/`, replaced whole on every write.
 *
 * The cache is disposable, so it is best effort: what is read is checked (`valid`) and an entry of another shape,
 * unreadable, or a folder where a file belongs reads as nothing; a write goes to an exclusively created temporary
 * file of a random name (O_CREAT|O_EXCL: a link planted at that name is never followed) renamed over the entry,
 * and a folder in the entry's place is removed first. When the folder cannot be written at all (a read-only or
 * missing HOME, ARC_CACHE_DIR naming a file or /proc), the values are kept in memory for the process instead
 * (ids still work within one command or batch) and `warn` is told once, naming the folder and the variables
 * that choose it.
 */
/** A folder name for a caller's own store: the name made file-safe, or its hash when that would be long. */
function callerFolderName(caller: string): string {
  const safe = serialFolderName(caller)
  return safe.length <= 64 ? safe : `h-${createHash('sha256').update(caller).digest('hex').slice(0, 32)}`
}

/**
 * What the stores of an unwritable folder hold instead, per folder, for the process's life: a batch, `arc test` and
 * `arc server` make a FileDeviceState per command, and the ids one line showed must be checked on the next line as
 * the file would have had them. On `globalThis`, so two copies of this module in one process share it.
 */
const unwritten: Map<string, Map<string, string>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('arc.deviceState.unwritten')
] ??= new Map()) as Map<string, Map<string, string>>

export class FileDeviceState implements DeviceState {
  readonly dir: string
  private unwritable = false

  constructor(
    serial: string,
    cacheDir = arcCacheDir(),
    private readonly warn?: (message: string) => void,
    private readonly source = arcCacheSource(),
    /**
     * The store of one caller of the device (ARC_CALLER), in `callers/<name>/` of the device's folder (a long name
     * by its hash, so any string is a safe folder name).
     */
    caller?: string,
    /** The device's folder name under `devices/` as found there (otherDevices), in place of the serial's. */
    folder = serialFolderName(serial)
  ) {
    const device = path.join(cacheDir, 'devices', folder)
    this.dir = caller === undefined ? device : path.join(device, 'callers', callerFolderName(caller))
  }

  /**
   * The stores of every other device the cache folder holds (`devices/<name>/`, or the caller's own store in each under
   * `caller`), on disk or kept in memory because the folder cannot be written: what an id shown on one of them and
   * never on `serial` is found in (element-records.ts `shownElsewhere`), so it is refused there. Read only when an id
   * is not in the device's own store.
   */
  static async otherDevices(
    serial: string,
    cacheDir = arcCacheDir(),
    caller?: string,
    warn?: (message: string) => void,
    /** The device's own folder name (deviceFolderName), when not its serial's. */
    own = serialFolderName(serial)
  ): Promise<FileDeviceState[]> {
    const root = path.join(cacheDir, 'devices')
    const folders = new Set<string>()
    try {
      for (const entry of await readdir(root, {withFileTypes: true})) if (entry.isDirectory()) folders.add(entry.name)
    } catch {
      // No cache folder yet, or none readable: nothing was remembered for another device.
    }
    for (const dir of unwritten.keys()) {
      const rel = path.relative(root, dir)
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) folders.add(rel.split(path.sep)[0] as string)
    }
    folders.delete(own)
    return [...folders].map((folder) => new FileDeviceState(serial, cacheDir, warn, undefined, caller, folder))
  }

  /** The values kept in memory for this folder while it cannot be written (shared by every store of the folder). */
  private get memory(): Map<string, string> {
    let memory = unwritten.get(this.dir)
    if (!memory) unwritten.set(this.dir, (memory = new Map()))
    return memory
  }

  private file(key: string): string {
    checkKey(key)
    return path.join(this.dir, `${key}.json`)
  }

  async get<T>(key: string, valid: (value: unknown) => value is T): Promise<T | undefined> {
    const file = this.file(key)
    let json = this.memory.get(key)
    if (json === undefined) {
      try {
        const found = await lstat(file)
        if (!found.isFile() || found.size > MAX_ENTRY_BYTES) return undefined
        json = await readFile(file, 'utf8')
      } catch {
        return undefined
      }
    }
    try {
      const value: unknown = JSON.parse(json)
      return valid(value) ? value : undefined
    } catch {
      return undefined
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    const file = this.file(key)
    const json = JSON.stringify(value)
    if (!this.unwritable) {
      try {
        await this.write(file, json)
        this.memory.delete(key)
        return
      } catch (error) {
        this.unwritable = true
        this.report(error)
      }
    }
    this.memory.set(key, json)
  }

  /**
   * Holds the entry's machine-wide lock (driver/device-lock.ts, keyed by the entry's file) from the read to the write:
   * every arc process that updates the entry takes it, and the kernel lets it go when its holder dies.
   */
  async update<T>(
    key: string,
    valid: (value: unknown) => value is T,
    change: (current: T | undefined) => unknown
  ): Promise<void> {
    const file = this.file(key)
    const step = async () => this.set(key, change(await this.get(key, valid)))
    let ran = false
    try {
      await withDeviceLock(`state:${file}`, () => {
        ran = true
        return step()
      })
    } catch (error) {
      if (ran) throw error
      // The lock could not be had at all (its socket file under a cache folder that cannot be written, on systems
      // without abstract sockets): the cache is best effort, as for its writes.
      await step()
    }
  }

  private report(error: unknown): void {
    const root = path.dirname(path.dirname(this.dir))
    if (warned.has(root)) return
    warned.add(root)
    const variables = this.source === 'ARC_CACHE_DIR' ? 'ARC_CACHE_DIR' : `${this.source} (or set ARC_CACHE_DIR)`
    this.warn?.(
      `arc cannot write its cache folder ${root} (${reasonOf(error)}): element ids work within this command but are not checked against earlier commands (stale ids go undetected across commands). Point ${variables} at a writable folder.`
    )
  }

  private async write(file: string, json: string): Promise<void> {
    await makeFolders(this.dir)
    for (let attempt = 0; ; attempt++) {
      const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await writeFile(tmp, json, {flag: 'wx', mode: 0o600})
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 3) continue
        throw error
      }
      try {
        await rename(tmp, file).catch(async (error: NodeJS.ErrnoException) => {
          // A folder where the entry belongs (EISDIR, or ENOTEMPTY/EEXIST for a non-empty one): the cache is ours.
          if (error.code !== 'EISDIR' && error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
          await rm(file, {recursive: true, force: true})
          await rename(tmp, file)
        })
      } catch (error) {
        await rm(tmp, {force: true}).catch(() => undefined)
        throw error
      }
      return
    }
  }

  async delete(key: string): Promise<void> {
    this.memory.delete(key)
    await rm(this.file(key), {force: true}).catch(() => undefined)
  }
}

/** The MCP server's store: plain memory, one per device for the server's life. Values are copied in and out. */
export class MemoryDeviceState implements DeviceState {
  private readonly values = new Map<string, string>()

  async get<T>(key: string, valid: (value: unknown) => value is T): Promise<T | undefined> {
    checkKey(key)
    const json = this.values.get(key)
    if (json === undefined) return undefined
    const value: unknown = JSON.parse(json)
    return valid(value) ? value : undefined
  }

  async set(key: string, value: unknown): Promise<void> {
    checkKey(key)
    this.values.set(key, JSON.stringify(value))
  }

  /** One synchronous read and write: nothing else of this process runs between them. */
  async update<T>(
    key: string,
    valid: (value: unknown) => value is T,
    change: (current: T | undefined) => unknown
  ): Promise<void> {
    checkKey(key)
    const json = this.values.get(key)
    const value: unknown = json === undefined ? undefined : JSON.parse(json)
    this.values.set(key, JSON.stringify(change(valid(value) ? value : undefined)))
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key)
  }

  /** About how much memory its values take (their JSON, two bytes a character): what a server keeping many weighs. */
  get bytes(): number {
    let total = 0
    for (const [key, json] of this.values) total += 2 * (key.length + json.length)
    return total
  }
}
