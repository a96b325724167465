/**
 * Storage locations and the paths inside them. A path is relative to its location; it may not be absolute,
 * contain `..` or NUL, or lead out of the location through a symlink. The last check runs on the device's real
 * paths (`realpath` on the device), not only on the string, so a link planted on the device cannot carry a
 * read or a write out of the folder the config allows.
 */
import {
  deviceStringProblem,
  filesSettings,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  type ArcConfig,
  type DeviceDriver,
  type FileStat,
  type FilesSettings,
  type StorageLocation,
  z,
} from '@arc-cli/core'

export const locationIdField = z.string().min(1).describe('Storage location ID from list_storage_locations')

export const filePathField = z.string().min(1).describe('Relative path to the file within the storage location')

export function settingsOf(config: ArcConfig): FilesSettings {
  return filesSettings(config.files)
}

export function findLocation(settings: FilesSettings, id: string): StorageLocation {
  const location = settings.locations.find((l) => l.id === id)
  if (!location) {
    throw new NotFoundError(`storage location not found: ${JSON.stringify(id)}`, {
      details: {location_id: id, known: settings.locations.map((l) => l.id)},
      actions: [
        `Use one of: ${settings.locations.map((l) => l.id).join(', ') || '(none configured)'} (see list_storage_locations, files.locations in the config).`,
      ],
    })
  }
  return location
}

export function requireWrite(location: StorageLocation): void {
  if (!location.allowWrite) {
    throw new PermissionDeniedError(`write not allowed in storage location ${location.id} (${location.path})`, {
      details: {location_id: location.id},
      actions: [
        `Set allowWrite: true for ${location.id} under files.locations in the config, or use a location that allows writing.`,
      ],
    })
  }
}

export function requireDelete(location: StorageLocation): void {
  if (!location.allowDelete) {
    throw new PermissionDeniedError(`delete not allowed in storage location ${location.id} (${location.path})`, {
      details: {location_id: location.id},
      actions: [`Set allowDelete: true for ${location.id} under files.locations in the config.`],
    })
  }
}

/** The segments of a relative path, or an error naming what makes it unsafe. `''` and `.` name the root. */
export function pathSegments(relative: string): string[] {
  if (relative.includes('\uFFFD')) {
    throw new InvalidInputError(
      `path ${JSON.stringify(relative)} holds U+FFFD, the character that stands for bytes that are not UTF-8 (a name listed that way, or passed by a terminal in another encoding): arc cannot tell which file on the device it means`,
      {
        details: {path: relative},
        actions: [
          "Give the file a UTF-8 name on the device, e.g. with a shell glob: arc shell -- sh -c 'mv /sdcard/Download/caf*.txt /sdcard/Download/cafe.txt'",
        ],
      }
    )
  }
  const problem = deviceStringProblem(relative)
  if (problem !== undefined) {
    throw new InvalidInputError(
      `path ${JSON.stringify(relative)} cannot contain ${problem}: the device would get another name`,
      {details: {path: relative}}
    )
  }
  if (relative.startsWith('/')) {
    throw new PermissionDeniedError(
      `path ${JSON.stringify(relative)} is absolute: paths are relative to the storage location`,
      {
        details: {path: relative},
        actions: ['Drop the leading `/`; list_storage_locations shows where each location is.'],
      }
    )
  }
  const segments = relative.split('/').filter((s) => s !== '' && s !== '.')
  if (segments.includes('..')) {
    throw new PermissionDeniedError(
      `path ${JSON.stringify(relative)} uses \`..\`: a path cannot leave its storage location`,
      {
        details: {path: relative},
      }
    )
  }
  return segments
}

export interface ResolvedPath {
  location: StorageLocation
  /** The path as the user means it, normalized: segments joined by `/` (`''` for the root). */
  relative: string
  /** The device path to operate on: the real path of its folder plus its own name (a link itself is not followed). */
  devicePath: string
  /** The real path of the folder holding it, or of its deepest existing ancestor when folders are missing. */
  existingFolder: string
  /** Folders still to create under existingFolder before the file can be written (empty when its folder exists). */
  missingFolders: string[]
  /**
   * lstat of devicePath; undefined when the STAT found nothing (missing, or behind a folder closed to the device's
   * shell user: ask driver.statFile(path, {sure: true}) before reporting it missing).
   */
  stat?: FileStat
  /** When devicePath is a symlink (inside the location): its real path and what is there. */
  target?: {path: string; stat?: FileStat}
}

const inside = (real: string, root: string) => root === '/' || real === root || real.startsWith(`${root}/`)

function escapes(location: StorageLocation, relative: string, how: string): PermissionDeniedError {
  return new PermissionDeniedError(
    `path ${JSON.stringify(relative)} leads outside storage location ${location.id} (${location.path}) ${how}`,
    {
      details: {location_id: location.id, path: relative},
    }
  )
}

/**
 * arc's own files in the shell user's scratch folder, which the default `tmp` location is: the on-device helper's
 * dex (core's device-helper.ts, helperDevicePath: `arc-helper-HASH.dex`, and its `.tmp` while it is pushed), which
 * arc runs with app_process as the shell user and reuses where its size matches, an APK pushed for an install
 * (app-manage.ts, `arc-install-….apk`), and the file tools' locks (`.arc-locks`, adb/files.ts). A file tool served to
 * an agent without `shell` (`--tools group:files`) could otherwise put code of its own in the helper's place, or
 * remove another caller's lock.
 */
const ARC_OWN = /^\/data\/local\/tmp\/(?:\.arc-locks(?:\/|$)|arc-helper-|arc-install-)/

function refuseArcOwn(location: StorageLocation, relative: string, devicePath: string): void {
  if (!ARC_OWN.test(devicePath)) return
  throw new PermissionDeniedError(
    `path ${JSON.stringify(relative)} in storage location ${location.id} is ${devicePath}, one of arc's own files (its on-device helper, an install, a lock): file tools leave them alone`,
    {details: {location_id: location.id, path: relative, device_path: devicePath}}
  )
}

/**
 * Refuses a path that names a folder by its form (`reports/`, `reports/.`) where a tool works on one file. Dropping
 * the slash would put the work on another target than the one named. Nothing else makes a file of such a path:
 * `adb push x.bin /sdcard/reports/` copies x.bin into that folder where it exists and fails where it is a file or
 * missing (adb's file_sync_client.cpp, do_sync_push), the kernel refuses `notes.txt/` as a file (ENOTDIR) and follows
 * `link/` to the folder it leads to; arc made a file named `reports` of a write and removed the link `link`.
 */
function refuseFolderForm(relative: string, segments: string[]): void {
  const last = relative.split('/').at(-1)
  if (segments.length === 0 || (last !== '' && last !== '.')) return
  const named = segments.join('/')
  throw new InvalidInputError(
    `path ${JSON.stringify(relative)} ends with "/", so it names a folder, and this tool works on one file: name the file (${JSON.stringify(named)} if that is the file, ${JSON.stringify(`${named}/NAME`)} for one inside the folder)`,
    {details: {input: 'path', path: relative}}
  )
}

/**
 * Resolves `relative` inside `location` on the device. `create` makes a missing location folder (writes only).
 * Walks up from the file's folder to the deepest folder that exists, takes its real path on the device and
 * checks it is inside the location's real path; a component that exists but does not resolve (a dangling link,
 * a loop) is refused rather than guessed at. `names`: what the tool works on; a path of a folder's form
 * (ending in `/`) is refused for a file before anything is sent (refuseFolderForm).
 */
export async function resolvePath(
  driver: DeviceDriver,
  location: StorageLocation,
  relative: string,
  create = false,
  names: 'file' | 'folder' = 'file'
): Promise<ResolvedPath> {
  const segments = pathSegments(relative)
  if (names === 'file') refuseFolderForm(relative, segments)
  const rootPath = location.path.replace(/\/+$/, '') || '/'
  let root = await driver.realPath(rootPath)
  if (root === undefined && create) {
    await driver.makeDirs(rootPath)
    root = await driver.realPath(rootPath)
  }
  if (root === undefined) {
    throw new NotFoundError(
      `storage location ${location.id}: its folder ${location.path} does not exist on ${driver.serial}`,
      {
        details: {location_id: location.id, path: location.path},
        actions: [
          'Create the folder on the device, or point the location at an existing folder (files.locations in the config).',
        ],
      }
    )
  }
  const shown = segments.join('/')
  if (segments.length === 0) {
    return {
      location,
      relative: '',
      devicePath: root,
      existingFolder: root,
      missingFolders: [],
      stat: await driver.statFile(root),
    }
  }
  const join = (base: string, parts: string[]) => [base === '/' ? '' : base, ...parts].join('/')
  const folders = segments.slice(0, -1)
  const name = segments.at(-1) as string
  let existing = root
  let missing: string[] = []
  for (let depth = folders.length; depth > 0; depth--) {
    const candidate = join(rootPath, folders.slice(0, depth))
    const real = await driver.realPath(candidate)
    if (real !== undefined) {
      if (!inside(real, root)) throw escapes(location, shown, `through a symlink to ${real}`)
      existing = real
      missing = folders.slice(depth)
      break
    }
    if (await driver.statFile(candidate))
      throw escapes(location, shown, 'through a link that does not resolve (dangling, or a loop)')
    missing = folders.slice(depth - 1)
  }
  const devicePath = join(existing, [...missing, name])
  refuseArcOwn(location, shown, devicePath)
  if (missing.length > 0)
    return {location, relative: shown, devicePath, existingFolder: existing, missingFolders: missing}
  const stat = await driver.statFile(devicePath)
  const resolved: ResolvedPath = {
    location,
    relative: shown,
    devicePath,
    existingFolder: existing,
    missingFolders: [],
    stat,
  }
  if (stat?.kind === 'symlink') {
    const real = await driver.realPath(devicePath)
    if (real === undefined)
      throw escapes(location, shown, 'or nowhere: it is a link that does not resolve (dangling, or a loop)')
    if (!inside(real, root)) throw escapes(location, shown, `through a symlink to ${real}`)
    refuseArcOwn(location, shown, real)
    resolved.target = {path: real, stat: await driver.statFile(real)}
  }
  return resolved
}

/** What a read sees at a resolved path: the link's target when it is a link. */
export function effective(resolved: ResolvedPath): {path: string; stat?: FileStat} {
  return resolved.target ?? {path: resolved.devicePath, stat: resolved.stat}
}

/**
 * The existing regular file at `resolved`, or NOT_FOUND / INVALID_INPUT naming what is there instead
 * (DEVICE_ACCESS_DENIED when the device keeps the path from its shell user).
 */
export async function requireFile(
  driver: DeviceDriver,
  resolved: ResolvedPath
): Promise<{path: string; stat: FileStat}> {
  const {path, stat} = effective(resolved)
  if (!stat) {
    await driver.statFile(path, {sure: true})
    throw new NotFoundError(`file not found: ${resolved.relative} in storage location ${resolved.location.id}`, {
      details: {location_id: resolved.location.id, path: resolved.relative},
      actions: ['List the folder with list_files to see what is there.'],
    })
  }
  if (stat.kind === 'directory') {
    throw new InvalidInputError(`${resolved.relative} is a folder, not a file`, {
      details: {location_id: resolved.location.id, path: resolved.relative},
    })
  }
  if (stat.kind !== 'file') {
    throw new InvalidInputError(`${resolved.relative} is not a regular file`, {
      details: {location_id: resolved.location.id, path: resolved.relative},
    })
  }
  return {path, stat}
}
