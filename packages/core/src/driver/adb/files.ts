/**
 * Files on the device (adb.md §3.13): content over the sync service (binary-safe, no quoting), the rest through
 * toybox in the shell (`realpath`, `mkdir -p`, `mv`, `rm`, `df`), every path quoted.
 *
 * adb works as the device's shell user, which may not look into another app's data or many system folders. adbd
 * hides that in places: a STAT it cannot lstat and a LIST of a folder it cannot open look like nothing being there.
 * An empty LIST is checked with `ls -a` here; a STAT stays one request, and the caller asks `confirmMissing` (one
 * `ls -ld`) only on its way to reporting the path missing, so a write of a new file costs nothing more. A path the
 * device refuses is DEVICE_ACCESS_DENIED, never NOT_FOUND or an empty folder.
 */
import {createHash, randomBytes} from 'node:crypto'
import path from 'node:path'
import {Readable} from 'node:stream'

import {
  InvalidInputError,
  DeviceAccessDeniedError,
  DeviceCommandError,
  DeviceUnavailableError,
  TimeoutError,
} from '../../errors/arc-error.js'
import {transferAllowanceMs} from '../capabilities/files.js'
import {sideStem} from '../../side-name.js'
import type {FileEntry, FileKind, FileStat} from '../device-driver.js'
import type {DeviceShell} from './device-shell.js'
import {deviceStringProblem, raw, shq, type Raw} from './shell-quote.js'

interface SyncStats {
  mode: number
  size: number
  mtimeMs: number
}

function kindOf(mode: number): FileKind {
  switch (mode & 0o170000) {
    case 0o100000:
      return 'file'
    case 0o040000:
      return 'directory'
    case 0o120000:
      return 'symlink'
    default:
      return 'other'
  }
}

function toStat(stats: SyncStats): FileStat {
  return {
    kind: kindOf(stats.mode),
    size: stats.size,
    mtimeMs: stats.mtimeMs > 0 ? stats.mtimeMs : null,
    mode: stats.mode & 0o777,
  }
}

/**
 * Whether a tool's error ends with strerror(EACCES), as toybox (`ls: PATH: Permission denied`), toolbox (`PATH:
 * Permission denied` from perror, `opendir failed, Permission denied` from its ls, `mkdir failed for PATH,
 * Permission denied`) and adbd (`open failed: Permission denied`) end it. Only the end counts: the path in the
 * message is anybody's text, and every one of these formats ends with the strerror text.
 */
function saysDenied(text: string): boolean {
  return /[:,] Permission denied'?$/.test(text.trimEnd())
}

/**
 * A path as the operand of `ls`, `mkdir` or `df`, which get no `--` before it: Android's own toolbox ran them up to
 * 6.0 (ls and df; mkdir up to 5.1: system/core toolbox/Android.mk, "Lose ls/df/mkdir to toybox."), and its ls takes
 * `--` for an unknown option (ls_main: `ls: Unknown option '--'. Aborting.`, exit 1), its mkdir for a folder to
 * make in `/` (mkdir_main reads options from its first argument only), its df for a path (df_main has no options).
 * arc's device paths are absolute, and a path starting with `/` is never an option; any other starting with `-`
 * gets `./` before it (relative to `/`, where adb's shell starts), which names the same file.
 */
function operand(target: string): string {
  return target.startsWith('-') ? `./${target}` : target
}

/**
 * The device refused `target` to its shell user. `how`: `reach` (a folder on its way may not be looked into, so
 * whether the path exists cannot be told), `read` (the file), `list` (the folder), `write` (in the folder), `create`
 * (the folder, with `mkdir -p`).
 */
function accessDenied(
  dev: DeviceShell,
  target: string,
  how: 'reach' | 'read' | 'list' | 'write' | 'create',
  output?: string
): DeviceAccessDeniedError {
  const what = {
    reach: `may not look into a folder on the way to ${target}, so arc can neither read it nor tell whether it exists`,
    read: `may not read ${target}`,
    list: `may not read the folder ${target}`,
    write: `may not write in the folder ${target}`,
    create: `may not create the folder ${target}`,
  }[how]
  return new DeviceAccessDeniedError(`permission denied on ${dev.serial}: the device's shell user ${what}`, {
    details: {serial: dev.serial, path: target, ...(output === undefined ? {} : {output: output.trim().slice(0, 300)})},
    actions: [
      "adb works as the shell user, which cannot see another app's private data or most system files: point the storage location at a folder it can read, such as /sdcard/Download or /data/local/tmp.",
      "A debuggable app's own files can be reached as that app: `arc shell -- run-as PKG ls -l files/`.",
      'On a device with root (an emulator image without Google Play, a userdebug build): `adb root`, then run arc again.',
    ],
  })
}

/** The longest path adbd's file service takes (daemon/file_sync_service.cpp: `path too long` past 1024 bytes). */
const MAX_SYNC_PATH = 1024

/**
 * Refuses, before the request, a path adbd's sync service would refuse as `path too long` (ending the session), or
 * that cannot reach it byte for byte. A write's path is its temporary sibling's, a few bytes longer than the file's.
 */
function syncPath(target: string, what: string): string {
  const problem = deviceStringProblem(target)
  if (problem !== undefined) throw new InvalidInputError(`the device path ${JSON.stringify(target)} holds ${problem}`)
  const bytes = Buffer.byteLength(target)
  if (bytes > MAX_SYNC_PATH) {
    throw new InvalidInputError(
      `${what} ${target.slice(0, 80)}… on the device: its path is ${bytes} bytes, over the ${MAX_SYNC_PATH} bytes adb's file service takes; nothing was sent`,
      {
        details: {path: target, bytes, limit: MAX_SYNC_PATH},
        actions: ['Use a shorter path: fewer or shorter folder names (a write also needs room for a temporary name).'],
      }
    )
  }
  return target
}

/** lstat over sync STAT: one request, undefined when adbd answers zeros (see confirmMissing for what zeros mean). */
export async function statFile(dev: DeviceShell, target: string): Promise<FileStat | undefined> {
  syncPath(target, 'stat')
  return dev.server.call(`stat ${target}`, dev.serial, async (client) => {
    try {
      return toStat((await client.getDevice(dev.serial).stat(target)) as SyncStats)
    } catch (error) {
      // adbd answers zeros when lstat fails; adbkit turns them into ENOENT.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw error
    }
  })
}

/**
 * Before a path a STAT found nothing at is reported missing: adbd answers zeros whenever lstat fails, for a missing
 * path and for one behind a folder closed to the shell user alike, so the shell is asked (`ls -ld`; toybox says
 * `ls: PATH: Permission denied` or `No such file or directory`). A refused path is DEVICE_ACCESS_DENIED; otherwise
 * this returns and the caller reports it missing.
 */
export async function confirmMissing(dev: DeviceShell, target: string): Promise<void> {
  const {output} = await dev.run(['ls', '-ld', operand(target)])
  const text = output.toString('utf8')
  if (saysDenied(text)) throw accessDenied(dev, target, 'reach', text)
}

/**
 * The folder's entries over sync LIST. adbd answers a folder it cannot open (`Permission denied` for the shell
 * user: another app's data, a system folder) exactly as an empty one, so an empty answer is checked with `ls -a`,
 * which says why it could not read the folder.
 */
/** arc's own lock folder is not the user's: a listing of /data/local/tmp leaves it out (lockFile below). */
function withoutLocks(target: string, entries: FileEntry[]): FileEntry[] {
  if (path.posix.normalize(`${target}/`) !== `/${path.posix.dirname(LOCK_FOLDER)}/`) return entries
  const name = path.posix.basename(LOCK_FOLDER)
  return entries.filter((e) => e.name !== name)
}

export async function listDir(dev: DeviceShell, target: string): Promise<FileEntry[]> {
  syncPath(target, 'listing')
  const entries = await dev.server.call(`list ${target}`, dev.serial, async (client) => {
    const listed = (await client.getDevice(dev.serial).readdir(target)) as Array<SyncStats & {name: string}>
    return listed.map((e) => ({name: e.name, ...toStat(e)}))
  })
  if (entries.length > 0) return withoutLocks(target, entries)
  const {output, exitCode} = await dev.run(['ls', '-a', operand(target)])
  if (exitCode !== 0) {
    const text = output.toString('utf8')
    if (saysDenied(text)) throw accessDenied(dev, target, 'list', text)
    const error = dev.failed(`listing ${target}`, text, exitCode)
    throw new DeviceCommandError(error.message, {details: {...error.details, path: target}})
  }
  return entries
}

interface Transfer {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  on(event: 'end', listener: () => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
}

/** A pull that can be stopped part way (adbkit's PullTransfer: its `cancel` ends the sync session). */
interface PullStream extends Transfer {
  cancel(): unknown
}

/**
 * A pull's bytes. adbkit ends a failed pull (`open failed: …`) with `end` first and `error` after (adb.md §1.6):
 * an empty result waits a moment for that error before it counts as an empty file. Past `maxBytes` the pull is
 * stopped and what came so far (more than `maxBytes`) is the answer.
 */
function collect(transfer: PullStream, maxBytes = Infinity, onBytes?: (bytes: number) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let failed = false
    let size = 0
    let stopped = false
    transfer.on('data', (chunk) => {
      if (stopped) return
      chunks.push(chunk)
      size += chunk.length
      onBytes?.(size)
      if (size > maxBytes) {
        stopped = true
        resolve(Buffer.concat(chunks))
        transfer.cancel()
      }
    })
    transfer.on('error', (error) => {
      failed = true
      if (!stopped) reject(error)
    })
    transfer.on('end', () => {
      const data = Buffer.concat(chunks)
      if (data.length > 0) resolve(data)
      else setTimeout(() => failed || resolve(data), 150)
    })
  })
}

/** The time limit of a call moving `bytes` of a file: the server's own, plus the bytes at the slowest rate allowed. */
export function transferLimitMs(dev: DeviceShell, bytes: number): number {
  return dev.server.timeoutMs + transferAllowanceMs(bytes)
}

/**
 * A file's bytes over sync RECV; adbd's `open failed: Permission denied` (a file closed to the shell user) is
 * DEVICE_ACCESS_DENIED. `expectedBytes` (the size a stat gave) lengthens the call's time limit for a large file;
 * `onBytes` hears the bytes received so far as they come.
 */
export async function readFile(
  dev: DeviceShell,
  target: string,
  maxBytes?: number,
  onBytes?: (bytes: number) => void,
  expectedBytes = 0
): Promise<Buffer> {
  syncPath(target, 'reading')
  const limit = transferLimitMs(dev, Math.min(expectedBytes, maxBytes ?? Infinity))
  return dev.server.call(
    `pull ${target}`,
    dev.serial,
    async (client) => {
      try {
        return await collect(await client.getDevice(dev.serial).pull(target), maxBytes, onBytes)
      } catch (error) {
        if ((error as Error).name === 'FailError' && saysDenied((error as Error).message))
          throw accessDenied(dev, target, 'read', (error as Error).message)
        throw error
      }
    },
    limit,
    true
  )
}

function pushDone(transfer: Transfer): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false
    transfer.on('error', (error) => {
      failed = true
      reject(error)
    })
    transfer.on('end', () => failed || resolve())
  })
}

async function push(
  dev: DeviceShell,
  data: Buffer,
  target: string,
  onBytes?: (bytes: number) => void,
  mode = 0o644
): Promise<void> {
  syncPath(target, 'writing (through its temporary sibling)')
  await dev.server.call(
    `push ${target}`,
    dev.serial,
    async (client) => {
      try {
        // A byte stream, not objectMode: adbkit must cut it into ≤ 64 KiB DATA chunks (adb.md §1.6).
        const transfer = await client.getDevice(dev.serial).push(Readable.from(data, {objectMode: false}), target, mode)
        if (onBytes) transfer.on('progress', (stats: {bytesTransferred: number}) => onBytes(stats.bytesTransferred))
        await pushDone(transfer)
      } catch (error) {
        // adbd: `couldn't create file: Permission denied` (a folder the shell user may not write in).
        if ((error as Error).name === 'FailError' && saysDenied((error as Error).message))
          throw accessDenied(dev, path.posix.dirname(target), 'write', (error as Error).message)
        throw error
      }
    },
    transferLimitMs(dev, data.length),
    true
  )
}

/**
 * `realpath` (toybox, Android 6+), else `readlink -f`; undefined when the path cannot be resolved, and
 * DEVICE_ACCESS_DENIED when the device says a folder on its way is closed to the shell user.
 *
 * The path is read from the output exactly: a name may end in a carriage return or hold a line break, and reading
 * `/x/cr\r` as `/x/cr` would send a write or a delete to another file. So an empty `echo` follows the path, and the
 * end of the output says how the device wrote its lines: `\n\n` from a raw stream (Android 7+), where the path is
 * every byte before them; `\r\n\r\n` from the terminal adbd gives `shell:` before Android 7, which writes every
 * line break as `\r\n` (a bare `\r` stays), so there only a path without a line break can be told apart.
 */
export async function realPath(dev: DeviceShell, target: string): Promise<string | undefined> {
  let result = await dev.run(['realpath', '--', target, raw('&& echo')])
  if (result.exitCode === 127) {
    result = await dev.run(['readlink', '-f', '--', target, raw('&& echo')])
  }
  if (result.exitCode !== 0) {
    const text = result.output.toString('utf8')
    if (saysDenied(text)) throw accessDenied(dev, target, 'reach', text)
    return undefined
  }
  return printedPath(result.output.toString('utf8'))
}

/** The one path `realpath PATH && echo` printed (see realPath); undefined for any other output. */
export function printedPath(output: string): string | undefined {
  let line: string
  if (output.endsWith('\r\n\r\n')) {
    line = output.slice(0, -4)
    if (line.includes('\n')) return undefined
  } else if (output.endsWith('\n\n')) {
    line = output.slice(0, -2)
  } else return undefined
  return line.startsWith('/') ? line : undefined
}

/**
 * Available bytes from `df -k PATH` (toybox's POSIX columns: filesystem, 1K-blocks, used, available…). Toolbox's df
 * (up to Android 6.0) has no `-k` (it says `-k: No such file or directory` and exits 1) and prints its sizes rounded
 * to a tenth of K, M or G: no exact count there, so undefined.
 */
export async function freeBytes(dev: DeviceShell, target: string): Promise<number | undefined> {
  const {output, exitCode} = await dev.run(['df', '-k', operand(target)])
  if (exitCode !== 0) return undefined
  const last = output.toString('utf8').trim().split(/\r?\n/).at(-1)?.trim().split(/\s+/)
  const available = Number(last?.[3])
  return last && last.length >= 4 && Number.isFinite(available) ? available * 1024 : undefined
}

/** `mkdir -p`; toybox's `mkdir: 'PATH': Permission denied` (a folder on the way closed to the shell user) is DEVICE_ACCESS_DENIED. */
export async function makeDirs(dev: DeviceShell, target: string): Promise<void> {
  try {
    await dev.action(['mkdir', '-p', operand(target)], `mkdir -p ${target}`)
  } catch (error) {
    const output = error instanceof DeviceCommandError ? String(error.details.output ?? '') : ''
    if (saysDenied(output)) throw accessDenied(dev, target, 'create', output)
    throw error
  }
}

/** The temporary sibling a write goes to before it is renamed over the target. */
export function tempNameFor(target: string): string {
  return path.posix.join(
    path.posix.dirname(target),
    `.${sideStem(path.posix.basename(target))}.arc-${randomBytes(4).toString('hex')}.tmp`
  )
}

/**
 * Whether `name` is one of the temporary siblings tempNameFor makes for `base`; with `folded`, under any spelling
 * of `base` that the folder's file system takes for the same name (shared storage: see fileLockKey).
 */
function isTempOf(name: string, base: string, folded = false): boolean {
  const m = /^(.*)\.arc-[0-9a-f]{8}\.tmp$/s.exec(name)
  if (!m) return false
  const stem = `.${sideStem(base)}`
  return folded ? foldName(m[1] as string) === foldName(stem) : m[1] === stem
}

/**
 * Shared storage as the shell reaches it (real paths and the links to them): the folders a phone looks names up in
 * without regard to case. Android 11+ keeps it on /data/media with the file system's case folding (ext4/f2fs
 * casefold: names compared NFD-normalized and case-folded; source.android.com, "SDCardFS deprecation"), 8-10 behind
 * sdcardfs and before that behind the FUSE sdcard daemon (system/core sdcard/sdcard.c, find_file_within: strcasecmp
 * over the folder's entries), with /storage/emulated/N, /mnt/shell/emulated (4.2-5.x) or /mnt/sdcard as its
 * paths; portable volumes (/storage/XXXX-XXXX, /mnt/media_rw) are vfat or exfat, which ignore case too.
 */
const CASE_FOLDING =
  /^\/(?:sdcard|storage|data\/media|mnt\/(?:sdcard|shell\/emulated|user|runtime|pass_through|media_rw))(?:\/|$)/

/** Whether the device compares names in the folder of `target` without regard to case (shared storage). */
function foldsCase(target: string): boolean {
  return CASE_FOLDING.test(target)
}

/**
 * A name with every difference a case-folding file system ignores taken out: NFD, then full case folding, which
 * upper-casing before lower-casing stands for (ß and SS, ﬁ and FI meet). It may fold a little more than the device
 * (dotless ı meets i): the key only ever makes edits of two names wait for each other, never one edit skip a lock.
 */
function foldName(name: string): string {
  return name.normalize('NFD').toUpperCase().toLowerCase().normalize('NFD')
}

/**
 * What names the lock of an edit of `target` (a real path): the path itself where the device tells case apart
 * (/data/local/tmp is ext4 or f2fs without casefold), and the path case-folded under shared storage, where
 * /sdcard/Notes.txt and /sdcard/NOTES.txt are one file and two writers under the two names must wait for each other.
 */
export function fileLockKey(target: string): string {
  return foldsCase(target) ? foldName(target) : target
}

/**
 * The lock files' folder, relative to the folder adb's shell starts in (`/`: adbd runs the shell there). Relative,
 * so that the shell's own redirection opens it the same way on a phone and in `arc emulate`, whose sh runs in the
 * virtual device's root. /data/local/tmp is the shell user's own scratch folder on every Android version.
 */
const LOCK_FOLDER = 'data/local/tmp/.arc-locks'
const LOCKED = 'ARC_FILE_LOCKED'
/** How many device time limits an edit may wait for the file's lock: a queue of edits, each within one. */
const LOCK_WAIT = 3
/** The script's status when the lock file cannot be opened. */
const NO_LOCK_FILE = 125

/**
 * Locks `target` against every other arc on any host for as long as the returned release is not called: a shell
 * opens a lock file named after the path (`exec 9>>FILE`), takes flock(2) on it with toybox's `flock 9`
 * (toys/other/flock.c, in AOSP's toybox symlinks), prints a marker and waits on its stdin. Closing the connection
 * ends that shell, and the kernel drops the lock with its last descriptor, so a killed arc never leaves a lock
 * behind. A writer waits for the lock up to three adb time limits (then TIMEOUT, naming the file).
 *
 * A device without `flock` (status 127: Android before 6.0 ran toolbox, which has none, and toybox's flock.c dates
 * from 2015; a vendor build may leave the link out) is locked in the same shell with a folder instead (see
 * FOLDER_LOCK): mkdir(2) creates a folder for one caller only, on any Android.
 *
 * Once held, temporary siblings of the target left by writes that were killed before their rename (no arc writes
 * this file now) are removed.
 *
 * Undefined only where no lock file or folder can be made (the lock folder cannot be created): the edit then goes
 * on with the stat check before the write alone.
 */
export async function lockFile(dev: DeviceShell, target: string): Promise<(() => void) | undefined> {
  const key = createHash('sha256').update(fileLockKey(target)).digest('hex').slice(0, 32)
  const file = `${LOCK_FOLDER}/${key}`
  const script = [
    `mkdir -p ${LOCK_FOLDER} 2>/dev/null`,
    `if (: >>${file}) 2>/dev/null; then exec 9>>${file}; flock 9; arc_status=$?; else exit ${NO_LOCK_FILE}; fi`,
    `if [ $arc_status = 0 ]; then echo ${LOCKED}; read -r arc_lock; exit 0; fi`,
    `if [ $arc_status != 127 ]; then exit $arc_status; fi`,
    folderLock(`${file}.d`),
  ].join('; ')
  // Edits queue: one waits for those before it, each bounded by the time limit, for up to LOCK_WAIT limits.
  const waitMs = dev.server.timeoutMs * LOCK_WAIT
  const hold = await dev.server.hold(
    dev.serial,
    script,
    LOCKED,
    () =>
      new TimeoutError(`waiting to edit ${target} on ${dev.serial}: other edits of it have held it for ${waitMs} ms`, {
        details: {serial: dev.serial, path: target, timeout_ms: waitMs},
        actions: [
          'Run the command again once the other edits ended; raise `adb.timeoutMs` in the config for long edits.',
        ],
      }),
    waitMs
  )
  if (!hold.held) {
    if (hold.exitCode === NO_LOCK_FILE) return undefined
    throw dev.failed(`locking ${target}`, hold.output, hold.exitCode)
  }
  await removeStaleTemps(dev, target).catch(() => {})
  return hold.release
}

/**
 * The lock where the device has no `flock`: the folder `dir`, which mkdir(2) creates for one caller only, holding
 * one entry named after its holder's shell pid. Every state a killed shell can leave is one the next edit clears,
 * with no second lock that could itself be left behind:
 *
 * - Taking it: mkdir, then write the entry `dir/$$`, then list the folder (the shell's own glob): the holder is in
 *   only when its entry is the only one. Else (another caller wrote into the same folder) it removes its entry and
 *   tries again. Entries are removed only by their owner or, once their pid has no /proc entry, by anyone, and a
 *   folder holding an entry cannot be removed (rmdir(2) refuses a folder that is not empty), so of two callers whose
 *   entries were both written the one that listed second sees the other's: two holders at once are impossible.
 * - A folder with no entries (its maker killed between mkdir and the write, or a breaker killed before its rmdir)
 *   is removed by any waiter with rmdir(2), which refuses as soon as an entry is written: a caller that made the
 *   folder and had not yet written finds its write failing, or its entry beside another one, and tries again.
 * - An entry whose pid has no /proc entry (its holder killed outright; a hang-up runs the trap, which removes it) is
 *   unlinked by any waiter: unlinking a name either happens once or finds it gone, so two waiters doing it at once
 *   never remove anything else. A name that is not a pid is no live holder's and goes too.
 *
 * The holder waits on its stdin as the flock holder does, and when the connection ends (stdin closed, or a hang-up:
 * the trap) removes its entry and the folder. Waiters try again every second (toolbox's `sleep` takes whole
 * seconds). Only shell builtins (the glob included), `mkdir`, `rm`, `rmdir` and `sleep` run: toolbox has them all.
 */
function folderLock(dir: string): string {
  const mine = '"$arc_d/$$"'
  const release = `rm -f ${mine}; rmdir "$arc_d" 2>/dev/null`
  return [
    `arc_d=${shq(dir)}; while :; do`,
    `if mkdir "$arc_d" 2>/dev/null; then if echo "$$" 2>/dev/null >${mine}; then set -- "$arc_d"/*;`,
    `if [ "$#" = 1 ] && [ "$1" = ${mine} ]; then trap '${release}; exit 0' HUP TERM INT;`,
    `echo ${LOCKED}; read -r arc_lock; ${release}; exit 0; fi; rm -f ${mine}; fi; fi;`,
    `for arc_e in "$arc_d"/*; do arc_p="\${arc_e##*/}"; case "$arc_p" in`,
    `*[!0-9]*) rm -rf "$arc_e" ;; *) if [ ! -d "/proc/$arc_p" ]; then rm -f "$arc_e"; fi ;; esac; done;`,
    `set -- "$arc_d"/*; if [ -d "$arc_d" ] && [ ! -e "$1" ]; then rmdir "$arc_d" 2>/dev/null; fi;`,
    `if [ -d "$arc_d" ]; then sleep 1; fi; done`,
  ].join(' ')
}

/** Removes temporary siblings of `target` that killed writes left (only ever called with the file locked). */
async function removeStaleTemps(dev: DeviceShell, target: string): Promise<void> {
  const folder = path.posix.dirname(target)
  const base = path.posix.basename(target)
  const names = await dev.server.call(`list ${folder}`, dev.serial, async (client) =>
    ((await client.getDevice(dev.serial).readdir(folder)) as Array<{name: string}>).map((e) => e.name)
  )
  const folded = foldsCase(target)
  const stale = names.filter((name) => isTempOf(name, base, folded)).map((name) => path.posix.join(folder, name))
  if (stale.length > 0) await dev.run(['rm', '-f', '--', ...stale])
}

/**
 * The rename of a write's temporary file over its target; with `mode`, a `chmod` of the temporary file before it.
 * adbd gives a pushed file the mode sent with the owner's bits copied to group and others (daemon/file_sync_service.cpp,
 * send_impl: 0755 becomes 0777, 0600 becomes 0666), so a replaced file would lose its own bits (a script its
 * execute bit, a private file its privacy) without the chmod. Its failure is let pass (shared storage on FUSE or
 * sdcardfs fixes every file's mode and may refuse a chmod): the rename decides the write. Toolbox's chmod (before
 * Android 6) reads its first argument as the mode and takes no `--`; the temporary path starts with `/`.
 */
function renameWords(temp: string, target: string, mode?: number): Array<string | Raw> {
  const mv = ['mv', '-f', '--', temp, target]
  if (mode === undefined) return mv
  return ['chmod', (mode & 0o777).toString(8).padStart(3, '0'), temp, raw('2>/dev/null;'), ...mv]
}

/**
 * Push to a temporary sibling, then `mv -f` it over the target: the old file stays whole until the rename, which
 * rename(2) makes atomic within one file system (the target is either the old file or the new one, never missing
 * or mixed). When the `mv` fails, hangs past the time limit or loses its connection, its answer says nothing sure
 * about the rename (a rename can be done and its answer lost), so the device is asked once more: the temporary file
 * still there means the rename never happened (it is removed and the error stands: the old content is in place);
 * gone means it did, and the write succeeded. When even that cannot be asked, the error says the file holds one of
 * the two whole.
 */
export async function writeFile(
  dev: DeviceShell,
  target: string,
  data: Buffer,
  onBytes?: (bytes: number) => void,
  mode?: number
): Promise<void> {
  const temp = tempNameFor(target)
  // The temporary file goes with a failure, here or (the call cut off: a cancelled write) by the driver's close.
  // Removing it is safe either way: once renamed it is gone, and before, the old content is still in place.
  const cleanup = dev.server.cleanupIfCut(() => dev.run(['rm', '-f', '--', temp]))
  try {
    await push(dev, data, temp, onBytes, mode)
  } catch (error) {
    await cleanup.run()
    throw error
  }
  try {
    await dev.action(renameWords(temp, target, mode), `mv over ${target}`)
    cleanup.drop()
  } catch (error) {
    let left: FileStat | undefined
    try {
      left = await statFile(dev, temp)
    } catch {
      cleanup.drop()
      // Cut off by the driver's close (a cancelled call): the close removes the temporary file; say it was cancelled.
      if (dev.server.shuttingDown) throw error
      throw new DeviceUnavailableError(
        `writing ${target} on ${dev.serial}: the rename of the new content over it was sent but not answered (${(error as Error).message}), and the device cannot be asked whether it happened`,
        {
          details: {serial: dev.serial, path: target, temp},
          actions: [
            'The file holds its old content or the new one, whole (a rename is atomic): read it once the device is back.',
            'The next write to the file removes the temporary file if it is still there.',
          ],
        }
      )
    }
    if (left === undefined) {
      cleanup.drop()
      return
    }
    await cleanup.run()
    throw error
  }
}

export async function deleteFile(dev: DeviceShell, target: string): Promise<void> {
  await dev.action(['rm', '--', target], `rm ${target}`)
}
