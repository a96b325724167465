import type {Config} from '@oclif/core'

import {ArcError} from '../errors/arc-error.js'
import type {LoadedConfig} from './load-config.js'

/**
 * Plugin-owned config sections (`annotate`) are validated by their plugin, which the core cannot import. Every
 * command asks them through the `arc:config` hook as soon as the config is loaded, so a broken section fails
 * every command (and `arc config`) the same way, not only the command that uses it. A plugin's hook throws its
 * ConfigError; oclif collects hook errors as failures, and the first ArcError among them is thrown here.
 */
export async function checkConfigSections(oclif: Config, loaded: LoadedConfig): Promise<void> {
  const {failures} = await oclif.runHook('arc:config', {arcConfig: loaded.config, filepath: loaded.filepath})
  const failure = failures.find((f) => f.error instanceof ArcError) ?? failures[0]
  if (failure) throw failure.error
}
