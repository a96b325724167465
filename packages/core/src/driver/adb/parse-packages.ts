/** `pm list packages [--show-versioncode]` and `cmd package resolve-activity --brief` output. */

export interface ListedPackage {
  packageId: string
  versionCode?: number
}

/** Lines `package:com.foo` or `package:com.foo versionCode:12`; anything else (warnings, blank lines) is skipped. */
export function parsePackageList(output: string): ListedPackage[] {
  const packages: ListedPackage[] = []
  for (const line of output.split(/\r?\n/)) {
    const m = /^package:(?:\S+=)?([A-Za-z][\w.]*)(?:\s+versionCode:(\d+))?\s*$/.exec(line.trim())
    if (!m) continue
    const pkg: ListedPackage = {packageId: m[1] as string}
    if (m[2] !== undefined) pkg.versionCode = Number(m[2])
    packages.push(pkg)
  }
  return packages
}

/** True when `pm` rejected an option this Android release does not know (`--show-versioncode` before 9). */
export function isUnknownOption(output: string): boolean {
  return /Unknown option|Error: unknown|IllegalArgumentException/i.test(output)
}

/** A line that is one activity component, `pkg/.Activity` or `pkg/pkg.Activity`, as `--brief` prints it. */
const COMPONENT_LINE = /^[A-Za-z][\w.]*\/[\w.$]+$/

/**
 * The launchable activity from `cmd package resolve-activity --brief PKG`: its last line looks like
 * `com.foo/.MainActivity`; `No activity found` otherwise.
 */
export function parseResolvedActivity(output: string): string | undefined {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string
    if (COMPONENT_LINE.test(line)) return line
  }
  return undefined
}

/**
 * The package's first launcher activity from `cmd package query-activities --brief -a …MAIN -c …LAUNCHER PKG`
 * (`N activities found:`, then per match `  Activity #i:`, its `priority=…` line and `pkg/.Activity`), in the
 * order the package manager lists them (priority, then manifest order); undefined when none is the package's.
 */
export function firstQueriedActivity(output: string, packageId: string): string | undefined {
  for (const line of output.split(/\r?\n/)) {
    const component = line.trim()
    if (COMPONENT_LINE.test(component) && component.startsWith(`${packageId}/`)) return component
  }
  return undefined
}

/** `pm path PKG` prints `package:/data/app/…/base.apk` lines for an installed package, nothing otherwise. */
export function isInstalledOutput(output: string): boolean {
  return /^package:\S+/m.test(output)
}
