/** The files capability: the device's file system as its shell user sees it. */

/** What a path on the device is, as lstat reports it (a symlink is not followed). */
export type FileKind = 'file' | 'directory' | 'symlink' | 'other'

export interface FileStat {
  kind: FileKind
  /** Size in bytes (the sync protocol's 32 bits: wraps above 4 GiB). */
  size: number
  /** Last modification, milliseconds since the epoch (seconds precision), or null when the device gave none. */
  mtimeMs: number | null
  /** Permission bits (`mode & 0o777`), where the device gave them: a write that replaces the file keeps them. */
  mode?: number
}

export interface FileEntry extends FileStat {
  name: string
}

/**
 * The slowest transfer of a file a device call allows before it counts as hung: 1 MiB/s, below USB 2's real rate
 * and a slow Wi-Fi link's. Moving `bytes` may take this long on top of a call's own limit (the driver's call and
 * the CLI's whole-command deadline both grow by it).
 */
export function transferAllowanceMs(bytes: number): number {
  return Math.ceil(bytes / TRANSFER_FLOOR_BYTES_PER_MS)
}

/** That slowest rate, in bytes per millisecond (1 MiB/s). */
export const TRANSFER_FLOOR_BYTES_PER_MS = (1024 * 1024) / 1000

/** For a large transfer: the size to expect (a longer time limit) and who hears its progress. */
export interface TransferWatch {
  /** The file's size as a stat gave it: the call may take that much longer than a small one (at 1 MiB/s at worst). */
  expectedBytes?: number
  /** Called with the bytes moved so far, as they move (arc files pull/push show it). */
  onBytes?: (bytes: number) => void
}

export interface FilesCapability {
  /**
   * lstat of a device path; undefined when the device found nothing there. A backend may answer a path its user
   * may not look at (behind a folder closed to it) as a missing one, for the price of one request: `sure` asks it to
   * tell them apart, failing with DEVICE_ACCESS_DENIED for a refused path, so that undefined then means missing
   * (a caller asks for it before it reports a path missing). The other file methods fail with DEVICE_ACCESS_DENIED
   * where the device refuses a path to its user (another app's data, a system file).
   */
  statFile(path: string, options?: {sure?: boolean}): Promise<FileStat | undefined>
  /** A folder's entries without `.` and `..` (sync LIST), in the device's order. */
  listDir(path: string): Promise<FileEntry[]>
  /**
   * A file's bytes (sync RECV). Given `maxBytes`, the read stops once past it: a longer file comes back cut after
   * more than `maxBytes` bytes, so the caller can tell it is over, without the rest in memory (a stat's size can be
   * wrong: older adbd sends it in 32 bits, so a file of 4 GiB and 5 bytes says 5).
   */
  readFile(path: string, maxBytes?: number, transfer?: TransferWatch): Promise<Buffer>
  /**
   * The path with every symlink, `.` and `..` resolved on the device (`realpath`); undefined when it or a parent
   * does not exist, or the links loop.
   */
  realPath(path: string): Promise<string | undefined>
  /** Free bytes on the file system holding `path`, or undefined when the device does not say. */
  freeBytes(path: string): Promise<number | undefined>
  /** Creates a folder and its missing parents (`mkdir -p`). */
  makeDirs(path: string): Promise<void>
  /**
   * Replaces a file's content atomically: the bytes go to a temporary name in the same folder (sync SEND), which is
   * then renamed over the target, so a failed or interrupted write leaves the old file as it was. `mode`: the
   * permission bits the file is to have (an existing file's, so that replacing its content keeps them); without it
   * a new file gets what the device gives one.
   */
  writeFile(path: string, data: Buffer, transfer?: TransferWatch, mode?: number): Promise<void>
  /**
   * Runs `work` (a read-modify-write of the file at `path`, a real path) holding an exclusive lock on that path on
   * the device, against every other arc process and host doing the same, so no two edits of one file interleave
   * and every edit reported done is in the file. Waits for other holders up to three device time limits (TIMEOUT).
   * Where the device cannot lock (no `flock`), `work` runs unlocked.
   */
  withFileLock<T>(path: string, work: () => Promise<T>): Promise<T>
  /** Deletes one file (never a folder). */
  deleteFile(path: string): Promise<void>
}
