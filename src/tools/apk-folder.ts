/**
 * The host folder install_app may take APKs from (`apps.apkFolder`; `arc mcp serve --apk-folder`). With one set, an
 * APK is a path inside it, relative to it or absolute within it, and whatever lies outside is refused before the
 * disk is looked at: an error never tells whether a file outside the folder exists. A link inside the folder that
 * leads out of it is refused with the same words as a missing file.
 */
import {realpath, stat} from 'node:fs/promises'
import path from 'node:path'

import {InvalidInputError, type ArcConfig} from '@arc-cli/core'

/** The folder in force, absolute (a relative one is read from the config file's folder, else the working folder). */
export function apkFolderOf(config: ArcConfig, configFile: string | undefined, cwd: string): string | undefined {
  const folder = config.apps?.apkFolder
  if (folder === undefined) return undefined
  return path.resolve(configFile ? path.dirname(configFile) : cwd, folder)
}

function inside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate)
  return relative === '' ? false : !relative.startsWith('..') && !path.isAbsolute(relative)
}

/** The real path of the APK `apk` names inside `folder`, or an error that says nothing about other paths. */
export async function apkInFolder(folder: string, apk: string): Promise<string> {
  const where = `the APK folder ${folder} (apps.apkFolder, or arc mcp serve --apk-folder)`
  if (apk.includes('\0') || !inside(folder, path.resolve(folder, apk))) {
    throw new InvalidInputError(`apk must name a file inside ${where}`, {
      details: {input: 'apk', folder},
      actions: [`Copy the APK into ${folder} and pass its name relative to that folder.`],
    })
  }
  const missing = () =>
    new InvalidInputError(`apk: no APK ${JSON.stringify(apk)} in ${where}`, {
      details: {input: 'apk', folder},
      actions: [`Copy the APK into ${folder}; list_files does not see host folders, so ask whoever runs arc.`],
    })
  let real: string
  let realFolder: string
  try {
    realFolder = await realpath(folder)
    real = await realpath(path.resolve(folder, apk))
  } catch {
    throw missing()
  }
  // A link inside the folder that leads out of it is answered as a missing file: what lies outside stays unsaid.
  if (!inside(realFolder, real) || !(await stat(real)).isFile()) throw missing()
  return real
}
