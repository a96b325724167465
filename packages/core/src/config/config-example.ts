import {existsSync} from 'node:fs'
import path from 'node:path'

import {ConfigError} from '../errors/arc-error.js'

/** The commented example config at the root of arc's package (every key, its default and what it allows). */
export const CONFIG_EXAMPLE = '.arcrc.example'

/**
 * A config error's Try: lines name the example by its place in this installation (`root`: oclif's root, the
 * arc-cli package folder), where a user can open it: a bare `.arcrc.example` means nothing outside a clone.
 * Returned unchanged where the file is not there or the error is not a ConfigError.
 */
export function withConfigExamplePath(error: unknown, root: string): unknown {
  if (!(error instanceof ConfigError)) return error
  const file = path.join(root, CONFIG_EXAMPLE)
  if (!error.actions.some((action) => action.includes(CONFIG_EXAMPLE)) || !existsSync(file)) return error
  return new ConfigError(error.message, {
    details: error.details,
    actions: error.actions.map((action) => action.replaceAll(CONFIG_EXAMPLE, file)),
    cause: error,
  })
}
