import path from 'node:path'

import type {z} from 'zod'

import {ConfigError} from '../errors/arc-error.js'
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
  // Loaded here, not at the top: commands that never read the config (`arc --version`, help) do not pay for it.
  const {cosmiconfig, defaultLoaders} = await import('cosmiconfig')
  // A file named by ARC_CONFIG may have any name (ci.arcrc.prod, .arcrc.example): an extension cosmiconfig does
  // not know is read the way `.arcrc` is, as YAML (which takes JSON too).
  const extension = explicit ? path.extname(explicit) : ''
  const loaders = extension && !(extension in defaultLoaders) ? {[extension]: defaultLoaders.noExt} : {}
  const explorer = cosmiconfig('arc', {searchStrategy: 'project', loaders})
  let result: {config: unknown; filepath: string; isEmpty?: boolean} | null
  try {
    result = explicit ? await explorer.load(explicit) : await explorer.search(cwd)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new ConfigError(`cannot read config${explicit ? ` ${explicit}` : ''}: ${message}`, {
      cause: error,
      actions: ['Fix the file (see .arcrc.example for every key), or set ARC_CONFIG to another file.'],
    })
  }
  if (!result || result.isEmpty) return {config: {}}
  const parsed = configSchema.safeParse(result.config ?? {})
  if (!parsed.success) {
    throw new ConfigError(`invalid config in ${result.filepath}: ${describeZodIssues(parsed.error)}`, {
      details: {file: result.filepath, issues: parsed.error.issues},
      actions: ['See .arcrc.example or docs/config.md for every key and its allowed values.'],
    })
  }
  return {config: parsed.data, filepath: result.filepath}
}

/**
 * Validates one plugin-owned section (e.g. `annotate`) against the plugin's schema, so errors name the key
 * as it is written in the file: `annotate.presets.mine.color`.
 */
export function readConfigSection<S extends z.ZodType>(
  section: string,
  value: unknown,
  schema: S,
  filepath?: string,
): z.output<S> {
  const parsed = schema.safeParse(value ?? {})
  if (!parsed.success) {
    throw new ConfigError(`invalid config${filepath ? ` in ${filepath}` : ''}: ${describeZodIssues(parsed.error, [section])}`, {
      details: {file: filepath, section, issues: parsed.error.issues},
      actions: ['See .arcrc.example or docs/config.md for every key and its allowed values.'],
    })
  }
  return parsed.data
}
