/**
 * Where a command may read and write files on the machine arc runs on, when something narrower than "anywhere the
 * user may" is in force. `arc test` runs flow files, which may come from a repository its user did not write: while a
 * step runs, the files it names on this machine (`-o`, `--map`, `--screenshot`, a baseline, a snapshot folder, the
 * source of `files push`) must lie within the folder arc test runs in or the flow file's folder. Without that, a flow
 * could `files pull` a file it wrote on the device to `~/.bashrc`, or `files push` `~/.ssh/id_rsa` to the device.
 *
 * The folders are kept on globalThis: the annotate plugin may load its own copy of core, and must see the same ones.
 */
import {realpath} from 'node:fs/promises'
import path from 'node:path'

import {PermissionDeniedError} from './errors/arc-error.js'

const KEY = Symbol.for('arc.host-path-folders')

interface Confinement {
  /** The folders, each made absolute with its links resolved. */
  folders: string[]
  /** Who narrowed them, for the error (`arc test`). */
  by: string
}

type Holder = {[KEY]?: Confinement}

/** Narrows the files commands may use on this machine to these folders (and what is below them); undefined lifts it. */
export async function confineHostPaths(folders: string[] | undefined, by = 'arc test'): Promise<void> {
  const holder = globalThis as Holder
  if (folders === undefined) {
    delete holder[KEY]
    return
  }
  holder[KEY] = {folders: [...new Set(await Promise.all(folders.map(realPath)))], by}
}

/** The folders in force, or undefined when commands may use any path (the default). */
export function hostPathFolders(): string[] | undefined {
  return (globalThis as Holder)[KEY]?.folders
}

/**
 * The path with every link resolved: the longest part of it that exists, by realpath, then the rest as written.
 * So a link inside an allowed folder that leads out of it counts as where it leads.
 */
async function realPath(file: string): Promise<string> {
  const absolute = path.resolve(file)
  const rest: string[] = []
  let at = absolute
  for (;;) {
    try {
      return path.join(await realpath(at), ...rest)
    } catch {
      const parent = path.dirname(at)
      if (parent === at) return absolute
      rest.unshift(path.basename(at))
      at = parent
    }
  }
}

const inside = (file: string, folder: string) =>
  file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`)

/**
 * Refuses (PERMISSION_DENIED, naming the input) a file on this machine outside the folders in force; does nothing
 * when none are. `input` is the flag or argument that named it (`--output`, `source`).
 */
export async function checkHostPath(file: string, input: string): Promise<void> {
  const confinement = (globalThis as Holder)[KEY]
  if (confinement === undefined) return
  const real = await realPath(file)
  // /dev/null keeps nothing and gives nothing: a step that throws its output away (`-o /dev/null`) reaches no file.
  if (real === '/dev/null') return
  if (confinement.folders.some((folder) => inside(real, folder))) return
  const shown = real === path.resolve(file) ? real : `${path.resolve(file)}, which leads to ${real}`
  throw new PermissionDeniedError(
    `${input}: ${shown} is outside the folders a step of ${confinement.by} may use on this machine: ${confinement.folders.join(' and ')}`,
    {
      details: {input, path: path.resolve(file), allowed: confinement.folders},
      actions: [
        "Name a file within the folder arc test runs in or the flow file's folder (a relative path, such as shots/list.png).",
      ],
    }
  )
}
