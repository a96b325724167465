import {constants, lstatSync, realpathSync, statSync} from 'node:fs'
import {access, readFile, stat} from 'node:fs/promises'
import path from 'node:path'

import type {z} from 'zod'

import {ConfigError} from '../errors/arc-error.js'
import {loadCodeConfig} from './load-code-config.js'
import {printableText} from '../printable.js'
import {describeZodIssues} from '../errors/describe-zod-issues.js'
import {configSchema, type ArcConfig} from './config-schema.js'

export interface LoadedConfig {
  config: ArcConfig
  /** The file it came from, or undefined when none was found. */
  filepath?: string
}

/** Where arc looks, in order (cosmiconfig's places for the module name `arc`). */
export const CONFIG_PLACES = [
  'package.json#arc',
  '.arcrc',
  '.arcrc.json',
  '.arcrc.yaml',
  '.arcrc.yml',
  '.arcrc.js',
  '.arcrc.cjs',
  '.arcrc.mjs',
  '.config/arcrc (and .json, .yaml, .yml, .js, .cjs, .mjs)',
  'arc.config.js',
  'arc.config.cjs',
  'arc.config.mjs',
]

/**
 * Finds and validates the config: from `cwd` up to the nearest package.json (or `ARC_CONFIG` when set, which
 * names one file, read by its extension, else as YAML/JSON). A file that cannot be parsed, or a key that is
 * unknown or of the wrong type, is a ConfigError naming the file and the key.
 */
export async function loadConfig(cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const explicit = env.ARC_CONFIG
  // Nothing for cosmiconfig to find (most runs): neither it nor its search is loaded (some 4 ms of every command).
  if (!explicit && !(await checkPlaces(cwd))) return {config: {}}
  // Loaded here, not at the top: commands that never read the config (`arc --version`, help) do not pay for it.
  // module.exports of this CommonJS package is `default` in core's bundle (which gives a lazily loaded CommonJS
  // module no named exports) and in Node; tsx, running the sources, gives the named exports alone.
  const loaded = await import('cosmiconfig')
  const {cosmiconfig, defaultLoaders} = (loaded.default as typeof loaded | undefined) ?? loaded
  // A file named by ARC_CONFIG may have any name (ci.arcrc.prod, .arcrc.example): an extension cosmiconfig does
  // not know is read the way `.arcrc` is, as YAML (which takes JSON too).
  const extension = explicit ? path.extname(explicit) : ''
  const codeLoaders = {
    '.js': loadCodeConfig,
    '.cjs': loadCodeConfig,
    '.mjs': loadCodeConfig,
    '.ts': refuseTypeScript,
    '.json': loadJsonConfig,
  }
  const chosen: Record<string, (filepath: string, content: string) => unknown> = {
    ...defaultLoaders,
    ...codeLoaders,
    ...(extension && !Object.hasOwn(defaultLoaders, extension) && !Object.hasOwn(codeLoaders, extension)
      ? {[extension]: defaultLoaders.noExt}
      : {}),
  }
  // A file the search found is read (or run) only when no other user could have put it there; one ARC_CONFIG names
  // is the user's own choice.
  const loaders = Object.fromEntries(
    Object.entries(chosen).map(([ext, load]) => [
      ext,
      explicit
        ? load
        : (filepath: string, content: string) => (checkTrusted(filepath, content, env), load(filepath, content)),
    ])
  )
  const explorer = cosmiconfig('arc', {searchStrategy: 'project', loaders})
  let result: {config: unknown; filepath: string; isEmpty?: boolean} | null
  try {
    result = explicit ? await explorer.load(explicit) : await explorer.search(cwd)
  } catch (error) {
    if (error instanceof ConfigError) throw error
    // A YAML or JSON parser quotes the offending line of the file: its control characters are written out.
    const message = printableText(error instanceof Error ? error.message : String(error))
    throw new ConfigError(`cannot read config${explicit ? ` ${explicit}` : ''}: ${message}`, {
      cause: error,
      actions: ['Fix the file (see .arcrc.example for every key), or set ARC_CONFIG to another file.'],
    })
  }
  if (!result || result.isEmpty) return {config: {}}
  const protoKey = findProtoKey(result.config)
  if (protoKey) {
    throw new ConfigError(`invalid config in ${result.filepath}: ${protoKey}: a key named __proto__ is not allowed`, {
      details: {file: result.filepath, key: protoKey},
      actions: ['Rename the key; see .arcrc.example or docs/config.md for every key.'],
    })
  }
  const parsed = configSchema().safeParse(result.config ?? {})
  if (!parsed.success) {
    throw new ConfigError(`invalid config in ${result.filepath}: ${describeZodIssues(parsed.error)}`, {
      details: {file: result.filepath, issues: parsed.error.issues},
      actions: ['See .arcrc.example or docs/config.md for every key and its allowed values.'],
    })
  }
  return {config: parsed.data, filepath: result.filepath}
}

/**
 * Refuses a config file the search found that another user of the machine could have put there or changed: one owned
 * by another user (root aside; under sudo, the user sudo came from too), or one anyone may write. The search goes up
 * from the current folder to the nearest package.json, and without one to `/`: a `/tmp/arc.config.mjs` planted by
 * one user ran as every other user who ran arc anywhere under /tmp, and a `.arcrc.json` there could point their
 * adb server, or `arc mcp serve`'s address, token and origins, where its author liked (git's CVE-2022-24765 is the
 * same hole). Checked before the file is parsed or run. A package.json is a config only where it has an `arc` key.
 */
function checkTrusted(filepath: string, content: string, env: NodeJS.ProcessEnv): void {
  if (typeof process.getuid !== 'function') return
  if (path.basename(filepath) === 'package.json' && !holdsArcKey(content)) return
  const uid = process.getuid()
  const sudoUid =
    uid === 0 && env.SUDO_UID !== undefined && /^\d+$/.test(env.SUDO_UID) ? Number(env.SUDO_UID) : undefined
  const trusted = (owner: number) => owner === uid || owner === 0 || owner === sudoUid
  const refuse = (why: string, owned: boolean) => {
    throw new ConfigError(`refusing config ${filepath}: ${why}`, {
      details: {file: filepath},
      actions: [
        `If it is yours and you trust it, name it: ARC_CONFIG=${filepath}${owned ? ` (or chmod o-w ${filepath})` : ''}`,
        'Else remove it, or run arc in a folder with a package.json of its own (the search stops there).',
      ],
    })
  }
  // A link is what its maker put there, wherever it leads: another user's link to a file of root's or the user's
  // own passed the owner check, and its maker could point it elsewhere between that check and the load (a
  // JavaScript config is run by path, in a process started after the check).
  const entry = lstatSync(filepath)
  if (entry.isSymbolicLink() && !trusted(entry.uid))
    refuse(
      `it is a link made by another user (uid ${entry.uid}), who could point it at their settings, or their code`,
      false
    )
  const info = statSync(filepath)
  if (!trusted(info.uid))
    refuse(
      `it belongs to another user (uid ${info.uid}), who could make arc use their settings, or run their code, as you`,
      false
    )
  if ((info.mode & 0o002) !== 0)
    refuse(
      `anyone on this machine may change it (mode ${(info.mode & 0o777).toString(8)}), and so make arc use their settings, or run their code, as you`,
      true
    )
  // The folder it sits in (and, for a link, the folder of the file it leads to): whoever may write there may put
  // another file in its place at any time, after this check, unless the folder is sticky (/tmp), where only a file's
  // owner may remove or rename it; and whoever owns the folder may make it so.
  for (const folder of new Set([path.dirname(filepath), path.dirname(realpathSync(filepath))])) {
    const held = statSync(folder)
    if (!trusted(held.uid))
      refuse(
        `its folder ${folder} belongs to another user (uid ${held.uid}), who could put another file in its place`,
        false
      )
    if ((held.mode & 0o002) !== 0 && (held.mode & 0o1000) === 0)
      refuse(
        `anyone on this machine may put another file in its place: its folder ${folder} is writable by anyone (mode ${(held.mode & 0o777).toString(8)}) and not sticky`,
        false
      )
  }
}

/**
 * JSON as JSON.parse reads it, the error said once with its line and column. cosmiconfig's own JSON loader
 * (parse-json) quotes the offending line twice, and on a terminal in colour, whose escapes the message then writes
 * out as text (`\x1b[31m`).
 */
function loadJsonConfig(filepath: string, content: string): unknown {
  try {
    return JSON.parse(content) as unknown
  } catch (error) {
    const why = (error as Error).message
    const at = /at position (\d+)/.exec(why)
    let where = ''
    if (at && !/\(line \d+ column \d+\)/.test(why)) {
      const before = content.slice(0, Number(at[1]))
      where = ` (line ${before.split('\n').length} column ${before.length - before.lastIndexOf('\n')})`
    }
    throw new ConfigError(`cannot read config: JSON Error in ${filepath}: ${printableText(why)}${where}`, {
      details: {file: filepath},
      actions: ['Fix the file (see .arcrc.example for every key), or set ARC_CONFIG to another file.'],
    })
  }
}

/** Whether a package.json's text has a top-level `arc` key; text that is no JSON object is taken as having one. */
function holdsArcKey(content: string): boolean {
  try {
    const value: unknown = JSON.parse(content)
    return value === null || typeof value !== 'object' || Array.isArray(value) || Object.hasOwn(value, 'arc')
  } catch {
    return true
  }
}

/**
 * cosmiconfig would compile a TypeScript config with the TypeScript compiler, which arc does not install: a `.ts`
 * config (found, or named by ARC_CONFIG) is refused by name instead of failing on a missing compiler.
 */
function refuseTypeScript(filepath: string): never {
  throw new ConfigError(`cannot read config ${filepath}: arc does not read TypeScript config files`, {
    details: {file: filepath},
    actions: [
      'Write it as .arcrc.mjs, arc.config.mjs, JSON or YAML (docs/config.md), or set ARC_CONFIG to another file.',
    ],
  })
}

/** The files cosmiconfig tries in each folder, in its order (package.json is read for its `arc` key). */
const PLACE_FILES = [
  '.arcrc',
  '.arcrc.json',
  '.arcrc.yaml',
  '.arcrc.yml',
  '.arcrc.js',
  '.arcrc.ts',
  '.arcrc.mjs',
  '.arcrc.cjs',
  ...['', '.json', '.yaml', '.yml', '.js', '.ts', '.mjs', '.cjs'].map((ext) => path.join('.config', `arcrc${ext}`)),
  'arc.config.js',
  'arc.config.ts',
  'arc.config.mjs',
  'arc.config.cjs',
]

/** cosmiconfig's meta config places (its `metaSearchPlaces`), read in the process's folder besides package.json. */
const META_PLACES = [
  'package.yaml',
  ...['json', 'yaml', 'yml', 'js', 'ts', 'cjs', 'mjs'].map((ext) => path.join('.config', `config.${ext}`)),
]

/**
 * A place's stat: undefined where nothing is there (cosmiconfig skips it too), `unknown` where the stat failed
 * otherwise (a symlink loop, an I/O error): cosmiconfig's read then fails with that error, so it must decide.
 */
const statOf = (file: string) =>
  stat(file).catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' || error.code === 'ENOTDIR' ? undefined : ('unknown' as const)
  )

/**
 * Whether the package.json at `file` may give cosmiconfig something: one of `keys` (`arc`, its config; `cosmiconfig`,
 * its meta config), or anything but a readable JSON object (cosmiconfig then reads it and says what it finds). An
 * absent file gives nothing.
 */
async function packageMayHold(file: string, keys: string[]): Promise<boolean> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT'
  }
  try {
    const value: unknown = JSON.parse(text)
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return true
    return keys.some((key) => Object.hasOwn(value, key))
  } catch {
    return true
  }
}

/**
 * Walks the folders cosmiconfig's search does (from `cwd` up to the one holding package.json) and says whether that
 * search may find a config: false only when no place it tries exists there, that package.json has no `arc` key,
 * and nothing in the process's folder (package.json#cosmiconfig, package.yaml, .config/config.*: cosmiconfig's meta
 * config, which can add places, and that package.json's `arc` key, read first) could change the search; then
 * loadConfig answers "no config" without loading cosmiconfig. Whatever else it meets answers true and cosmiconfig
 * decides, so the answer is always cosmiconfig's.
 *
 * cosmiconfig's search also skips a config file it cannot read (EACCES) as if it were not there, so arc would run
 * with another config, or none, without a word: this walk refuses a config file that exists but cannot be read.
 */
async function checkPlaces(cwd: string): Promise<boolean> {
  const here = process.cwd()
  const [metaPackage, ...metaPlaces] = await Promise.all([
    packageMayHold(path.join(here, 'package.json'), ['arc', 'cosmiconfig']),
    ...META_PLACES.map((name) => statOf(path.join(here, name))),
  ])
  let maybe = metaPackage || metaPlaces.some(Boolean)
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    // Asked all at once (a folder's two dozen stats one after another were most of this walk), read in order.
    const [packageJson, packageYaml, ...infos] = await Promise.all(
      ['package.json', 'package.yaml', ...PLACE_FILES].map((name) => statOf(path.join(dir, name)))
    )
    if (packageJson === 'unknown' || packageYaml === 'unknown' || infos.includes('unknown')) return true
    for (const [i, name] of PLACE_FILES.entries()) {
      const info = infos[i]
      if (!info || info === 'unknown') continue
      const file = path.join(dir, name)
      // Not a file (a folder of that name): cosmiconfig skips it, but it is not worth a second reading of its rules.
      maybe = true
      if (!info.isFile()) continue
      const readable = await access(file, constants.R_OK).then(
        () => true,
        () => false
      )
      if (readable) return true
      throw new ConfigError(`cannot read config ${file}: permission denied`, {
        details: {file},
        actions: ['Make the file readable (`chmod a+r`), remove it, or set ARC_CONFIG to another file.'],
      })
    }
    if (packageJson) return maybe || (await packageMayHold(path.join(dir, 'package.json'), ['arc']))
    // cosmiconfig's search also ends at a package.yaml (this walk, refusing unreadable files, goes on as it did).
    if (packageYaml) maybe = true
    if (path.dirname(dir) === dir) return maybe
  }
}

/**
 * The path of the first `__proto__` key anywhere in a parsed config (JSON.parse keeps it as an own key; copying
 * it into an object would change that object's prototype or silently drop it). Walked with a stack, not
 * recursion, so no nesting depth can overflow.
 */
function findProtoKey(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']]
  while (stack.length > 0) {
    const [current, at] = stack.pop() as [unknown, string]
    if (current === null || typeof current !== 'object') continue
    for (const key of Object.keys(current)) {
      const where = at ? `${at}.${key}` : key
      if (key === '__proto__') return where
      stack.push([(current as Record<string, unknown>)[key], where])
    }
  }
  return undefined
}

/**
 * Validates one plugin-owned section (e.g. `annotate`) against the plugin's schema, so errors name the key
 * as it is written in the file: `annotate.presets.mine.color`.
 */
export function readConfigSection<S extends z.ZodType>(
  section: string,
  value: unknown,
  schema: S,
  filepath?: string
): z.output<S> {
  const parsed = schema.safeParse(value ?? {})
  if (!parsed.success) {
    throw new ConfigError(
      `invalid config${filepath ? ` in ${filepath}` : ''}: ${describeZodIssues(parsed.error, [section])}`,
      {
        details: {file: filepath, section, issues: parsed.error.issues},
        actions: ['See .arcrc.example or docs/config.md for every key and its allowed values.'],
      }
    )
  }
  return parsed.data
}
