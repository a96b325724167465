/**
 * Whether a dependency is one of the plugins `oclif.plugins` names, as oclif's plugin loader asks minimatch
 * (`findMatchingDependencies` in @oclif/core lib/config/plugin-loader.js: every dependency against every entry, at
 * every start-up). minimatch compiles each pattern into a regular expression first, some 5 ms of CPU for arc's nine
 * dependencies and four plugins, all of them plain package names. The core's bundle asks this instead
 * (scripts/bundle-core.js puts it in oclif's place).
 *
 * A package name of lower-case letters, digits and `-._~`, not starting with `.` or `_`, optionally under one
 * `@scope/`, holds nothing minimatch reads as a pattern: no `*?[]{}()!+#\`, no empty, `.` or `..` path part, no
 * case folding (minimatch's `nocase` is off). Such a pattern matches such a name part by part, that is only when
 * the two strings are equal. Anything else (a glob, an upper-case name) goes to minimatch itself, loaded on first
 * use. packages/core/test/cli/plugin-patterns.test.ts checks the two agree.
 */
const PLAIN_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/

/** minimatch(name, pattern)'s answer; `minimatch` is called only for a pattern or a name that is not plain. */
export function matchesPluginPattern(
  name: string,
  pattern: string,
  minimatch: () => (name: string, pattern: string) => boolean
): boolean {
  if (PLAIN_NAME.test(pattern) && PLAIN_NAME.test(name)) return name === pattern
  return minimatch()(name, pattern)
}
