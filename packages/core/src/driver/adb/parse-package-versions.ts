/**
 * Version names (and codes) of installed packages from `dumpsys package packages`, read the same way on Android
 * 7 to 15: PackageManager's Settings prints a `Packages:` section with one block per installed package,
 *
 *     Packages:
 *       Package [com.example.app] (5307a52):
 *         compat name=com.example.old        (only for a package renamed in its manifest)
 *         versionCode=42 minSdk=24 targetSdk=34
 *         versionName=1.2.3
 *
 * then `Renamed packages:` and `Hidden system packages:`, where an updated system app appears a second time with
 * its factory copy's version: that one is not what is installed, so only the `Packages:` section counts. Any
 * other line is ignored, so the device may filter the output down to these lines first.
 */

export interface PackageVersion {
  /** Null where the manifest declares none (dumpsys prints `versionName=null`) or no line was read. */
  versionName: string | null
  versionCode?: number
}

/** The line that starts a package's block; the name is what `pm list packages` prints unless `compat name=` follows. */
export const PACKAGE_BLOCK = /^\s*Package \[([^\]\s]+)\] \([^)]*\):?\s*$/
/** A section title: a line without indentation ending in a colon (`Packages:`, `Hidden system packages:`). */
const SECTION = /^\S.*:\s*$/

/**
 * The grep (extended) pattern that keeps only what {@link parsePackageVersions} reads: section titles, block
 * headers and the three fields. It cuts the output of a phone with hundreds of packages to a few lines each.
 */
export const PACKAGE_VERSION_LINES = '^[^ ]|^ *(Package \\[|versionName=|versionCode=|compat name=)'

/** Versions by package id, for the packages of the `Packages:` section only. */
export function parsePackageVersions(output: string): Map<string, PackageVersion> {
  const versions = new Map<string, PackageVersion>()
  let installed = false
  let current: PackageVersion | undefined
  for (const raw of output.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (SECTION.test(line)) {
      installed = line.trim() === 'Packages:'
      current = undefined
      continue
    }
    if (!installed) continue
    const header = PACKAGE_BLOCK.exec(line)
    if (header) {
      current = versions.has(header[1] as string) ? undefined : {versionName: null}
      if (current) versions.set(header[1] as string, current)
      continue
    }
    if (!current) continue
    const field = /^\s+(versionName|versionCode|compat name)=(.*)$/.exec(line)
    if (!field) continue
    const value = field[2] as string
    if (field[1] === 'versionName') current.versionName = value === 'null' ? null : value
    else if (field[1] === 'compat name') {
      if (/^[A-Za-z][\w.]*$/.test(value) && !versions.has(value)) versions.set(value, current)
    } else {
      const code = /^(\d+)(?:\s|$)/.exec(value)
      if (code && Number.isSafeInteger(Number(code[1]))) current.versionCode = Number(code[1])
    }
  }
  return versions
}
